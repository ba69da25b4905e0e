// `budgetrl eval --tasks N` plays N distinct tasks (by content: the task id is a content hash) on every env, where
// plain draws from the seed repeat, says so above the table, and refuses, before any work, an env config with fewer
// distinct tasks than asked for.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEnv } from "../../src/envs/registry.js";
import { taskSeed } from "../../src/eval/tasks.js";
import { cli } from "./helpers.js";
import { storedIds } from "../helpers/stored-ids.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-distinct-"));

/** How many distinct tasks plain draws from seed 1 hold (what runs drew before tasks were distinct). */
function plainDistinct(env: string, options: Record<string, unknown>, tasks: number): number {
  const made = createEnv(env, options);
  return new Set(Array.from({ length: tasks }, (_, index) => made.tasks.id(made.tasks.generate(taskSeed(1, index)))))
    .size;
}

/** `repeats`: plain draws of this many tasks from seed 1 repeat some (so distinctness is what made them N). */
const CASES = [
  { env: "sokoban", options: [] as string[], tasks: 200, policy: "oracle", repeats: true },
  { env: "frozenlake", options: [], tasks: 200, policy: "oracle", repeats: true },
  {
    env: "hanoi",
    options: ["--env-opt", "disks=3", "--env-opt", "randomStart=true"],
    tasks: 26,
    policy: "oracle",
    repeats: true,
  },
  { env: "vault", options: ["--env-opt", "maxLocks=3"], tasks: 200, policy: "oracle", repeats: true },
  { env: "thinice", options: [], tasks: 200, policy: "oracle", repeats: false },
  { env: "bfcl", options: [], tasks: 20, policy: "replay", repeats: false },
];

describe("budgetrl eval --tasks N", () => {
  it.each(CASES)(
    "plays N distinct $env tasks and states the estimand",
    async ({ env, options, tasks, policy, repeats }) => {
      const db = join(dir, `${env}.db`);
      const result = await cli(
        "eval",
        "--env",
        env,
        ...options,
        "--policy",
        policy,
        "--tasks",
        String(tasks),
        "--samples",
        "1",
        "--bootstrap",
        "0",
        "--seed",
        "1",
        "--db",
        db,
        "--run",
        "r",
        "--no-progress",
      );
      expect(result.code).toBe(0);
      const ids = await storedIds(db, "r");
      expect(ids).toHaveLength(tasks);
      expect(new Set(ids).size).toBe(tasks);
      expect(result.stdout).toContain(`Pass@(K,T): means over ${tasks} distinct tasks, no intervals`);
      if (repeats) {
        const optionRecord = Object.fromEntries(
          options.filter((_, index) => index % 2 === 1).map((pair) => pair.split("=")),
        );
        expect(plainDistinct(env, optionRecord, tasks)).toBeLessThan(tasks);
      }
    },
    60_000,
  );

  it("refuses more tasks than the env config has, before any work, in one line naming the env, its config and its size", async () => {
    const db = join(dir, "too-many.db");
    const hanoi = await cli(
      "eval",
      "--env",
      "hanoi",
      "--env-opt",
      "randomStart=true",
      "--tasks",
      "40",
      "--db",
      db,
      "--no-progress",
    );
    expect(hanoi.code).toBe(2);
    expect(hanoi.stderr).toMatch(
      /^budgetrl eval: --tasks: hanoi disks=3 randomStart=true referenceFactor=4 has only 26 distinct tasks, fewer than the 40 asked for\nHINT: ask for at most 26/,
    );
    const lake = await cli(
      "eval",
      "--env",
      "frozenlake",
      "--env-opt",
      "map=4x4",
      "--tasks",
      "2",
      "--db",
      db,
      "--no-progress",
    );
    expect(lake.code).toBe(2);
    expect(lake.stderr).toMatch(
      /tasks: frozenlake size=4 p=0\.8 slippery=false map=4x4 referenceFactor=4 has only 1 distinct task, fewer than the 2 asked for/,
    );
    expect(existsSync(db)).toBe(false);
  });
});
