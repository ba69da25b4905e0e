import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../helpers/sqlite.js";
import { allText, cli, exitOf, spawnCli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-export-"));
const db = join(dir, "runs.db");

beforeAll(async () => {
  expect(
    (
      await cli(
        "eval",
        "--env",
        "sokoban",
        "--policy",
        "noisy-oracle:0.3",
        "--tasks",
        "40",
        "--samples",
        "20",
        "--run",
        "r",
        "--db",
        db,
        "--no-progress",
        "--bootstrap",
        "0",
      )
    ).code,
  ).toBe(0);
}, 60_000);

describe("budgetrl export", () => {
  it("ends quietly with exit 0 when the reader closes the pipe (| head)", async () => {
    const child = spawnCli(["export", "r", "--db", db]);
    const exit = exitOf(child);
    const stderr = allText(child.stderr!);
    // Read the first chunk, then close the pipe as `head -1` does.
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    child.stdout!.destroy();
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(await stderr).toBe("");
  }, 60_000);

  it("refuses an output folder that does not exist, before any work", async () => {
    const result = await cli("export", "r", "--db", db, "--out", join(dir, "missing", "r.jsonl"));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--out: the folder .*missing does not exist/);
  });

  it("leaves an earlier export byte-identical when a new one fails half-way", async () => {
    const out = join(dir, "r.jsonl");
    expect((await cli("export", "r", "--db", db, "--out", out)).code).toBe(0);
    const before = readFileSync(out);
    const damagedDb = join(dir, "damaged.db");
    writeFileSync(damagedDb, readFileSync(db));
    const store = openSqlite(damagedDb);
    store.db.prepare("UPDATE turns SET action = 'not json' WHERE task_index = 30 AND turn_index = 1").run();
    store.close();
    const failed = await cli("export", "r", "--db", damagedDb, "--out", out);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/run "r" in .*damaged\.db holds a damaged episode \(after 600 readable ones\)/);
    expect(readFileSync(out).equals(before)).toBe(true);
  });
});
