// Vault: information against time. Act at once on a guess, or spend turns to verify first (the shape of
// BFCL's "check the state, then act"): verifying pays only when the turn budget leaves turns for it.
//
// Description: open a vault of m locks in order. Each lock shows a certain code ("code 7") or an uncertain
//   hint ("hint 7?"), right with probability `reliability` (else the code is one of the 9 other digits). The
//   task fixes m, which hints are uncertain and the hint digits; the true codes of uncertain locks are drawn
//   at reset from a stream seeded by the reset seed and carried in the state (rules.ts). Generated tasks
//   (generator.ts): m uniform in 2..12, ceil(1.25 m) - m + 1 or + 2 uncertain locks (at most m), so that a
//   budget of 1.25x the optimum cannot verify every hint and 2x can; task files: one vault per line, "7 3? 5".
// Actions: a digit "0".."9" enters the current lock's code; "check" (also "inspect", "verify") spends the turn
//   and reveals the current lock's true code (bare or <answer>7</answer>; see actions.ts). Checking a known
//   code is a wasted turn, not an error. Text naming no action is invalid: it costs the turn (reward 0) and
//   the observation explains the answer format.
// Observation: reset gives [system: rules and answer format; user: the state line]; each step gives [user:
//   one line of feedback, then the state line], e.g. "Lock 3/6, 4 to go: hint 7?" (render.ts). At most 85
//   bytes, and Markov: turns left > locks to go means a spare turn, which is all an optimal policy needs.
// Rewards: 1 when the last lock opens, 0 otherwise.
// Episode end: terminated with stopReason "success" when the vault opens, "failure" on a wrong code.
// Info: progress = the success probability with unlimited time (1 until the alarm: check every hint);
//   stateKey = hash of (task id, lock, the digit shown and whether it is known), not the hidden codes.
//   oracle.progressWithin(state, t) = the success probability within t turns.
// Oracle: the task's MDP over what the agent knows, solved exactly at every horizon (mdp.ts, oracle.ts;
//   shared/finite-mdp.ts). With s spare turns and u uncertain locks, the best success is p^(u - min(s, u)):
//   check while spare turns remain, guess when none does.
// Reference budget: referenceFactor (default 3) x the optimal length m, so 100% is the generous budget 3x.
// Distinct tasks: sum over m of 10^m x the placements of its uncertain hints (distinctVaultTasks, 1.4e15 by default).
// Structure: the lock count and which locks are uncertain, e.g. "5:.??.?" (vaultStructureKey); the digits are
//   content. distinctVaultStructures: 3,054 by default, but a 2-lock vault has one (both hints uncertain).
// Budget trade-off (exact, over the 296 distinct default tasks of seeds 0-299; tradeoff.ts, docs/envs.md;
//   budgets ceil(c x m)):              1.25x   1.5x    2x     3x
//     budget-aware oracle              0.487   0.891   1.000  1.000
//     oracle believing 1.25x           0.487   0.487   0.487  0.487
//     oracle believing 1.5x            0.055   0.891   0.891  0.891
//     believing 2x, 3x or unlimited    0.000   0.726   1.000  1.000
//     loss of the best blind (1.5x)    0.433   0.000   0.109  0.109   (tied in mean with 2x, 3x, unlimited)
//   The 3x policy loses 48.7 points at 1.25x (it checks every hint and runs out of turns); the 1.25x policy
//   loses 51.3 points at 3x (it guesses hints it had time to check). Optimal lengths m = 2..12, about equally
//   many tasks each (bins 2-3, 4-7, 8-15: 18%, 40%, 42%).
// Arguments: see config.ts (minLocks, maxLocks, reliability, tightBudget, minExtra, maxExtra, referenceFactor).
import type { Env, StepResult } from "../../core/env.js";
import type { OracleAnswer } from "../../core/oracle.js";
import { DataError } from "../../core/errors.js";
import { hashHex } from "../../core/hash.js";
import type { Json } from "../../core/json.js";
import type { Message } from "../../core/message.js";
import { createRng, deriveSeed } from "../../core/rng.js";
import { parseOptions } from "../../core/options.js";
import { compiledTask, slotKey, type CompiledTask } from "../shared/compiled-task.js";
import { createTaskCache } from "../shared/task-cache.js";
import { liveActions, playTurn, startTurn, type TextTurns } from "../shared/text-turns.js";
import { parseVaultAction } from "./actions.js";
import { checkVaultConfig, vaultConfigSchema, type VaultConfig } from "./config.js";
import { distinctVaultStructures, distinctVaultTasks, generateVault } from "./generator.js";
import { stateId } from "./mdp.js";
import { buildVaultOracle, type VaultOracle } from "./oracle.js";
import {
  effectFeedback,
  renderVault,
  VAULT_INVALID_FEEDBACK,
  VAULT_OVER_FEEDBACK,
  vaultSystemPrompt,
} from "./render.js";
import { ACTION_TEXTS, drawCodes, playAction, REWARD_OPEN, shownCode, startPosition, type Position } from "./rules.js";
import { parseVaultTasks, printVaultTask, readVaultTask, vaultStructureKey, type VaultTask } from "./tasks.js";

export type { VaultConfig } from "./config.js";
export type { VaultTask } from "./tasks.js";

/** Everything precomputed for one vault; keys are per MDP state (views are not kept: a line is cheap). */
export interface CompiledVault extends CompiledTask {
  readonly oracle: VaultOracle;
}

export interface VaultState {
  readonly task: VaultTask;
  readonly compiled: CompiledVault;
  /** The true code of every lock, drawn at reset (hidden from the agent; not part of the state key). */
  readonly codes: readonly number[];
  readonly position: Position;
}

/** Stable id of a task: a hash of its text. */
function vaultTaskId(task: VaultTask): string {
  return `vault-${hashHex(printVaultTask(task))}`;
}

/** The MDP state of an env state. */
function idOf(state: VaultState): number {
  const live = state.position.end === null;
  return stateId(state.task, state.position, live ? shownCode(state.task, state.codes, state.position) : 0);
}

function stateLine(state: VaultState): string {
  const live = state.position.end === null;
  return renderVault(
    state.task.hints.length,
    state.position,
    live ? shownCode(state.task, state.codes, state.position) : 0,
  );
}

const ENDS = { open: "success", alarm: "failure" } as const;

const TURNS: TextTurns<VaultState> = {
  view: stateLine,
  end: (state) => (state.position.end === null ? null : ENDS[state.position.end]),
  progress: (state) => state.compiled.oracle.value(idOf(state)),
  stateKey: (state) => slotKey(state.compiled, idOf(state)),
  overFeedback: VAULT_OVER_FEEDBACK,
  invalidFeedback: () => VAULT_INVALID_FEEDBACK,
  invalidReward: 0,
};

function decode(json: Json): VaultTask {
  const locks =
    json !== null && typeof json === "object" && !Array.isArray(json) ? (json as { locks?: unknown }).locks : undefined;
  if (typeof locks !== "string") throw new DataError('vault: a task must be {"locks": "7 3? 5"}');
  return readVaultTask(locks, "task");
}

function replyText(action: Message): string {
  return typeof action.content === "string" ? action.content : "";
}

function stepState(state: VaultState, action: Message): StepResult<VaultState> {
  return playTurn(TURNS, state, parseVaultAction(replyText(action)), (parsedAction) => {
    const played = playAction(state.task, state.codes, state.position, ACTION_TEXTS.indexOf(parsedAction));
    return {
      state: { ...state, position: played.position },
      feedback: effectFeedback(played.effect),
      reward: played.position.end === "open" ? REWARD_OPEN : 0,
    };
  });
}

export function vault(options?: Partial<VaultConfig>): Env<VaultTask, VaultState> {
  const config: VaultConfig = checkVaultConfig(parseOptions("vault", vaultConfigSchema, options));
  const cache = createTaskCache<VaultTask, CompiledVault>(
    printVaultTask,
    (task) => ({ ...compiledTask(vaultTaskId(task)), oracle: buildVaultOracle(task, config.reliability) }),
    256,
  );
  const systemPrompt = vaultSystemPrompt(config.reliability);
  return {
    spec: { name: "vault", config },
    tasks: {
      generate: (seed) => generateVault(config, seed),
      // Exact as a number up to 2^53 (the default config's 1.4e15 is); past it, a float that still compares right.
      distinctTasks: () => Number(distinctVaultTasks(config)),
      id: vaultTaskId,
      structure: "the lock count and which locks are uncertain; the digits left out",
      structureKey: vaultStructureKey,
      distinctStructures: () => distinctVaultStructures(config),
      encode: (task) => ({ locks: printVaultTask(task) }),
      decode,
      parse: parseVaultTasks,
      referenceBudget: (task) => config.referenceFactor * task.hints.length,
      optimalTurns: (task) => task.hints.length,
    },
    actions: {
      valid: liveActions(TURNS, ACTION_TEXTS),
      stateKey: TURNS.stateKey,
      parse: (_state, action) => parseVaultAction(replyText(action)),
    },
    oracle: {
      answer: (state, turnsLeft): OracleAnswer => state.compiled.oracle.answer(idOf(state), turnsLeft),
      progressWithin: (state, turnsLeft) => state.compiled.oracle.value(idOf(state), turnsLeft),
    },
    reset(task, { seed }) {
      const codes = drawCodes(task, config.reliability, createRng(deriveSeed(seed, "vault-codes")));
      const state: VaultState = { task, compiled: cache.get(task), codes, position: startPosition(task) };
      return startTurn(TURNS, state, systemPrompt);
    },
    step: stepState,
  };
}
