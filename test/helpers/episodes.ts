// Hand-built episodes for the analyses' tests: only the fields the analyses read are chosen; the rest are
// filled with plain values.
import { parseBudgetList, parseBudgetSpec, type BudgetScope, type BudgetSpec } from "../../src/core/budget.js";
import type { StopReason } from "../../src/core/env.js";
import type { Episode, Turn } from "../../src/core/episode.js";

/** The budgets hand-built episodes are played under: their labels are these specs' ("100%" by default). */
export const HAND_BUDGETS: readonly BudgetSpec[] = parseBudgetList("25%,50%,100%,4,5,8");

/** A budget spec for a hand-built row. */
export const budget = (label: string): BudgetSpec => parseBudgetSpec(label);

export interface TurnSketch {
  readonly optimal?: boolean;
  readonly remainingBefore?: number;
  readonly segment?: number;
  /** The reply could not be played (its parsed action is then null). */
  readonly invalid?: boolean;
  /** An intervention (an expert) played in the policy's place. */
  readonly forced?: boolean;
}

export interface EpisodeSketch {
  readonly task: number;
  readonly budget?: string;
  readonly budgetTurns?: number;
  readonly scope?: BudgetScope;
  readonly sample?: number;
  readonly seed?: number;
  readonly success: boolean;
  readonly stopReason?: StopReason;
  /** The turns, or a list of optimal flags. */
  readonly turns: readonly (TurnSketch | boolean)[];
}

export function episode(sketch: EpisodeSketch): Episode {
  const turns: Turn[] = sketch.turns.map((entry, i) => {
    const turn: TurnSketch = typeof entry === "boolean" ? { optimal: entry } : entry;
    return {
      index: i + 1,
      segment: turn.segment ?? 0,
      observation: [],
      action: { role: "assistant", content: "a" },
      parsedAction: turn.invalid === true ? null : "a",
      invalid: turn.invalid === true,
      reward: 0,
      terminated: false,
      truncated: false,
      progress: 0,
      stateKey: `s${i}`,
      ...(turn.optimal === undefined ? {} : { optimal: turn.optimal }),
      ...(turn.remainingBefore === undefined ? {} : { remainingBefore: turn.remainingBefore }),
      ...(turn.forced === true
        ? {
            forced: {
              by: "expert" as const,
              policyAction: { role: "assistant" as const, content: "?" },
              policyParsed: null,
              policyOptimal: false,
            },
          }
        : {}),
    };
  });
  const stopReason = sketch.stopReason ?? (sketch.success ? "success" : "max_turns");
  return {
    run: "hand",
    env: "hand",
    taskId: `task-${sketch.task}`,
    taskIndex: sketch.task,
    budget: {
      turns: sketch.budgetTurns ?? 10,
      mode: "announced",
      scope: sketch.scope ?? "episode",
      label: sketch.budget ?? "100%",
    },
    sample: sketch.sample ?? 0,
    seed: sketch.seed ?? 1000 + sketch.task * 100 + (sketch.sample ?? 0),
    preamble: [],
    turns,
    success: sketch.success,
    stopReason,
    stopLimit: stopReason === "max_turns" ? "episode" : null,
    turnsUsed: turns.length,
    successTurn: sketch.success ? turns.length : null,
    return: sketch.success ? 1 : 0,
    initialProgress: 0,
  };
}
