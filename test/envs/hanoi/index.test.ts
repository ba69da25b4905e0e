import { describe, expect, it } from "vitest";
import { hanoi } from "../../../src/envs/hanoi/index.js";
import { playReplies } from "../../helpers/play-replies.js";
import { runEnvContract } from "../contract.js";

runEnvContract("hanoi", () => hanoi(), { deterministic: true });
runEnvContract("hanoi random starts", () => hanoi({ disks: 5, randomStart: true }), {
  deterministic: true,
  fuzzRuns: 3000,
});

describe("hanoi env", () => {
  const env = hanoi();
  const task = env.tasks.generate(0);
  const play = (actions: readonly string[]) => playReplies(env, env.reset(task, { seed: 0 }).state, actions);

  it("solves 3 disks in 7 moves with reward 1 at the end", () => {
    const steps = play(["A->C", "A->B", "C->B", "A->C", "B->A", "B->C", "A->C"]);
    expect(steps.map((step) => step.reward)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(steps.map((step) => step.info.progress)).toEqual([-6, -5, -4, -3, -2, -1, -0]);
    expect(steps[6]).toMatchObject({ terminated: true, info: { stopReason: "success" } });
    expect(steps[6]!.observation[0]!.content).toBe(
      "Moved disk 1 from A to C. Every disk is on C: solved!\nA:\nB:\nC: 3 2 1",
    );
  });

  it("makes an illegal move invalid, keeping its parsed text, and explains the valid moves", () => {
    const [, illegal] = play(["A->C", "A->C"]);
    expect(illegal).toMatchObject({
      reward: 0,
      terminated: false,
      info: { invalid: true, parsedAction: "A->C", progress: -6 },
    });
    expect(illegal!.observation[0]!.content).toBe(
      "Illegal move A->C: disk 2 cannot go onto the smaller disk 1. Valid moves now: A->B, C->A, C->B.\nA: 3 2\nB:\nC: 1",
    );
  });

  it("says how many distinct tasks it generates: 3^n - 1 random starts, or the one standard start", () => {
    const drawn = (disks: number, randomStart: boolean): number => {
      const towers = hanoi({ disks, randomStart });
      return new Set(Array.from({ length: 3000 }, (_, seed) => towers.tasks.id(towers.tasks.generate(seed)))).size;
    };
    expect(hanoi({ disks: 2, randomStart: true }).tasks.distinctTasks?.()).toBe(8);
    expect(drawn(2, true)).toBe(8);
    expect(hanoi({ disks: 4, randomStart: true }).tasks.distinctTasks?.()).toBe(80);
    expect(drawn(4, true)).toBe(80);
    expect(hanoi({ disks: 12 }).tasks.distinctTasks?.()).toBe(1);
    expect(drawn(5, false)).toBe(1);
  });

  it("is its own structure: the start and goal configuration is the whole problem", () => {
    const towers = hanoi({ disks: 4, randomStart: true });
    for (let seed = 0; seed < 50; seed++) {
      const start = towers.tasks.generate(seed);
      expect(towers.tasks.structureKey(start)).toBe(towers.tasks.id(start));
    }
    expect(towers.tasks.distinctStructures?.()).toBe(80);
    expect(hanoi().tasks.distinctStructures?.()).toBe(1);
  });

  it("has a reference budget of 4 x (2^n - 1) and ids naming the task", () => {
    expect(env.tasks.referenceBudget(task, "episode")).toBe(28);
    expect(env.tasks.id(task)).toBe("hanoi-3-AAA");
    expect(hanoi({ disks: 10 }).tasks.referenceBudget(hanoi({ disks: 10 }).tasks.generate(0), "episode")).toBe(
      4 * 1023,
    );
    const [custom] = env.tasks.parse("3 AAC");
    expect(env.tasks.referenceBudget(custom!, "episode")).toBe(12);
    expect(env.reset(custom!, { seed: 0 }).observation[1]!.content).toBe("A: 2 1\nB:\nC: 3");
  });

  it("gives equal configurations equal keys across tasks", () => {
    const [other] = env.tasks.parse("3 CAA");
    const [moved] = play(["A->C"]);
    expect(env.reset(other!, { seed: 0 }).info.stateKey).toBe(moved!.info.stateKey);
  });
});

describe("hanoi budget-aware oracle", () => {
  it("gives the same optimal moves within any number of turns left, from every configuration of 4 disks", () => {
    const env = hanoi({ disks: 4 });
    const task = env.tasks.generate(0);
    for (let code = 0; code < 3 ** 4; code++) {
      const pegs = Array.from({ length: 4 }, (_, disk) => Math.floor(code / 3 ** disk) % 3);
      const state = { task, pegs };
      const unlimited = env.oracle!.answer(state);
      for (let turnsLeft = 0; turnsLeft <= 20; turnsLeft++) {
        expect(env.oracle!.answer(state, turnsLeft)).toEqual({
          optimal: unlimited.optimal,
          remaining: unlimited.remaining,
          value: unlimited.remaining <= turnsLeft ? 1 : 0,
        });
      }
    }
  });
});
