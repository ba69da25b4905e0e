// Opening PostgreSQL stores: a database gets its tables on creation only, another program's database is refused
// untouched, and an unreachable server, a missing database or a refused login are one-line errors with the fix.
import pg from "pg";
import { expect, it } from "vitest";
import { DataError } from "../../src/core/errors.js";
import { openStore, storeLocation, withStore } from "../../src/store/open.js";
import { createRun, listRuns } from "../../src/store/runs.js";
import { describeWithServices, freshPostgresDatabase } from "../helpers/services.js";

async function tablesOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
      )
    ).rows.map((row) => row.table_name);
  } finally {
    await client.end();
  }
}

describeWithServices(["postgres"], "PostgreSQL run stores", () => {
  it("adds every table on create only, then opens in every mode; several openers at once add them once", async () => {
    const url = await freshPostgresDatabase();
    await expect(openStore(url, { mode: "read" })).rejects.toThrow(
      /is not a budgetrl run store \(the database has no tables\)/,
    );
    await expect(openStore(url, { mode: "write" })).rejects.toThrow(DataError);
    expect(await tablesOf(url)).toEqual([]);
    const stores = await Promise.all([openStore(url), openStore(url), openStore(url)]);
    await Promise.all(stores.map((store) => store.close()));
    expect(await tablesOf(url)).toEqual(["episodes", "meta", "runs", "tasks", "train_steps", "turn_tokens", "turns"]);
    for (const mode of ["read", "write", "create"] as const) await (await openStore(url, { mode })).close();
    await withStore(url, { mode: "write" }, (store) =>
      createRun(
        store,
        { id: "r", createdAt: "2026", env: "e", policy: "p", seed: 1, config: {}, codeVersion: "t", status: "running" },
        [],
      ),
    );
    expect((await withStore(url, { mode: "read" }, listRuns)).map((run) => run.id)).toEqual(["r"]);
  });

  it("refuses a database of another program without adding a table to it", async () => {
    const url = await freshPostgresDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)");
    await client.end();
    for (const mode of ["create", "write", "read"] as const) {
      await expect(openStore(url, { mode })).rejects.toThrow(
        /is a PostgreSQL database of another program \(tables: invoices\), not a budgetrl run store; budgetrl will not add its tables to it/,
      );
    }
    expect(await tablesOf(url)).toEqual(["invoices"]);
  });

  it("names a missing database, a refused login and an unreachable server in one line, never showing a password", async () => {
    const base = new URL(await freshPostgresDatabase());
    base.pathname = "/no_such_database";
    base.search = "";
    await expect(openStore(base.toString())).rejects.toThrow(
      /^database "no_such_database" does not exist \(run store postgres:\/\/.*\/no_such_database\): create it \(createdb NAME\)/,
    );
    const stranger = new URL(base);
    stranger.username = "nobody_here";
    stranger.password = "s3cret";
    const login = openStore(stranger.toString());
    await expect(login).rejects.toThrow(
      /the PostgreSQL server of run store postgres:\/\/nobody_here@.* refused the login .*: check the user in --db and the password \(PGPASSWORD or ~\/.pgpass\)/,
    );
    await expect(login).rejects.not.toThrow(/s3cret/);
    expect(storeLocation(stranger.toString())).not.toContain("s3cret");
    const closed = new URL(base);
    closed.port = "1";
    await expect(openStore(closed.toString())).rejects.toThrow(
      /^cannot reach the PostgreSQL server of run store postgres:\/\/.*:1\/no_such_database \(ECONNREFUSED\): start it, or check the host and port in --db$/,
    );
  });
});
