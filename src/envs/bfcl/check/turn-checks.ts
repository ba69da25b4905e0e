// The multi-turn checkers, as upstream's multi_turn_checker.py (bfcl_eval/eval_checker/multi_turn_eval/):
//   state checker     every public attribute of every involved instance equal (Python ==) between the model's
//                     instances and the ground truth's, both driven from the same initial config;
//   response checker  the ground truth's results of the turn are all among the model's results of all turns so
//                     far, as a multiset (order free: parallel calls may run in any order);
//   empty turn        a turn whose ground truth has calls but where the model made none;
//   force terminated  the model exceeded the steps of a user turn before the last turn (upstream's runner sees
//                     fewer turns than the ground truth has);
//   irrelevance       a turn whose ground truth is empty but where the model made calls (upstream defines
//                     multi_turn_irrelevance_checker but its runner does not call it: opt-in here).
// Per turn, in upstream's order: empty turn, then (only when the ground truth has calls) state, then response.
// Verdicts are data: {valid: true} or {valid: false, errorType, message, details} with upstream's error types
// and messages; details carry the turn, a readable diff and the values that differed.
import type { Json, JsonObject } from "../../../core/json.js";
import type { BfclInstance } from "../apis/backend-class.js";
import { pyToJson } from "../py/to-json.js";
import { pyEquals, type PyValue } from "../py/value.js";
import { diffValues, shortRepr } from "./value-diff.js";

export const BFCL_ERROR_TYPES = [
  "multi_turn:instance_state_mismatch",
  "multi_turn:execution_response_mismatch",
  "multi_turn:empty_turn_model_response",
  "multi_turn:force_terminated",
  "multi_turn:irrelevance_error:decoder_success",
] as const;
export type BfclErrorType = (typeof BFCL_ERROR_TYPES)[number];

export type BfclVerdict =
  | { readonly valid: true }
  | {
      readonly valid: false;
      readonly errorType: BfclErrorType;
      readonly message: string;
      readonly details: JsonObject;
    };

export const VALID: BfclVerdict = Object.freeze({ valid: true });

/** Values larger than this (as repr text) are shown shortened in details. */
const MAX_DETAIL_REPR = 2000;

function detailValue(value: PyValue | undefined): Json {
  if (value === undefined) return null;
  const text = shortRepr(value, MAX_DETAIL_REPR);
  return text.length > MAX_DETAIL_REPR ? text : pyToJson(value);
}

function shortTexts(texts: readonly string[], limit = 300): string[] {
  return texts.map((text) => (text.length > limit ? `${text.slice(0, limit)}... (${text.length} chars)` : text));
}

/** Upstream state_checker: the first class (ground-truth order) whose public attributes differ. */
export function stateChecker(
  model: ReadonlyMap<string, BfclInstance>,
  truth: ReadonlyMap<string, BfclInstance>,
  turn: number,
): BfclVerdict {
  for (const [className, truthInstance] of truth) {
    const modelInstance = model.get(className);
    const modelAttributes = new Map(modelInstance?.publicState() ?? []);
    const differences: Record<string, Json> = {};
    const diff: string[] = [];
    for (const [name, truthValue] of truthInstance.publicState()) {
      const modelValue = modelAttributes.get(name);
      if (modelValue !== undefined && pyEquals(modelValue, truthValue)) continue;
      differences[name] = { model: detailValue(modelValue), ground_truth: detailValue(truthValue) };
      diff.push(...diffValues(modelValue, truthValue, `${className}.${name}`));
    }
    if (Object.keys(differences).length > 0) {
      return {
        valid: false,
        errorType: "multi_turn:instance_state_mismatch",
        message: `Model instance for ${className} does not match the state with ground truth instance.`,
        details: { turn, class: className, diff, differences },
      };
    }
  }
  return VALID;
}

/** Items of `needed` not covered by `available`, counting duplicates (upstream _is_subsequence_unordered: each
 * needed item removes one equal item from a copy). Results can be long texts: comparing is cheaper than hashing. */
export function missingItems(needed: readonly string[], available: readonly string[]): string[] {
  const pool = available.slice();
  const missing: string[] = [];
  for (const item of needed) {
    const index = pool.indexOf(item);
    if (index >= 0) pool.splice(index, 1);
    else missing.push(item);
  }
  return missing;
}

/** Upstream response_checker: every ground-truth result of the turn among the model's results so far. */
export function responseChecker(
  allModelResults: readonly string[],
  truthResults: readonly string[],
  turn: number,
): BfclVerdict {
  const missing = missingItems(truthResults, allModelResults);
  if (missing.length === 0) return VALID;
  return {
    valid: false,
    errorType: "multi_turn:execution_response_mismatch",
    message: `Model response execution results so far does not contain all the ground truth response execution results for turn ${turn}.`,
    details: {
      turn,
      missing_items: missing,
      "model_response (including all previous turns)": shortTexts(allModelResults),
      "ground_truth_response (only the current turn)": shortTexts(truthResults),
    },
  };
}

export function emptyTurnVerdict(
  turn: number,
  modelResults: readonly string[],
  truthResults: readonly string[],
): BfclVerdict {
  return {
    valid: false,
    errorType: "multi_turn:empty_turn_model_response",
    message: `Model response list is empty for turn ${turn}`,
    details: { turn, execution_result: { model: shortTexts(modelResults), ground_truth: shortTexts(truthResults) } },
  };
}

export function forceTerminatedVerdict(modelTurns: number, truthTurns: number, stepLimit: number): BfclVerdict {
  return {
    valid: false,
    errorType: "multi_turn:force_terminated",
    message: `Model was force-terminated during inference phase. The length of the model result turns (${modelTurns}) does not match the length of the ground truth turns (${truthTurns}).`,
    details: { turn: modelTurns - 1, step_limit: stepLimit },
  };
}

export function irrelevanceVerdict(turn: number, calls: readonly string[]): BfclVerdict {
  return {
    valid: false,
    errorType: "multi_turn:irrelevance_error:decoder_success",
    message: `Model outputs valid function calls when it should not for turn ${turn}.`,
    details: { turn, "model response decoded": [...calls] },
  };
}

export interface TurnCheck {
  readonly turn: number;
  /** Calls the ground truth makes in this turn (only the count matters to the checks). */
  readonly truthCallCount: number;
  readonly truthResults: readonly string[];
  /** Model responses with calls in this turn. */
  readonly modelStepCount: number;
  /** Results of the model's calls in this turn, and in every turn so far (this one included). */
  readonly modelResults: readonly string[];
  readonly allModelResults: readonly string[];
  readonly modelInstances: ReadonlyMap<string, BfclInstance>;
  readonly truthInstances: ReadonlyMap<string, BfclInstance>;
  /** Texts of the model's calls this turn, for the irrelevance check. */
  readonly modelCalls: readonly string[];
  readonly irrelevance: boolean;
}

/** One turn of upstream's multi_turn_checker loop (plus the opt-in irrelevance check). */
export function checkTurn(input: TurnCheck): BfclVerdict {
  if (input.truthCallCount > 0 && input.modelStepCount === 0)
    return emptyTurnVerdict(input.turn, input.modelResults, input.truthResults);
  if (input.truthCallCount === 0)
    return input.irrelevance && input.modelStepCount > 0 ? irrelevanceVerdict(input.turn, input.modelCalls) : VALID;
  const state = stateChecker(input.modelInstances, input.truthInstances, input.turn);
  if (!state.valid) return state;
  return responseChecker(input.allModelResults, input.truthResults, input.turn);
}

/** One line for logs and tables: "multi_turn:instance_state_mismatch at turn 2: ...". */
export function verdictSummary(verdict: BfclVerdict): string {
  if (verdict.valid) return "valid";
  const turn = verdict.details["turn"];
  return `${verdict.errorType}${typeof turn === "number" ? ` at turn ${turn}` : ""}: ${verdict.message}`;
}
