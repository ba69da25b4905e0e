import { describe, expect, it } from "vitest";
import { assistantMessage } from "../../../src/core/message.js";
import { createRng } from "../../../src/core/rng.js";
import { BudgetrlError } from "../../../src/core/errors.js";
import { frozenlake, type FrozenLakeState } from "../../../src/envs/frozenlake/index.js";
import { playReplies } from "../../helpers/play-replies.js";
import { runEnvContract } from "../contract.js";

runEnvContract("frozenlake", () => frozenlake(), { deterministic: true });
runEnvContract("frozenlake slippery", () => frozenlake({ slippery: true, size: 5 }), { deterministic: false });
runEnvContract("frozenlake 8x8", () => frozenlake({ map: "8x8" }), { deterministic: true, seeds: [0], fuzzRuns: 2000 });

describe("frozenlake env", () => {
  const env = frozenlake({ map: "4x4" });
  const task = env.tasks.generate(0);
  const play = (actions: readonly string[], seed = 0) => playReplies(env, env.reset(task, { seed }).state, actions);

  it("reaches the goal with reward 1 and stopReason success", () => {
    const steps = play(["Down", "Down", "Right", "Down", "Right", "Right"]);
    expect(steps.map((step) => step.reward)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(steps[5]).toMatchObject({ terminated: true, info: { stopReason: "success", progress: 1 } });
    expect(steps[5]!.observation[0]!.content).toBe("Moved Right. You reached the goal!\nSFFF\nFHFH\nFFFH\nHFFP");
  });

  it("ends in a hole with reward 0 and stopReason failure", () => {
    const steps = play(["Right", "Down"]);
    expect(steps[1]).toMatchObject({ reward: 0, terminated: true, info: { stopReason: "failure", progress: 0 } });
    expect(env.oracle!.answer(steps[1]!.state)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
    expect(env.actions.valid(steps[1]!.state)).toEqual([]);
  });

  it("says how many distinct maps it generates where counting is cheap: all of them turn up from enough seeds", () => {
    const drawn = (options: Parameters<typeof frozenlake>[0], seeds: number): number => {
      const lake = frozenlake(options);
      return new Set(Array.from({ length: seeds }, (_, seed) => lake.tasks.id(lake.tasks.generate(seed)))).size;
    };
    // 3x3 at p = 0.5: every hole pattern is equally likely before the reachability filter (51 of 128 pass).
    expect(frozenlake({ size: 3, p: 0.5 }).tasks.distinctTasks?.()).toBe(51);
    expect(drawn({ size: 3, p: 0.5 }, 5000)).toBe(51);
    expect(frozenlake({ size: 2 }).tasks.distinctTasks?.()).toBe(3);
    expect(drawn({ size: 2 }, 500)).toBe(3);
    expect(frozenlake().tasks.distinctTasks?.()).toBe(3828);
    expect(frozenlake({ size: 6, p: 1 }).tasks.distinctTasks?.()).toBe(1);
    expect(frozenlake({ map: "8x8" }).tasks.distinctTasks?.()).toBe(1);
    expect(frozenlake({ size: 5 }).tasks.distinctTasks).toBeUndefined();
  });

  it("counts the structures of its maps where it counts the maps: all of them turn up from enough seeds", () => {
    const drawn = (options: Parameters<typeof frozenlake>[0], seeds: number): number => {
      const lake = frozenlake(options);
      return new Set(Array.from({ length: seeds }, (_, seed) => lake.tasks.structureKey(lake.tasks.generate(seed))))
        .size;
    };
    // 3x3: of the 51 maps, those whose corner cells are cut off by holes share their structure with others.
    expect(frozenlake({ size: 3, p: 0.5 }).tasks.distinctStructures?.()).toBe(drawn({ size: 3, p: 0.5 }, 5000));
    expect(frozenlake({ size: 3, p: 0.5 }).tasks.distinctStructures?.()).toBeLessThan(51);
    expect(frozenlake().tasks.distinctStructures?.()).toBe(2083);
    expect(frozenlake({ size: 6, p: 1 }).tasks.distinctStructures?.()).toBe(1);
    expect(frozenlake({ map: "8x8" }).tasks.distinctStructures?.()).toBe(1);
    expect(frozenlake({ size: 5 }).tasks.distinctStructures).toBeUndefined();
  });

  it("has a reference budget of 4x the shortest path", () => {
    expect(env.tasks.referenceBudget(task, "episode")).toBe(24);
    expect(frozenlake({ map: "8x8", referenceFactor: 2 }).tasks.referenceBudget(task, "episode")).toBe(12);
  });

  it("slips as drawn from the reset seed, the same way for the same seed", () => {
    const slippery = frozenlake({ map: "4x4", slippery: true });
    const run = (seed: number): string[] => {
      let { state } = slippery.reset(task, { seed });
      const cells: string[] = [];
      for (let turn = 0; turn < 30; turn++) {
        const result = slippery.step(state, assistantMessage("Right"));
        cells.push(String((result.state as FrozenLakeState).cell));
        state = result.state;
        if (result.terminated) break;
      }
      return cells;
    };
    expect(run(7)).toEqual(run(7));
    const distinct = new Set(Array.from({ length: 20 }, (_, seed) => run(seed).join(",")));
    expect(distinct.size).toBeGreaterThan(5);
  });

  it("keeps the slip stream out of the state key", () => {
    const slippery = frozenlake({ map: "4x4", slippery: true });
    const a = slippery.reset(task, { seed: 1 });
    const b = slippery.reset(task, { seed: 2 });
    expect(a.state.rng).not.toEqual(b.state.rng);
    expect(a.info.stateKey).toBe(b.info.stateKey);
    expect(a.info.stateKey).toBe(env.reset(task, { seed: 3 }).info.stateKey);
  });

  it("succeeds about as often as the oracle's value says when following the oracle on slippery ice", () => {
    const slippery = frozenlake({ map: "4x4", slippery: true });
    const rng = createRng(11);
    const episodes = 3000;
    let successes = 0;
    for (let episode = 0; episode < episodes; episode++) {
      let { state } = slippery.reset(task, { seed: episode });
      for (let turn = 0; turn < 500; turn++) {
        const result = slippery.step(state, assistantMessage(rng.pick(slippery.oracle!.answer(state).optimal)));
        state = result.state;
        if (result.terminated) {
          if (result.info.stopReason === "success") successes += 1;
          break;
        }
      }
    }
    const rate = successes / episodes;
    const value = slippery.oracle!.answer(slippery.reset(task, { seed: 0 }).state).value!;
    // Standard error sqrt(0.82 * 0.18 / 3000) = 0.007: allow 4 of them.
    expect(Math.abs(rate - value)).toBeLessThan(0.028);
  });

  it("costs the turn without moving on unreadable replies", () => {
    const [step] = play(["jump!"]);
    expect(step).toMatchObject({ reward: 0, terminated: false, info: { invalid: true, parsedAction: null } });
    expect(step!.observation[0]!.content).toBe(
      "Invalid action. Answer with one of Up, Down, Left, Right, e.g. <answer>Up</answer>.\nPFFF\nFHFH\nFFFH\nHFFG",
    );
  });
});

describe("frozenlake budget-aware oracle", () => {
  const slippery = frozenlake({ map: "4x4", slippery: true });
  const task = slippery.tasks.generate(0);
  const start = slippery.reset(task, { seed: 0 }).state;
  const at = (cell: number): FrozenLakeState => ({ ...start, cell });

  it("answers within the turns left from the finite-horizon table, and without them with the fastest unlimited moves", () => {
    expect(slippery.oracle!.answer(start, 6)).toMatchObject({ optimal: ["Down", "Right"], remaining: 6 });
    expect(slippery.oracle!.answer(start, 6).value).toBeCloseTo(1 / 243, 15);
    expect(slippery.oracle!.answer(start, 5)).toEqual({ optimal: ["Left"], remaining: 6, value: 0 });
    const unlimited = slippery.oracle!.answer(start);
    expect(unlimited).toEqual({ optimal: ["Left"], remaining: 6, value: unlimited.value });
    expect(unlimited.value).toBeCloseTo(14 / 17, 11);
    expect(slippery.oracle!.answer(start, Infinity)).toEqual(unlimited);
    expect(slippery.oracle!.answer(at(5), 10)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
    expect(slippery.oracle!.answer(at(15), 0)).toEqual({ optimal: [], remaining: 0, value: 1 });
  });

  it("gives the success probability within the turns left as its rollout progress", () => {
    for (const t of [0, 1, 6, 24, 100, 5000])
      expect(slippery.oracle!.progressWithin!(start, t)).toBe(slippery.oracle!.answer(start, t).value);
    expect(slippery.oracle!.progressWithin!(start, 24)).toBeLessThan(slippery.reset(task, { seed: 0 }).info.progress);
    const dry = frozenlake({ map: "4x4" });
    const dryStart = dry.reset(task, { seed: 0 }).state;
    expect([5, 6, 7].map((t) => dry.oracle!.progressWithin!(dryStart, t))).toEqual([0, 1, 1]);
  });

  it("refuses a horizon that is not a number of turns", () => {
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => slippery.oracle!.answer(start, bad)).toThrow(BudgetrlError);
  });
});
