// Thin ice: risk against time. A short route crosses thin ice that may break; a safe route round it is
// 1.6x to 2.5x longer. With few turns left only the risky route can succeed; with many the safe one is best.
//
// Description: walk from the start (S) to a goal (G). Generated maps (generator.ts) are a corridor from S to
//   G along the top row, crossing a barrier on thin ice (~), with a U-shaped channel round the barrier's
//   rock (#); every cell next to the corridor is rock, cells further away are decoration. Maps also come
//   from task files (maps.ts): any map of S, G, ., ~, #.
// Actions: "Up", "Down", "Left", "Right" (bare or <answer>Up</answer>; any case; aliases such as "u",
//   "north"). Walking into a rock or off the map is legal and leaves the player in place. Text naming no
//   direction is invalid: it costs the turn (reward 0) and the observation lists the directions.
// Observation: reset gives [system: rules, legend, answer format; user: the map with P for the player];
//   each step gives [user: one line of feedback, then the map]. Every observation of a default task is at
//   most 83 bytes (an 11x5 map is 59 bytes; feedback lines are at most 23).
// Rewards: 1 on reaching a goal, 0 otherwise.
// Episode end: terminated with stopReason "success" on a goal, "failure" when thin ice breaks. Each step
//   onto thin ice breaks it with probability q, drawn from a random stream seeded by the reset seed and
//   carried in the state (not in the state key).
// Info: progress = the oracle's unlimited-horizon success probability of the state; stateKey = hash of
//   (task id, cell, or "fallen"). oracle.progressWithin(state, t) = the success probability within t turns.
// Oracle: the task's MDP over cells (mdp.ts) solved exactly at every horizon (oracle.ts,
//   shared/finite-mdp.ts): within t turns left, the actions maximising success within t, ties broken by the
//   fewest expected turns. At the edge of the thin ice that is "cross" when the detour no longer fits and
//   "go round" when it does; elsewhere on the oracle's own episodes the corridor leaves one way on.
// Budget trade-off on 1,000 distinct default maps, success within ceil(m x optimal length) turns, exact
//   (tradeoff.ts; test/envs/thinice/tradeoff.test.ts; `npx tsx scripts/thinice-tradeoff.ts`):
//                         1.25x   1.5x     2x     3x
//     budget-aware        49.1%  51.6%  86.7%   100%
//     believes 3x          0.0%   4.7%  74.1%   100%    (-49.1 points at 1.25x)
//     believes 1.25x      49.1%  49.1%  49.1%  49.1%    (-50.9 points at 3x)
//     best blind (2x)     12.6%  17.3%  86.7%  86.7%    (loss 36.6, 34.4, 0, 13.3 points)
//   Optimal lengths 2-10, about evenly (docs/envs.md, "Thin ice"). Budget-dependent turns of the oracle's
//   episodes (decisions.ts): 29% at 1.25x, 28% at 1.5x, 16% at 2x, 11% at 3x.
// Reference budget: referenceFactor (3) x the optimal length, the short route's (unreachable goals: the
//   number of cells), so 100% is 3x the optimum.
// Distinct tasks: every layout with any rocks on its decoration cells (distinctTaskCount, 1.3e14 by default).
// Structure: the playable layout: S, the goals, the cells reachable from S and which of them are thin ice; every
//   cell the player cannot reach (the decoration) counts as rock (shared/playable-rows.ts), for task-file maps
//   too. A generated map's structure is its layout: 606 by default (allLayouts; tasks.distinctStructures).
// Arguments: see config.ts (width, height, q, band, mirror, rocks, referenceFactor).
import type { Env, StepResult } from "../../core/env.js";
import type { Message } from "../../core/message.js";
import { createRng, deriveSeed, rngFromState } from "../../core/rng.js";
import { DIRECTIONS, parseDirection } from "../shared/directions.js";
import { gridMapFromJson, gridMapId, gridMapToJson } from "../shared/grid-maps.js";
import { playableRows, type PlayableCells } from "../shared/playable-rows.js";
import { parseOptions } from "../../core/options.js";
import { compiledTask, slotKey, slotView, type CompiledTask } from "../shared/compiled-task.js";
import { createTaskCache } from "../shared/task-cache.js";
import { playTurn, startTurn, type TextTurns } from "../shared/text-turns.js";
import { thinIceConfigSchema, type ThinIceConfig } from "./config.js";
import { allLayouts, distinctTaskCount, generateMap } from "./generator.js";
import { THINICE_MAPS, parseMaps, printMap, type ThinIceTask } from "./maps.js";
import { buildIceMdp, fallenState } from "./mdp.js";
import { createAnswers, type ThinIceAnswers } from "./oracle.js";
import {
  moveFeedback,
  renderIce,
  THINICE_INVALID_FEEDBACK,
  THINICE_OVER_FEEDBACK,
  thinIceSystemPrompt,
  type MoveOutcome,
} from "./render.js";
import { compileIce, GOAL, REWARD_GOAL, stepsOntoThinIce, type Ice } from "./rules.js";
import { directionActions } from "../shared/direction-actions.js";

export type { ThinIceConfig } from "./config.js";
export type { ThinIceTask } from "./maps.js";

/** Everything precomputed for one map; views are per cell, keys per MDP state. */
export interface CompiledThinIce extends CompiledTask {
  readonly ice: Ice;
  readonly answers: ThinIceAnswers;
}

export interface ThinIceState {
  readonly task: ThinIceTask;
  readonly compiled: CompiledThinIce;
  /** The player's cell (where the ice broke, once fallen). */
  readonly cell: number;
  readonly fallen: boolean;
  /** Ice random stream (sfc32 words). Not part of the state key. */
  readonly rng: readonly [number, number, number, number];
}

/** Stable id of a map: a hash of its rows. */
function thinIceTaskId(task: ThinIceTask): string {
  return gridMapId(THINICE_MAPS, task);
}

/** A thin ice map's playable cells: from S, rocks block, a goal ends the episode, the rest becomes rock. */
const PLAYABLE: PlayableCells = { start: "S", blocks: "#", ends: "G", filler: "#" };

/** The structure of a map: the id of its playable layout (its own id when every cell is playable). */
function thinIceStructureKey(task: ThinIceTask): string {
  return gridMapId(THINICE_MAPS, { rows: playableRows(task.rows, PLAYABLE) });
}

function compile(task: ThinIceTask, q: number): CompiledThinIce {
  const ice = compileIce(task);
  const states = ice.kind.length + 1;
  return {
    ...compiledTask(thinIceTaskId(task), ice.kind.length, states),
    ice,
    answers: createAnswers(buildIceMdp(ice, q)),
  };
}

/** The state's id in the task's MDP. */
function mdpState(state: ThinIceState): number {
  return state.fallen ? fallenState(state.compiled.ice) : state.cell;
}

const TURNS: TextTurns<ThinIceState> = {
  view: (state) => slotView(state.compiled, state.cell, () => renderIce(state.task, state.cell)),
  end: (state) => (state.fallen ? "failure" : state.compiled.ice.kind[state.cell] === GOAL ? "success" : null),
  progress: (state) => state.compiled.answers.value(mdpState(state)),
  stateKey: (state) => slotKey(state.compiled, mdpState(state), state.fallen ? "fallen" : state.cell),
  overFeedback: THINICE_OVER_FEEDBACK,
  invalidFeedback: () => THINICE_INVALID_FEEDBACK,
  invalidReward: 0,
};

/** Play a parsed direction from a live state: the next state and what happened. */
function move(state: ThinIceState, direction: number, q: number): { next: ThinIceState; outcome: MoveOutcome } {
  const { ice } = state.compiled;
  const to = ice.next[state.cell * 4 + direction]!;
  if (to === state.cell) return { next: state, outcome: "blocked" };
  if (!stepsOntoThinIce(ice, state.cell, to)) {
    return { next: { ...state, cell: to }, outcome: ice.kind[to] === GOAL ? "goal" : "moved" };
  }
  const stream = rngFromState(state.rng);
  const broke = stream.next() < q;
  return { next: { ...state, cell: to, fallen: broke, rng: stream.snapshot() }, outcome: broke ? "broke" : "held" };
}

function stepState(state: ThinIceState, action: Message, q: number): StepResult<ThinIceState> {
  const direction = parseDirection(typeof action.content === "string" ? action.content : "");
  return playTurn(TURNS, state, direction < 0 ? null : DIRECTIONS[direction]!, () => {
    const { next, outcome } = move(state, direction, q);
    return { state: next, feedback: moveFeedback(direction, outcome), reward: outcome === "goal" ? REWARD_GOAL : 0 };
  });
}

export function thinice(options?: Partial<ThinIceConfig>): Env<ThinIceTask, ThinIceState> {
  const config: ThinIceConfig = parseOptions("thinice", thinIceConfigSchema, options);
  const cache = createTaskCache<ThinIceTask, CompiledThinIce>(printMap, (task) => compile(task, config.q), 256);
  const systemPrompt = thinIceSystemPrompt(config.q);
  /** The short route's length (the fewest turns with a chance of success); unreachable goals: the number of cells. */
  const optimalTurns = (task: ThinIceTask): number => {
    const compiled = cache.get(task);
    const shortest = compiled.answers.solution.remaining[compiled.ice.start]!;
    return Number.isFinite(shortest) ? shortest : compiled.ice.kind.length;
  };
  return {
    spec: { name: "thinice", config },
    tasks: {
      generate: (seed) => generateMap(config, seed),
      // Exact as a number up to 2^53 (the default config's 1.3e14 is); past it, a float that still compares right.
      distinctTasks: () => Number(distinctTaskCount(config)),
      id: thinIceTaskId,
      structure:
        "the playable layout: start, goals, the cells reachable from the start and which of them are thin ice; unreachable decoration left out",
      structureKey: thinIceStructureKey,
      distinctStructures: () => allLayouts(config).length,
      encode: gridMapToJson,
      decode: (json) => gridMapFromJson(THINICE_MAPS, json),
      parse: parseMaps,
      referenceBudget: (task) => config.referenceFactor * optimalTurns(task),
      optimalTurns,
    },
    actions: directionActions(TURNS),
    oracle: {
      answer: (state, turnsLeft) => state.compiled.answers.answer(mdpState(state), turnsLeft),
      progressWithin: (state, turnsLeft) => state.compiled.answers.value(mdpState(state), turnsLeft),
    },
    reset(task, { seed }) {
      const compiled = cache.get(task);
      const rng = createRng(deriveSeed(seed, "thinice-ice")).snapshot();
      const state: ThinIceState = { task, compiled, cell: compiled.ice.start, fallen: false, rng };
      return startTurn(TURNS, state, systemPrompt);
    },
    step: (state, action) => stepState(state, action, config.q),
  };
}
