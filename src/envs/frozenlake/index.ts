// FrozenLake for text agents (after Gymnasium's FrozenLake-v1).
//
// Description: cross a frozen lake from the start (S) to the goal (G) without falling into a hole (H).
//   Maps are generated as Gymnasium's generate_random_map (size, frozen fraction p, reachable goal), or
//   one of Gymnasium's named maps ("4x4", "8x8"), or read from task files (maps.ts).
// Actions: "Up", "Down", "Left", "Right" (bare or <answer>Up</answer>; any case; aliases such as "u",
//   "north"). Moving off the edge is legal and leaves the player in place. Text naming no direction is
//   invalid: it costs the turn (reward 0) and the observation explains the answer format.
// Observation: reset gives [system: rules, legend, answer format; user: the map with P for the player];
//   each step gives [user: one line of feedback, then the map].
// Rewards: 1 on reaching the goal, 0 otherwise.
// Episode end: terminated with stopReason "success" on a goal, "failure" in a hole.
// Slippery ice (option): the move goes the intended way with probability 1/3 and to each perpendicular side
//   with 1/3, drawn from a random stream seeded by the reset seed and carried in the state (not in the key).
// Info: progress = the oracle's unlimited-horizon success probability of the state; stateKey = hash of
//   (task id, cell). oracle.progressWithin(state, t) = the success probability within t turns (the rollout engine
//   records it, so turn-level rewards see the budget).
// Oracle: value iteration for success probabilities, shortest paths for the remaining turns (oracle.ts);
//   within t turns left: finite-horizon dynamic programming on slippery ice (horizon.ts), shortest paths on
//   dry ice; among equally valued actions the fewest expected turns to success (fastest.ts, answers.ts).
// Reference budget: referenceFactor x the optimal length, the shortest path length from S to G, ignoring
//   slipperiness (unreachable goals: the number of cells).
// Distinct tasks: a named map is one task; generated maps are counted exactly up to 4x4 (distinct-maps.ts), and
//   not at all beyond (the env then has no tasks.distinctTasks).
// Structure: the map with every cell cut off from S by holes turned into a hole (maps.ts, frozenLakeStructureKey):
//   the cells the player can enter and what each is. Counted where the maps are (tasks.distinctStructures).
// Arguments: see config.ts (size, p, slippery, map, referenceFactor).
import type { Env, StepResult } from "../../core/env.js";
import type { OracleAnswer } from "../../core/oracle.js";
import type { Message } from "../../core/message.js";
import { createRng, deriveSeed, rngFromState } from "../../core/rng.js";
import { DIRECTIONS, parseDirection } from "../shared/directions.js";
import { gridMapFromJson, gridMapId, gridMapToJson } from "../shared/grid-maps.js";
import { parseOptions } from "../../core/options.js";
import { compiledTask, slotKey, slotView, type CompiledTask } from "../shared/compiled-task.js";
import { createTaskCache } from "../shared/task-cache.js";
import { playTurn, startTurn, type PlayedAction, type TextTurns } from "../shared/text-turns.js";
import { frozenLakeConfigSchema, type FrozenLakeConfig } from "./config.js";
import { generatedMapCount, generatedStructureCount, mapsCountable } from "./distinct-maps.js";
import { generateMap } from "./generator.js";
import { FROZENLAKE_MAPS, frozenLakeStructureKey, namedMap, parseMaps, printMap, type FrozenLakeTask } from "./maps.js";
import { createAnswers, type FrozenLakeAnswers } from "./answers.js";
import { buildOracle, type FrozenLakeOracle } from "./oracle.js";
import { FROZENLAKE_INVALID_FEEDBACK, frozenLakeSystemPrompt, moveFeedback, renderLake } from "./render.js";
import { compileLake, GOAL, HOLE, REWARD_GOAL, SLIP_OUTCOMES, type Lake } from "./rules.js";
import { directionActions } from "../shared/direction-actions.js";

export type { FrozenLakeConfig } from "./config.js";
export type { FrozenLakeTask } from "./maps.js";

/** Everything precomputed for one map; views and keys are per cell. */
export interface CompiledFrozenLake extends CompiledTask {
  readonly lake: Lake;
  readonly oracle: FrozenLakeOracle;
  /** Oracle answers at any horizon (tables built on first use). */
  readonly answers: FrozenLakeAnswers;
}

export interface FrozenLakeState {
  readonly task: FrozenLakeTask;
  readonly compiled: CompiledFrozenLake;
  readonly cell: number;
  /** Slip random stream (sfc32 words), or null on dry ice. Not part of the state key. */
  readonly rng: readonly [number, number, number, number] | null;
}

/** Stable id of a map: a hash of its rows. */
function frozenLakeTaskId(task: FrozenLakeTask): string {
  return gridMapId(FROZENLAKE_MAPS, task);
}

function compile(task: FrozenLakeTask, slippery: boolean): CompiledFrozenLake {
  const lake = compileLake(task);
  const cells = lake.kind.length;
  const oracle = buildOracle(lake, slippery);
  return {
    ...compiledTask(frozenLakeTaskId(task), cells, cells),
    lake,
    oracle,
    answers: createAnswers(lake, slippery, oracle),
  };
}

const TURNS: TextTurns<FrozenLakeState> = {
  view: (state) => slotView(state.compiled, state.cell, () => renderLake(state.task, state.cell)),
  end: (state) => {
    const kind = state.compiled.lake.kind[state.cell];
    return kind === GOAL ? "success" : kind === HOLE ? "failure" : null;
  },
  progress: (state) => state.compiled.oracle.value[state.cell]!,
  stateKey: (state) => slotKey(state.compiled, state.cell),
  overFeedback: "The episode is over.",
  invalidFeedback: () => FROZENLAKE_INVALID_FEEDBACK,
  invalidReward: 0,
};

/** Play a parsed direction from a live state: on slippery ice the move taken may be a perpendicular one. */
function move(state: FrozenLakeState, direction: number): PlayedAction<FrozenLakeState> {
  const { lake } = state.compiled;
  let taken = direction;
  let rng = state.rng;
  if (rng !== null) {
    const stream = rngFromState(rng);
    taken = SLIP_OUTCOMES[direction]![stream.int(3)]!;
    rng = stream.snapshot();
  }
  const cell = lake.next[state.cell * 4 + taken]!;
  const next: FrozenLakeState = { task: state.task, compiled: state.compiled, cell, rng };
  const kind = lake.kind[cell];
  const landed = kind === GOAL ? "goal" : kind === HOLE ? "hole" : "frozen";
  const feedback = moveFeedback(direction, taken, cell === state.cell, landed);
  return { state: next, feedback, reward: kind === GOAL ? REWARD_GOAL : 0 };
}

function stepState(state: FrozenLakeState, action: Message): StepResult<FrozenLakeState> {
  const direction = parseDirection(typeof action.content === "string" ? action.content : "");
  return playTurn(TURNS, state, direction < 0 ? null : DIRECTIONS[direction]!, () => move(state, direction));
}

export function frozenlake(options?: Partial<FrozenLakeConfig>): Env<FrozenLakeTask, FrozenLakeState> {
  const config: FrozenLakeConfig = parseOptions("frozenlake", frozenLakeConfigSchema, options);
  const cache = createTaskCache<FrozenLakeTask, CompiledFrozenLake>(
    printMap,
    (task) => compile(task, config.slippery),
    256,
  );
  const systemPrompt = frozenLakeSystemPrompt(config.slippery);
  /** The shortest path length from S to G (ignoring slipperiness); unreachable goals: the number of cells. */
  const optimalTurns = (task: FrozenLakeTask): number => {
    const compiled = cache.get(task);
    const shortest = compiled.oracle.remaining[compiled.lake.start]!;
    return Number.isFinite(shortest) ? shortest : compiled.lake.kind.length;
  };
  const counted = config.map !== null || mapsCountable(config.size, config.p);
  const distinctTasks = !counted
    ? undefined
    : () => (config.map !== null ? 1 : generatedMapCount(config.size, config.p));
  const distinctStructures = !counted
    ? undefined
    : () => (config.map !== null ? 1 : generatedStructureCount(config.size, config.p));
  return {
    spec: { name: "frozenlake", config },
    tasks: {
      generate: (seed) => (config.map !== null ? namedMap(config.map) : generateMap(config.size, config.p, seed)),
      ...(distinctTasks === undefined ? {} : { distinctTasks }),
      id: frozenLakeTaskId,
      structure: "the map with every cell cut off from the start by holes turned into a hole",
      structureKey: frozenLakeStructureKey,
      ...(distinctStructures === undefined ? {} : { distinctStructures }),
      encode: gridMapToJson,
      decode: (json) => gridMapFromJson(FROZENLAKE_MAPS, json),
      parse: parseMaps,
      referenceBudget: (task) => config.referenceFactor * optimalTurns(task),
      optimalTurns,
    },
    actions: directionActions(TURNS),
    oracle: {
      answer: (state, turnsLeft): OracleAnswer => state.compiled.answers.answer(state.cell, turnsLeft),
      progressWithin: (state, turnsLeft) => state.compiled.answers.value(state.cell, turnsLeft),
    },
    reset(task, { seed }) {
      const compiled = cache.get(task);
      const rng = config.slippery ? createRng(deriveSeed(seed, "frozenlake-slip")).snapshot() : null;
      const state: FrozenLakeState = { task, compiled, cell: compiled.lake.start, rng };
      return startTurn(TURNS, state, systemPrompt);
    },
    step: stepState,
  };
}
