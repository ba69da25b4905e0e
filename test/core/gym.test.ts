// The gym facade and its turn limit: the facade only terminates; withTurnBudget truncates the step that spends the
// budget (stopReason max_turns), in either scope, and keeps terminated and truncated apart.
import { describe, expect, it } from "vitest";
import { gym, withTurnBudget } from "../../src/core/gym.js";
import { hanoi } from "../../src/envs/hanoi/index.js";
import { stepsEnv } from "../helpers/steps-env.js";

describe("gym", () => {
  it("plays an env by reset and step, terminating only, and refuses a step after the end", () => {
    const game = gym(hanoi({ disks: 2 }));
    const start = game.reset({ seed: 0 });
    expect(start.observation.at(-1)?.content).toContain("A: 2 1");
    for (let turn = 0; turn < 20; turn++) expect(game.step("garbage").truncated).toBe(false);
    game.reset({ seed: 0 });
    for (const move of ["A->B", "A->C"]) expect(game.step(move).terminated).toBe(false);
    expect(game.step("B->C")).toMatchObject({ terminated: true, truncated: false, info: { stopReason: "success" } });
    expect(() => game.step("A->B")).toThrow(/reset/);
  });
});

describe("withTurnBudget", () => {
  it("truncates the step that spends an episode budget, apart from termination, until the next reset", () => {
    const game = withTurnBudget(gym(hanoi({ disks: 2 })), { turns: 2 });
    expect(() => game.step("A->B")).toThrow(/reset/);
    game.reset({ seed: 0 });
    const first = game.step("A->B");
    expect([first.terminated, first.truncated]).toEqual([false, false]);
    const second = game.step("garbage");
    expect([second.terminated, second.truncated, second.info.invalid, second.info.stopReason]).toEqual([
      false,
      true,
      true,
      "max_turns",
    ]);
    expect(() => game.step("A->C")).toThrow(/reset/);
    // A new episode gets the whole budget again; termination on the budget's last turn is no truncation.
    game.reset({ seed: 0 });
    const three = withTurnBudget(gym(hanoi({ disks: 2 })), { turns: 3 });
    three.reset({ seed: 0 });
    for (const move of ["A->B", "A->C"]) expect(three.step(move).truncated).toBe(false);
    expect(three.step("B->C")).toMatchObject({ terminated: true, truncated: false, info: { stopReason: "success" } });
  });

  it("counts a user-turn budget per user turn, as the rollout does", () => {
    const task = { id: "t", segments: [2, 3] };
    const game = withTurnBudget(gym(stepsEnv()), { turns: 2, scope: "user-turn" });
    game.reset({ seed: 0, options: { task } });
    // User turn 0: two steps, the second opening user turn 1 (never a truncation); user turn 1: its two turns.
    const truncated = ["go", "go", "go", "go"].map((action) => game.step(action).truncated);
    expect(truncated).toEqual([false, false, false, true]);
    // The same play under an episode budget of 2 stops after the second step.
    const episode = withTurnBudget(gym(stepsEnv()), { turns: 2 });
    episode.reset({ seed: 0, options: { task } });
    expect(["go", "go"].map((action) => episode.step(action).truncated)).toEqual([false, true]);
  });
});
