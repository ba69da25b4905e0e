// The eval that loses a service mid-run (test/cli/lost-postgres.test.ts, lost-redis.test.ts): its arguments, its
// export (to compare with an uninterrupted local run's, byte for byte), and the one line it stops with when the
// service stays away past --reconnect-timeout.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { cli, type Captured } from "../cli/helpers.js";

/** 1200 episodes: long enough that a service stopped after the first ones are stored is stopped mid-run. */
export const LOST_RUN = [
  "--env",
  "sokoban",
  "--policy",
  "noisy-oracle:0.3",
  "--tasks",
  "300",
  "--samples",
  "4",
  "--seed",
  "5",
  "--bootstrap",
  "0",
  "--run",
  "k",
  "--no-progress",
];
export const LOST_RUN_EPISODES = 1200;

let exports = 0;

/** Run k of `db` as `budgetrl export` writes it. */
export async function exported(db: string, dir: string): Promise<string> {
  const out = join(dir, `export-${exports++}.jsonl`);
  const result = await cli("export", "k", "--db", db, "--out", out);
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(out, "utf8");
}

/** The export of the run played in this process into an SQLite store, uninterrupted. */
export async function referenceExport(dir: string): Promise<string> {
  const db = join(dir, "reference.db");
  const result = await cli("eval", ...LOST_RUN, "--db", db);
  expect(result.code, result.stderr).toBe(0);
  const text = await exported(db, dir);
  expect(text.split("\n").filter(Boolean)).toHaveLength(LOST_RUN_EPISODES);
  return text;
}

/** The line an eval prints once a lost service was waited for a second. */
const WAIT_LINE =
  /^budgetrl eval: lost the connection to (Redis|PostgreSQL) at \S+ \(.*\); trying again for up to \d+(\.\d+)? s in all \(--reconnect-timeout\), then giving up$/;

/** The eval stopped with exit 2, printing its start line, the line of the wait (which lasted the 2 s of
 * --reconnect-timeout), then one line that names the lost service (`line`: its beginning), the timeout and the
 * command to resume, and nothing else (no stack trace); that command. */
export function resumeCommandOf(result: Captured, line: RegExp): string {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  const lines = result.stderr.split("\n").filter(Boolean);
  expect(lines, result.stderr).toHaveLength(3);
  expect(lines[0]).toMatch(/^run k: 1200 episodes, stored in .* as they finish/);
  expect(lines[1]).toMatch(WAIT_LINE);
  expect(lines[2]).toMatch(line);
  expect(lines[2]).toMatch(
    / and it did not come back within 2(\.\d)? s \(.+\); the episodes stored so far are kept: when it is back, continue with: budgetrl eval --resume --run k --db /,
  );
  return /continue with: (budgetrl eval .*)$/.exec(lines[2] as string)?.[1] ?? "";
}

/** An eval that completed: exit 0, and on stderr its start line, then at most the line of a wait that lasted over a
 * second (one shorter prints nothing). */
export function expectCompleted(result: Captured): void {
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stderr.split("\n").filter(Boolean);
  expect(lines.length, result.stderr).toBeGreaterThanOrEqual(1);
  expect(lines.length, result.stderr).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^run k: 1200 episodes, stored in .* as they finish/);
  if (lines.length === 2) expect(lines[1]).toMatch(WAIT_LINE);
}
