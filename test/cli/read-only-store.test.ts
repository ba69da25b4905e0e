// Stores that cannot be written are still read: `show`, `export` and `runs` on a store in a `chmod -R a-w` folder
// (as an unprivileged user: root writes anywhere, so as root the commands run as nobody), one whose writer died and
// left its write-ahead log, and one on a read-only mount (root, in a private mount namespace, when it may make one).
// What they print equals what they print from the writable store, and nothing is added to the folder or left in TMPDIR.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliCommandLine, finished, spawnCli, type Captured } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-read-only-"));
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const previousTmp = process.env["TMPDIR"];
// The copies a read makes go to this file's own TMPDIR, so that the test can see that none is left behind.
const ownTmp = join(dir, "tmp");
// Exports are written here (any user may), and compared.
const outs = join(dir, "out");
let exports = 0;

/** Export run "r" of `db` through `run` (a CLI runner) into a new file; the exit and the file's text. */
async function exportText(
  run: (...argv: string[]) => Promise<Captured>,
  db: string,
): Promise<{ readonly code: number; readonly stderr: string; readonly text: string }> {
  const out = join(outs, `r-${exports++}.jsonl`);
  const result = await run("export", "r", "--db", db, "--out", out);
  return { code: result.code, stderr: result.stderr, text: result.code === 0 ? readFileSync(out, "utf8") : "" };
}

/** The CLI as a user for whom `chmod a-w` holds (nobody when this is root). */
async function unprivileged(...argv: string[]): Promise<Captured> {
  return asRoot ? finished(spawnCli(argv, { uid: NOBODY, gid: NOBODY })) : cli(...argv);
}

/** Make a folder holding a store of one complete run "r"; the store's path. */
async function storeIn(name: string): Promise<string> {
  const folder = join(dir, name);
  mkdirSync(folder);
  chmodSync(folder, 0o755);
  const db = join(folder, "runs.db");
  const made = await cli(
    "eval",
    "--env",
    "sokoban",
    "--policy",
    "noisy-oracle:0.3",
    "--tasks",
    "4",
    "--samples",
    "3",
    "--run",
    "r",
    "--db",
    db,
    "--no-progress",
    "--bootstrap",
    "0",
  );
  expect(made.code, made.stderr).toBe(0);
  return db;
}

const readOnly = (folder: string): void => void execFileSync("chmod", ["-R", "a-w", folder]);

/** A copy of the store to read the expected output from (a read leaves -wal and -shm files where it may). */
function referenceCopy(db: string): string {
  const folder = mkdtempSync(join(dir, "reference-"));
  copyFileSync(db, join(folder, "runs.db"));
  return join(folder, "runs.db");
}

beforeAll(() => {
  // Another user must reach the stores in it.
  chmodSync(dir, 0o755);
  for (const folder of [ownTmp, outs]) {
    mkdirSync(folder);
    chmodSync(folder, 0o1777);
  }
  process.env["TMPDIR"] = ownTmp;
});

afterAll(() => {
  if (previousTmp === undefined) delete process.env["TMPDIR"];
  else process.env["TMPDIR"] = previousTmp;
  execFileSync("chmod", ["-R", "u+w", dir]);
});

describe("a store in a folder that cannot be written is read", () => {
  it("show, export and runs work on a chmod -R a-w folder and print what they print from the writable store", async () => {
    const db = await storeIn("shared");
    const folder = join(dir, "shared");
    const reference = referenceCopy(db);
    const expected = {
      show: await cli("show", "r", "--db", reference),
      export: await exportText(cli, reference),
      runs: await cli("runs", "--db", reference),
    };
    expect(expected.export.text.split("\n").filter(Boolean)).toHaveLength(12);
    readOnly(folder);
    expect(readdirSync(folder)).toEqual(["runs.db"]);
    if (!asRoot) expect(() => copyFileSync(db, join(folder, "probe.db"))).toThrow(/EACCES/);
    const show = await unprivileged("show", "r", "--db", db);
    expect(show, show.stderr).toEqual({ ...expected.show, stdout: expected.show.stdout.replaceAll(reference, db) });
    const exported = await exportText(unprivileged, db);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.text).toBe(expected.export.text);
    const runs = await unprivileged("runs", "--db", db);
    expect(runs).toEqual({ ...expected.runs, stdout: expected.runs.stdout.replaceAll(reference, db) });
    // Nothing was added to the folder (no -wal, no -shm), and the copies that were read are gone.
    expect(readdirSync(folder)).toEqual(["runs.db"]);
    expect(readdirSync(ownTmp).filter((name) => name.startsWith("budgetrl-read-"))).toEqual([]);
  }, 120_000);

  it("reads the episodes that a writer which died left in its write-ahead log", async () => {
    const db = await storeIn("crashed");
    const folder = join(dir, "crashed");
    // A writer commits a second run into the log and dies before the log is merged into the store: the folder holds
    // the store and its -wal, without the -shm index (which only lives while writers do).
    const image = join(dir, "crash-image");
    mkdirSync(image);
    const writer = new Database(db);
    writer.pragma("wal_autocheckpoint = 0");
    writer.exec(
      "INSERT INTO runs (id, created_at, env, policy, seed, config, code_version, status) SELECT 'late', created_at, env, policy, seed, config, code_version, status FROM runs WHERE id = 'r'",
    );
    writer.exec("UPDATE runs SET status = 'running' WHERE id = 'r'");
    copyFileSync(db, join(image, "runs.db"));
    copyFileSync(`${db}-wal`, join(image, "runs.db-wal"));
    writer.close();
    copyFileSync(join(image, "runs.db"), db);
    copyFileSync(join(image, "runs.db-wal"), `${db}-wal`);
    expect(readdirSync(folder).sort()).toEqual(["runs.db", "runs.db-wal"]);
    readOnly(folder);
    const runs = await unprivileged("runs", "--db", db);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(/^late .* complete /m);
    expect(runs.stdout).toMatch(/^r .* running /m);
    expect(readdirSync(folder).sort()).toEqual(["runs.db", "runs.db-wal"]);
  }, 120_000);
});

/** Whether this process may bind-mount a folder read-only in a private mount namespace (root with CAP_SYS_ADMIN). */
function canMountReadOnly(): boolean {
  if (!asRoot) return false;
  const probe = mkdtempSync(join(dir, "probe-"));
  try {
    execFileSync("unshare", ["-m", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0"', probe], {
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(canMountReadOnly())("a store on a read-only mount is read (root, whom permissions do not stop)", () => {
  it("show and export work, and a write is refused with one line", async () => {
    const db = await storeIn("mounted");
    const folder = join(dir, "mounted");
    const reference = referenceCopy(db);
    const expected = { show: await cli("show", "r", "--db", reference), export: await exportText(cli, reference) };
    expect(readdirSync(folder)).toEqual(["runs.db"]);
    const onReadOnlyMount = (...argv: string[]): Promise<Captured> => {
      const [program, ...args] = cliCommandLine(argv);
      const script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"';
      return finished(
        spawn("unshare", ["-m", "sh", "-c", script, folder, program, ...args], { stdio: ["ignore", "pipe", "pipe"] }),
      );
    };
    expect(await onReadOnlyMount("show", "r", "--db", db)).toEqual({
      ...expected.show,
      stdout: expected.show.stdout.replaceAll(reference, db),
    });
    const exported = await exportText(onReadOnlyMount, db);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.text).toBe(expected.export.text);
    const before = readFileSync(db);
    const resumed = await onReadOnlyMount("eval", "--resume", "--run", "r", "--db", db, "--no-progress");
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(resumed.stderr).toMatch(/run store .*runs\.db /);
    expect(readFileSync(db).equals(before)).toBe(true);
  }, 120_000);
});
