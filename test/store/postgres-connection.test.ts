// A PostgreSQL server lost after the store was opened is waited for (statements and transactions are tried again
// once it is back), for up to reconnectMs; then a ConnectionLostError naming the store. A server never reached fails
// at once, and a stop signal ends the wait at once. A wait that lasts a second is said once, in one line. Each test stops and starts a cluster of its own
// (throwaway-services.ts), never the shared one.
import { afterEach, expect, it } from "vitest";
import { ConnectionLostError } from "../../src/core/errors.js";
import { openStore, type Store } from "../../src/store/open.js";
import { createRun, listRuns } from "../../src/store/runs.js";
import {
  describeWithOwnServices,
  freePort,
  throwawayPostgres,
  type ThrowawayPostgres,
} from "../helpers/throwaway-services.js";

const record = (id: string) => ({
  id,
  createdAt: "2026",
  env: "e",
  policy: "p",
  seed: 1,
  config: {},
  codeVersion: "t",
  status: "running" as const,
});

let cluster: ThrowawayPostgres | undefined;
let store: Store | undefined;
afterEach(async () => {
  await store?.close().catch(() => undefined);
  await cluster?.remove();
  store = undefined;
  cluster = undefined;
});

/** A cluster of this test's own, and a new store in it. */
async function storeOnOwnCluster(options: {
  readonly reconnectMs: number;
  readonly signal?: AbortSignal;
  readonly onWait?: (line: string) => void;
}): Promise<{ cluster: ThrowawayPostgres; store: Store }> {
  cluster = await throwawayPostgres();
  store = await openStore(cluster.url, options);
  await createRun(store, record("before"), []);
  return { cluster, store };
}

describeWithOwnServices(["postgres"], "a PostgreSQL server lost mid-run", () => {
  it("is waited for: a transaction cut by an immediate stop is tried again once the server is back", async () => {
    const { cluster: own, store: opened } = await storeOnOwnCluster({ reconnectMs: 60_000 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const writing = opened.sql.transaction(async (tx) => {
      attempts++;
      await tx.run(
        "INSERT INTO runs (id, created_at, env, policy, seed, config, code_version, status) VALUES ('during', '2026', 'e', 'p', 1, '{}', 't', 'running') ON CONFLICT DO NOTHING",
      );
      await gate;
      await tx.run("UPDATE runs SET status = 'complete' WHERE id = 'during'");
    });
    await new Promise((resolve) => setImmediate(resolve));
    // The server goes away while the transaction holds a connection (its client's error must not end the process).
    await own.stop("immediate");
    release();
    const reading = listRuns(opened);
    await own.start();
    await writing;
    expect(attempts).toBe(2);
    expect((await reading).map((run) => run.id)).toContain("before");
    expect((await listRuns(opened)).map((run) => [run.id, run.status])).toEqual([
      ["before", "running"],
      ["during", "complete"],
    ]);
  }, 60_000);

  it("fails with a ConnectionLostError naming the store once the server stayed away for reconnectMs", async () => {
    const { cluster: own, store: opened } = await storeOnOwnCluster({ reconnectMs: 400 });
    await own.stop("fast");
    const started = performance.now();
    const failure = await listRuns(opened).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(failure).toBeInstanceOf(ConnectionLostError);
    expect((failure as Error).message).toMatch(
      /^lost the connection to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres and it did not come back within 0\.\d s \(.*ECONNREFUSED.*\)$/,
    );
    // Back again, the store works.
    await own.start();
    expect((await listRuns(opened)).map((run) => run.id)).toEqual(["before"]);
  }, 60_000);

  it("says once, after a second, what it waits for and for how long, however many statements wait", async () => {
    const lines: string[] = [];
    const { cluster: own, store: opened } = await storeOnOwnCluster({
      reconnectMs: 2500,
      onWait: (line) => lines.push(line),
    });
    await own.stop("fast");
    const failures = await Promise.all(
      [listRuns(opened), listRuns(opened), opened.sql.run("UPDATE runs SET status = 'complete'")].map((work) =>
        work.then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    for (const failure of failures) expect(failure).toBeInstanceOf(ConnectionLostError);
    expect(lines).toEqual([
      expect.stringMatching(
        /^lost the connection to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres \(.*ECONNREFUSED.*\); trying again for up to 2\.5 s in all \(--reconnect-timeout\), then giving up$/,
      ),
    ]);
  }, 60_000);

  it("ends the wait at once when the run is stopped", async () => {
    const stop = new AbortController();
    const { cluster: own, store: opened } = await storeOnOwnCluster({ reconnectMs: 60_000, signal: stop.signal });
    await own.stop("fast");
    const reading = listRuns(opened);
    const started = performance.now();
    stop.abort();
    await expect(reading).rejects.toThrow(ConnectionLostError);
    expect(performance.now() - started).toBeLessThan(5000);
  }, 60_000);

  it("does not wait for a server it never reached", async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const started = performance.now();
    await expect(openStore(url, { reconnectMs: 60_000 })).rejects.toThrow(
      /cannot reach the PostgreSQL server of run store .* \(ECONNREFUSED\): start it/,
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
