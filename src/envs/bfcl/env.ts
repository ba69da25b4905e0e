// BFCL multi-turn (base, miss_func, miss_param, long_context) as a budgetrl env, played as upstream plays it.
//
// Description: each task is one entry of the Berkeley Function Calling Leaderboard's multi-turn categories: a
//   conversation of user turns over stateful backends (file system, trading, travel, vehicle, ...). The agent
//   answers each user turn with function calls until it answers without calls; then the next user turn comes.
//   Tasks are the entries of the chosen categories in file order (tasks.list); generate(seed) picks one.
// Actions: one model response per step. Tools mode: native tool calls (name + JSON arguments), several per
//   response. Prompting mode: calls as Python text, `[f(a=1, b='x'), g()]`. A response without calls (or that
//   does not decode) ends the user turn; a malformed one is marked invalid. Canonical action texts (oracle,
//   parsedAction, actions.message) are call lists with keyword arguments in parameter order; `[]` ends a turn.
//   actions.valid lists the offered functions as `name()`, then `[]` (what a random policy chooses from).
// Observation: reset gives the first user turn (prompting mode: after upstream's system prompt with the function
//   docs); calls give their results (tools mode: one tool message per call with its toolCallId; prompting mode:
//   one user message with upstream's repr of [{'role': 'tool', 'name': call, 'content': result}, ...]); the answer
//   that ends a turn gives the next turn's user message(s) (miss_func turns: upstream's "I have updated some more
//   functions..." message, with the new tools in StepResult.tools). The env never mentions budgets.
// Rewards: 1 on the step that ends a successful entry, 0 otherwise.
// Episode end: at the end of each user turn the checkers run (check/turn-checks.ts). stopReason "success" when
//   the last turn passes and every turn passed; "failure" at the first failed turn (stopOnFailure, the default)
//   or at the end; "force_terminated" when a user turn exceeds maxStepsPerTurn responses with calls (upstream's
//   20) before the last turn. info.details carries the turn's verdict and, at the end, the entry's verdict.
// Info: segment = current user turn; progress = user turns passed so far; stateKey = hash of (turn, public state
//   of the model's instances).
// Structure: the entry's number (the digits that end its id): the categories are variants of one base set, so
//   multi_turn_base_12, multi_turn_miss_func_12, multi_turn_miss_param_12 and multi_turn_long_context_12 share
//   their path, classes and all user turns but the one a variant changes (each bundled category numbers the same
//   200 entries, 0-199). tasks.distinctStructures: how many numbers the configured categories hold.
// Arguments: see config.ts (dataDir, categories, mode, callable, maxStepsPerTurn, stopOnFailure, irrelevanceCheck);
//   dataDir defaults to the data bundled with budgetrl (load/bundled-data.ts).
import type { ActionSpace } from "../../core/action-space.js";
import type { BudgetScope } from "../../core/budget.js";
import type { Env, StepInfo, StepResult, StopReason } from "../../core/env.js";
import { DataError } from "../../core/errors.js";
import { hashHex } from "../../core/hash.js";
import type { Json, JsonObject } from "../../core/json.js";
import type { Message } from "../../core/message.js";
import { createRng } from "../../core/rng.js";
import type { TaskSource } from "../../core/task-source.js";
import type { AnyBfclClass } from "./apis/backend-class.js";
import { bfclClassRegistry } from "./apis/class-registry.js";
import { BFCL_CLASSES } from "./apis/upstream-classes.js";
import { formatCalls } from "./calls/format.js";
import { parseCalls } from "./calls/parse.js";
import { instancesState } from "./check/state-dump.js";
import { VALID, type BfclVerdict } from "./check/turn-checks.js";
import { parseBfclConfig, type BfclConfig, type BfclOptions } from "./config.js";
import { createBfclContext, type BfclContext } from "./context.js";
import { resolveDataDir } from "./load/bundled-data.js";
import { loadBfclDataset, type BfclDataset } from "./load/dataset.js";
import type { BfclEntry } from "./load/entries.js";
import { canonicalCall, canonicalText, toolArguments } from "./play/canonical.js";
import { decodeResponse } from "./play/decode.js";
import { startEpisode, stepEpisode, type BfclState, type EpisodeStep } from "./play/inference-loop.js";
import { bfclOracle, END_TURN_ACTION } from "./play/oracle.js";
import { CLOSING_TEXT } from "./play/prompts.js";
import { pyJsonDumps, pyRepr } from "./py/format.js";

export type { BfclState } from "./play/inference-loop.js";
export type BfclTask = BfclEntry;

/** The BFCL env: always a dataset (tasks.list) and tool calls (actions.message), with its data and rules beside. */
export interface BfclEnv extends Env<BfclEntry, BfclState> {
  readonly tasks: TaskSource<BfclEntry> & { list(): readonly BfclEntry[] };
  readonly actions: ActionSpace<BfclState> & { message(state: BfclState, action: string): Message };
  readonly dataset: BfclDataset;
  readonly context: BfclContext;
}

/** The structure of an entry: the number its id ends with (an id without one is its own structure). */
function bfclStructureKey(entry: BfclEntry): string {
  return /_(\d+)$/.exec(entry.id)?.[1] ?? entry.id;
}

function stateKeyOf(state: BfclState): string {
  const modelState = instancesState(state.model.instances);
  let text: string;
  try {
    text = pyJsonDumps(modelState, { sortKeys: true });
  } catch {
    text = pyRepr(modelState);
  }
  return hashHex(`bfcl\u0000${state.entry.id}\u0000${state.turn}\u0000${text}`);
}

const STOP_REASONS: Readonly<Record<NonNullable<BfclState["outcome"]>, StopReason>> = {
  success: "success",
  failure: "failure",
  force_terminated: "force_terminated",
};

function entryVerdict(state: BfclState): BfclVerdict {
  return state.failure ?? VALID;
}

function stepDetails(state: BfclState, step: EpisodeStep): Json | undefined {
  if (step.turnVerdict === undefined) return undefined;
  const details: Record<string, Json> = {
    turn: state.transcript.length - 1,
    turnVerdict: step.turnVerdict as unknown as JsonObject,
  };
  if (step.outcome !== undefined) {
    details["verdict"] = entryVerdict(state) as unknown as JsonObject;
    details["turnsPassed"] = state.passedTurns;
    details["turns"] = state.entry.question.length;
  }
  return details;
}

function parsedActionOf(state: BfclState, step: EpisodeStep): string | null {
  if (step.malformed) return null;
  return step.calls.length === 0 ? END_TURN_ACTION : canonicalText(step.calls, state.classes);
}

/** The canonical call list a response would make, without running it (null: it does not decode). */
function parseResponse(context: BfclContext, state: BfclState, action: Message): string | null {
  const decoded = decodeResponse(action, context.rules.mode);
  if (decoded.kind === "none") return decoded.malformed ? null : END_TURN_ACTION;
  return canonicalText(
    decoded.calls.map((item) => item.call),
    state.classes,
  );
}

function info(
  state: BfclState,
  extra: Pick<StepInfo, "invalid" | "parsedAction"> & { details?: Json | undefined },
): StepInfo {
  const base: StepInfo = {
    progress: state.passedTurns,
    stateKey: stateKeyOf(state),
    invalid: extra.invalid,
    parsedAction: extra.parsedAction,
    segment: state.turn,
  };
  const withStop = state.outcome === null ? base : { ...base, stopReason: STOP_REASONS[state.outcome] };
  return extra.details === undefined ? withStop : { ...withStop, details: extra.details };
}

function actionMessageFor(context: BfclContext, state: BfclState, action: string): Message {
  const verdict = parseCalls(action.trim());
  if (!verdict.valid) return { role: "assistant", content: action };
  if (verdict.calls.length === 0) return { role: "assistant", content: CLOSING_TEXT };
  const calls = verdict.calls.map((call) => canonicalCall(call, state.classes));
  if (context.rules.mode === "prompting") return { role: "assistant", content: formatCalls(calls) };
  const toolCalls = calls.map((call, index) => ({
    id: `call_${state.turn}_${state.stepsInTurn}_${index}`,
    name: call.name,
    arguments: toolArguments(call),
  }));
  return { role: "assistant", content: "", toolCalls };
}

function decodeTaskId(dataset: BfclDataset, json: Json): BfclEntry {
  const id =
    typeof json === "string"
      ? json
      : json !== null && typeof json === "object" && !Array.isArray(json)
        ? (json as JsonObject)["id"]
        : undefined;
  if (typeof id !== "string") throw new DataError('bfcl: a task must be an entry id such as "multi_turn_base_0"');
  const entry = dataset.byId.get(id);
  if (entry === undefined)
    throw new DataError(`bfcl: unknown entry id "${id}"`, `the loaded categories are ${dataset.categories.join(", ")}`);
  return entry;
}

function parseTaskLines(dataset: BfclDataset, text: string): BfclEntry[] {
  const tasks: BfclEntry[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const entry = dataset.byId.get(line);
    if (entry === undefined)
      throw new DataError(
        `bfcl task file, line ${index + 1}: unknown entry id "${line}"`,
        `the loaded categories are ${dataset.categories.join(", ")}`,
      );
    tasks.push(entry);
  });
  if (tasks.length === 0)
    throw new DataError(
      "bfcl task file: no entry ids found",
      'write one entry id per line, such as "multi_turn_base_0" (# starts a comment)',
    );
  return tasks;
}

/** The BFCL env. `classes` defaults to the eight upstream backends (apis/upstream-classes.ts). */
export function bfcl(
  options: BfclOptions | Record<string, unknown> = {},
  classes: readonly AnyBfclClass[] = BFCL_CLASSES,
): BfclEnv {
  const config: Readonly<BfclConfig> = parseBfclConfig(options);
  const registry = bfclClassRegistry(classes);
  const dataset = loadBfclDataset(resolveDataDir(config.dataDir), config.categories, { registry });
  const context = createBfclContext(dataset, classes, {
    mode: config.mode,
    callable: config.callable,
    maxStepsPerTurn: config.maxStepsPerTurn,
    stopOnFailure: config.stopOnFailure,
    irrelevanceCheck: config.irrelevanceCheck,
  });
  const { entries } = dataset;
  if (entries.length === 0)
    throw new DataError(`bfcl: no entries in ${config.categories.join(", ")} under ${dataset.dataDir}`);
  return {
    spec: { name: "bfcl", config: { ...config, categories: [...config.categories] } },
    dataset,
    context,
    tasks: {
      generate: (seed) => entries[createRng(seed).int(entries.length)] as BfclEntry,
      id: (task) => task.id,
      structure: "the entry's number: the categories are variants of one base question (base_12, miss_func_12, ...)",
      structureKey: bfclStructureKey,
      distinctStructures: () => new Set(entries.map(bfclStructureKey)).size,
      encode: (task) => task.id,
      decode: (json) => decodeTaskId(dataset, json),
      parse: (text) => parseTaskLines(dataset, text),
      referenceBudget: (task, scope: BudgetScope) =>
        scope === "user-turn" ? config.maxStepsPerTurn : config.maxStepsPerTurn * task.question.length,
      list: () => entries,
    },
    actions: {
      valid: (state) =>
        state.outcome !== null ? [] : [...state.offered.map((doc) => `${doc.name}()`), END_TURN_ACTION],
      stateKey: stateKeyOf,
      parse: (state, action) => parseResponse(context, state, action),
      message: (state, action) => actionMessageFor(context, state, action),
    },
    oracle: { answer: (state, turnsLeft) => bfclOracle(state, turnsLeft) },
    reset(task) {
      const start = startEpisode(context, task);
      const result = {
        state: start.state,
        observation: start.observation,
        info: info(start.state, { invalid: false, parsedAction: null }),
      };
      return start.tools === undefined ? result : { ...result, tools: start.tools };
    },
    step(state, action): StepResult<BfclState> {
      const step = stepEpisode(context, state, action);
      const terminated = state.outcome !== null;
      const result: StepResult<BfclState> = {
        state,
        observation: step.observation,
        reward: state.outcome === "success" && step.outcome !== undefined ? 1 : 0,
        terminated,
        info: info(state, {
          invalid: step.malformed,
          parsedAction: parsedActionOf(state, step),
          details: stepDetails(state, step),
        }),
      };
      return step.tools === undefined ? result : { ...result, tools: step.tools };
    },
  };
}
