import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore, withStore } from "../../src/store/open.js";
import { listRuns } from "../../src/store/runs.js";
import { until } from "../helpers/until.js";
import { runCli } from "../../src/cli/run-cli.js";
import { allText, cli, exitOf, spawnCli, type Captured } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-faults-"));
let counter = 0;
const fresh = (): string => join(dir, `store-${counter++}.db`);
const small = ["--tasks", "3", "--samples", "2", "--no-progress", "--bootstrap", "0"];

/** Exit 2, nothing on stdout, and exactly one line on stderr that matches. */
function expectRefused(result: Captured, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
}

describe("store faults are one-line errors with the fix, exit 2, nothing written", () => {
  it("refuses a SQLite file of another program, in every command, adding nothing to it", async () => {
    const foreign = fresh();
    const other = new Database(foreign);
    other.exec("CREATE TABLE contacts (name TEXT, phone TEXT); INSERT INTO contacts VALUES ('Ada', '555');");
    other.close();
    const before = readFileSync(foreign);
    const refusal =
      /is an SQLite file of another program \(tables: contacts\), not a budgetrl run store; budgetrl will not add its tables to it: use another --db/;
    expectRefused(await cli("eval", "--db", foreign, ...small), refusal);
    expectRefused(await cli("eval", "--db", foreign, "--resume"), refusal);
    expectRefused(await cli("runs", "--db", foreign), refusal);
    expectRefused(await cli("show", "r", "--db", foreign), refusal);
    expectRefused(await cli("export", "r", "--db", foreign), refusal);
    expect(readFileSync(foreign).equals(before)).toBe(true);
  });

  it("refuses a file that is not a database", async () => {
    const text = fresh();
    writeFileSync(text, "these are my notes, not a database\n".repeat(100));
    const before = readFileSync(text);
    for (const args of [["eval", ...small], ["eval", "--resume"], ["runs"], ["show"]]) {
      expectRefused(
        await cli(...args, "--db", text),
        /is not an SQLite run store \(file is not a database\): check the --db path, or use another --db/,
      );
    }
    expect(readFileSync(text).equals(before)).toBe(true);
  });

  it("refuses --resume on a missing or empty store, and a store path that cannot be one, creating nothing", async () => {
    const missing = fresh();
    expectRefused(
      await cli("eval", "--resume", "--db", missing),
      /nothing to resume: .* does not exist; check --db, or start a run with `budgetrl eval --db /,
    );
    expect(existsSync(missing)).toBe(false);
    const empty = fresh();
    await (await openStore(empty)).close();
    const before = readFileSync(empty);
    expectRefused(
      await cli("eval", "--resume", "--db", empty),
      /nothing to resume: .* has no runs; start one with `budgetrl eval --db /,
    );
    expect(readFileSync(empty).equals(before)).toBe(true);
    expectRefused(
      await cli("eval", "--db", join(dir, "no-folder", "x.db"), ...small),
      /cannot create run store .*: the folder .*no-folder does not exist; create it or use another --db/,
    );
    expectRefused(
      await cli("eval", "--db", dir, ...small),
      /is a folder, not a run store: give a file name, e.g. --db .*\/runs\.db/,
    );
  });

  it("waits for a store another program is writing, then gives up with a one-line error", async () => {
    const db = fresh();
    await (await openStore(db)).close();
    const other = new Database(db);
    other.exec("BEGIN IMMEDIATE");
    try {
      expectRefused(
        await cli("eval", "--db", db, "--busy-timeout", "0.2", ...small),
        /run store .* is locked by another program writing to it: wait for it to finish or close it/,
      );
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(await withStore(db, { readonly: true }, listRuns)).toEqual([]);
  });

  it("show waits for a store another program holds locked, says so after a second, and gives up at --busy-timeout", async () => {
    const db = fresh();
    expect((await cli("eval", "--db", db, "--run", "r", ...small)).code).toBe(0);
    // A connection in exclusive locking mode that wrote holds the lock until it closes: readers wait too.
    const other = new Database(db);
    other.pragma("locking_mode = EXCLUSIVE");
    other.exec("BEGIN EXCLUSIVE; UPDATE runs SET status = status; COMMIT");
    const lines: { readonly at: number; readonly text: string }[] = [];
    const started = performance.now();
    let stdout = "";
    const show = (timeout: string): Promise<number> =>
      runCli(["show", "r", "--db", db, "--busy-timeout", timeout], {
        stdout: (text) => void (stdout += text),
        stderr: (text) => {
          lines.push({ at: performance.now() - started, text });
        },
        interactive: false,
      });
    try {
      const code = await show("3");
      const ended = performance.now() - started;
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(lines.map((line) => line.text)).toEqual([
        expect.stringMatching(
          /^budgetrl show: waiting for run store .*store-\d+\.db: another program holds its lock \(writing to it\); waiting up to 3 s in all \(--busy-timeout\), then giving up\n$/,
        ),
        expect.stringMatching(/^budgetrl show: run store .* is locked by another program writing to it: .*\n$/),
      ]);
      // Said after a second of waiting, within two; the wait ended at the timeout.
      expect(lines[0]!.at).toBeGreaterThanOrEqual(1000);
      expect(lines[0]!.at).toBeLessThan(2000);
      expect(ended).toBeGreaterThanOrEqual(3000);
      expect(ended).toBeLessThan(5000);
      // Every command that opens a store takes the flag, and gives up the same way.
      for (const args of [
        ["runs"],
        ["export", "r"],
        ["report", "--out", join(dir, "locked.html")],
        ["sft", "--from-run", "r", "--out", join(dir, "locked-sft")],
      ]) {
        const refused = await cli(...args, "--db", db, "--busy-timeout", "0.2");
        expect(refused.code, refused.stderr).toBe(2);
        expect(refused.stderr).toMatch(/^budgetrl \w+: run store .* is locked by another program writing to it: /);
        expect(refused.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      }
      // A lock released during the wait: the command goes on.
      lines.length = 0;
      const again = show("60");
      await until(
        () => Promise.resolve(lines.length),
        (count) => count > 0,
        "the wait's line",
      );
      other.close();
      expect(await again).toBe(0);
      expect(stdout).toMatch(/K \\ T/);
    } finally {
      if (other.open) other.close();
    }
  }, 60_000);

  it("refuses a read-only store before writing anything", async () => {
    const roDir = mkdtempSync(join(tmpdir(), "budgetrl-ro-"));
    chmodSync(roDir, 0o755);
    const db = join(roDir, "runs.db");
    expect((await cli("eval", "--db", db, "--run", "r", ...small)).code).toBe(0);
    chmodSync(db, 0o444);
    const before = readFileSync(db);
    const args = ["eval", "--db", db, "--run", "r2", ...small];
    let result: Captured;
    if (process.getuid?.() === 0) {
      // root writes to any file: run the command as an unprivileged user, for whom the file is read-only.
      const child = spawnCli(args, { uid: 65534, gid: 65534 });
      const [stdout, stderr, { code }] = await Promise.all([
        allText(child.stdout!),
        allText(child.stderr!),
        exitOf(child),
      ]);
      result = { code: code ?? -1, stdout, stderr };
    } else {
      result = await cli(...args);
    }
    expectRefused(
      result,
      /run store .*runs\.db is read-only: make the file and its folder writable, or use another --db/,
    );
    expect(readFileSync(db).equals(before)).toBe(true);
    // Reading it is fine.
    expect((await cli("show", "r", "--db", db)).code).toBe(0);
  }, 60_000);

  it("lets several evals write different runs into one store at once (they wait for each other)", async () => {
    const db = fresh();
    const runs = ["a", "b", "c"].map((run) =>
      spawnCli([
        "eval",
        "--env",
        "sokoban",
        "--policy",
        "noisy-oracle:0.3",
        "--tasks",
        "30",
        "--samples",
        "20",
        "--run",
        run,
        "--db",
        db,
        "--no-progress",
        "--bootstrap",
        "0",
      ]),
    );
    const finished = Promise.all(
      runs.map(async (child) => ({ stderr: await allText(child.stderr!), ...(await exitOf(child)) })),
    );
    // Once all three are writing, another program holds the write lock for a second, as a slow writer does: those
    // still writing must wait for it (none can finish without committing its last episodes), then for each other.
    await until(() => Promise.resolve(existsSync(db)), Boolean, "the store made by one of them");
    const other = new Database(db, { timeout: 60_000, fileMustExist: true });
    const writing = (): number => {
      try {
        return other.prepare("SELECT COUNT(DISTINCT run_id) FROM episodes").pluck().get() as number;
      } catch {
        return 0; // its tables are being added
      }
    };
    await until(
      () => Promise.resolve(writing()),
      (count) => count === 3,
      "three runs writing",
    );
    other.exec("BEGIN IMMEDIATE");
    // The first may already be done on a loaded machine; the one that wrote last is still writing and must wait.
    expect(other.prepare("SELECT status FROM runs ORDER BY id").pluck().all()).toContain("running");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    other.exec("COMMIT");
    other.close();
    const results = await finished;
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const stored = await withStore(db, { readonly: true }, listRuns);
    expect(stored.map((run) => [run.id, run.status, run.episodes]).sort()).toEqual([
      ["a", "complete", 600],
      ["b", "complete", 600],
      ["c", "complete", 600],
    ]);
  }, 120_000);
});
