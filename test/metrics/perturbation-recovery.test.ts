import { describe, expect, it } from "vitest";
import { episodeOutcomesOf } from "../../src/metrics/episode-rows.js";
import {
  perturbationRecovery,
  recoveryStatus,
  recoveryTally,
  type RecoveryEpisode,
} from "../../src/metrics/perturbation-recovery.js";
import { budget, episode, HAND_BUDGETS } from "../helpers/episodes.js";

const steps = (count: number): boolean[] => Array.from({ length: count }, () => true);

// Errors forced at turn 2: task 0 recovers once in two, task 1 never; task 2 was finished by the expert at turn 1
// (never forced); task 3 reached turn 2 but nothing could be forced there.
const outcomes = episodeOutcomesOf(
  [
    episode({ task: 0, sample: 0, success: true, turns: steps(5) }),
    episode({ task: 0, sample: 1, success: false, turns: steps(6) }),
    episode({ task: 1, sample: 0, success: false, turns: steps(6) }),
    episode({ task: 1, sample: 1, success: false, turns: steps(6) }),
    episode({ task: 2, sample: 0, success: true, turns: steps(1) }),
    episode({ task: 3, sample: 0, success: true, turns: steps(3) }),
  ],
  HAND_BUDGETS,
);
const episodes: RecoveryEpisode[] = outcomes.map((outcome) => ({
  perturbTurn: 2,
  outcome,
  forced: outcome.taskIndex < 2,
}));

describe("recovery from a forced error", () => {
  it("uses the forced episodes and counts the others by why", () => {
    expect(episodes.map(recoveryStatus)).toEqual(["usable", "usable", "usable", "usable", "not-reached", "not-forced"]);
    const result = perturbationRecovery(episodes, { bootstrap: 0 });
    expect(result.excluded).toEqual({ notReached: 1, notForced: 1 });
    expect(result.cells.map((cell) => [cell.perturbTurn, cell.budget, cell.episodes])).toEqual([
      [2, "100%", 4],
      [2, "pooled", 4],
    ]);
    // Task 0: 1/2, task 1: 0/2 -> 0.25 over tasks.
    expect(result.cells[0]?.recovery.value).toBeCloseTo(0.25, 12);
    expect(result.cells[0]?.recovery.tasks).toBe(2);
  });

  it("gives per-task success pooled over turns j and budgets, what models are compared on", () => {
    const tally = recoveryTally();
    for (const entry of episodes) tally.add(entry);
    tally.add({ perturbTurn: 3, outcome: { ...outcomes[2]!, budget: budget("50%"), success: true }, forced: true });
    expect(tally.perTask()).toEqual(
      new Map([
        [0, 0.5],
        [1, 1 / 3],
      ]),
    );
  });

  it("resamples whole tasks: a constant rate has a zero-width interval", () => {
    const many: RecoveryEpisode[] = Array.from({ length: 20 }, (_, task) =>
      [0, 1].map((sample) => ({
        perturbTurn: 3,
        outcome: { taskIndex: task, budget: budget("50%"), sample, seed: task, success: sample === 0, turnsUsed: 5 },
        forced: true,
      })),
    ).flat();
    expect(perturbationRecovery(many, { bootstrap: 300, seed: 2 }).cells[0]?.recovery).toMatchObject({
      value: 0.5,
      low: 0.5,
      high: 0.5,
      tasks: 20,
    });
  });
});
