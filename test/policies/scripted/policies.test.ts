import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import type { Budget } from "../../../src/core/budget.js";
import { DataError } from "../../../src/core/errors.js";
import { hanoi } from "../../../src/envs/hanoi/index.js";
import { sokoban } from "../../../src/envs/sokoban/index.js";
import { createPolicy } from "../../../src/policies/spec.js";
import { readPolicySpec } from "../../../src/core/policy-spec.js";
import { parseReplayScript } from "../../../src/policies/scripted/replay.js";

const budget: Budget = { turns: 60, mode: "hidden", scope: "episode", label: "60" };
const spec = <T>(task: T, seed: number, taskId = "t") => ({
  run: "p",
  task,
  taskId,
  taskIndex: 0,
  budget,
  sample: 0,
  seed,
});

describe("scripted policies", () => {
  it("oracle and noisy-oracle:0 solve every task optimally; replay plays the reference solution", async () => {
    const env = hanoi({ disks: 4 });
    const task = env.tasks.generate(0);
    for (const name of ["oracle", "noisy-oracle:0", "replay"]) {
      const episode = await runEpisode(env, await createPolicy(readPolicySpec(name)), spec(task, 1));
      expect(episode.success, name).toBe(true);
      expect(episode.turnsUsed, name).toBe(15);
    }
  });

  it("noisy-oracle:1 and random only play valid actions, and the same seed repeats the episode", async () => {
    const env = sokoban();
    const task = env.tasks.generate(2);
    for (const name of ["random", "noisy-oracle:1"]) {
      const a = await runEpisode(env, await createPolicy(readPolicySpec(name)), spec(task, 9));
      const b = await runEpisode(env, await createPolicy(readPolicySpec(name)), spec(task, 9));
      expect(a.turns.every((turn) => ["Up", "Down", "Left", "Right"].includes(turn.parsedAction ?? ""))).toBe(true);
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      const c = await runEpisode(env, await createPolicy(readPolicySpec(name)), spec(task, 10));
      expect(JSON.stringify(c.turns)).not.toBe(JSON.stringify(a.turns));
    }
  });

  it("noisy-oracle with epsilon 0.5 takes about half its actions at random", async () => {
    const env = sokoban({ width: 8, height: 8 });
    let optimal = 0;
    let total = 0;
    for (let seed = 0; seed < 30; seed++) {
      const episode = await runEpisode(
        env,
        await createPolicy(readPolicySpec("noisy-oracle:0.5")),
        spec(env.tasks.generate(seed), seed),
      );
      for (const turn of episode.turns) {
        // Dead states (a box stuck in a corner) have no optimal action at all.
        if (!Number.isFinite(turn.remainingBefore ?? Infinity)) continue;
        total++;
        if (turn.optimal === true) optimal++;
      }
    }
    // A random action is optimal by chance a quarter to a half of the time: expect 0.5 + 0.5 * that.
    expect(optimal / total).toBeGreaterThan(0.6);
    expect(optimal / total).toBeLessThan(0.8);
  });

  it("replay:FILE plays per-task scripts, then empty replies", async () => {
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-replay-"));
    const file = join(dir, "script.json");
    writeFileSync(file, JSON.stringify({ h: ["A->C", "A->B"] }));
    const env = hanoi();
    const episode = await runEpisode(env, await createPolicy(readPolicySpec(`replay:${file}`)), {
      ...spec(env.tasks.generate(0), 1, "h"),
      budget: { ...budget, turns: 3 },
    });
    expect(episode.turns.map((turn) => turn.parsedAction)).toEqual(["A->C", "A->B", null]);
    expect(parseReplayScript('{"task": "a", "actions": ["x"]}\n{"task": "b", "actions": []}').get("a")).toEqual(["x"]);
    expect(() => parseReplayScript('{"task": 1}')).toThrow(DataError);
    expect(() => readPolicySpec("noisy-oracle:abc")).toThrow(/noisy-oracle needs a probability/);
    await expect(createPolicy(readPolicySpec("noisy-oracle:2"))).rejects.toThrow(/epsilon must be in \[0, 1\]/);
    await expect(createPolicy(readPolicySpec(`replay:${join(dir, "none.json")}`))).rejects.toThrow(
      /cannot read replay file/,
    );
  });
});
