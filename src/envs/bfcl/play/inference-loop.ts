// One BFCL entry played as upstream's inference loop (bfcl_eval/model_handler/base_handler.py,
// inference_multi_turn_FC / inference_multi_turn_prompting), with the checker run at the end of each user turn:
//   - user turns come one at a time; within a turn every model response is one step and may hold several calls;
//   - a response without calls (or one that does not decode) ends the turn;
//   - after the 21st response with calls in one turn (upstream: `count > MAXIMUM_STEP_LIMIT` with limit 20) the
//     entry is force-quit; before the last turn that fails it (multi_turn:force_terminated), while on the last
//     turn upstream's runner cannot tell and checks it as usual, which we reproduce;
//   - miss_func turns re-add their held-out functions with upstream's message (and new tools in tools mode);
//   - at the end of each turn the ground truth's calls of that turn run on the ground-truth instances and the
//     turn is checked (check/turn-checks.ts); by default the episode stops at the first failed turn.
// The state is mutated in place.
import type { Message, ToolSpec } from "../../../core/message.js";
import type { AnyBfclClass } from "../apis/backend-class.js";
import { createInstanceSet, executeCall, type InstanceSet } from "../apis/instance-set.js";
import type { Call } from "../calls/call.js";
import { formatCall } from "../calls/format.js";
import { checkTurn, forceTerminatedVerdict, type BfclVerdict } from "../check/turn-checks.js";
import { allowedNames, type BfclContext } from "../context.js";
import type { BfclEntry } from "../load/entries.js";
import { offeredAt, toolSpec, type EntryFunctions, type FuncDoc } from "../load/func-docs.js";
import { decodeResponse, type StepCall } from "./decode.js";
import {
  ADDITIONAL_FUNCTION_MESSAGE,
  additionalFunctionsPrompt,
  executionResultsPrompt,
  withSystemPrompt,
} from "./prompts.js";

export type EpisodeOutcome = "success" | "failure" | "force_terminated";

export interface BfclState {
  readonly entry: BfclEntry;
  readonly classes: readonly AnyBfclClass[];
  readonly functions: EntryFunctions;
  readonly model: InstanceSet;
  readonly truth: InstanceSet;
  /** Current user turn. */
  turn: number;
  /** Responses with calls in this turn (upstream's `count`). */
  stepsInTurn: number;
  offered: readonly FuncDoc[];
  /** Names that may run this turn; undefined: any method of the instances. */
  allowed: ReadonlySet<string> | undefined;
  /** Results of every model call so far, all turns (the response checker's haystack). */
  readonly allModelResults: string[];
  turnResults: string[];
  /** Steps with calls in this turn. */
  turnSteps: Call[][];
  /** Calls per step per finished turn: the transcript the offline checker takes. */
  readonly transcript: Call[][][];
  /** Verdict of every finished turn. */
  readonly turnVerdicts: BfclVerdict[];
  passedTurns: number;
  /** The entry's verdict so far: the first failure, or the force-quit. */
  failure: BfclVerdict | null;
  outcome: EpisodeOutcome | null;
}

export interface EpisodeStart {
  readonly state: BfclState;
  readonly observation: readonly Message[];
  readonly tools?: readonly ToolSpec[];
}

export interface EpisodeStep {
  readonly observation: readonly Message[];
  /** Present when the offered functions changed (tools mode). */
  readonly tools?: readonly ToolSpec[];
  /** The calls this response made (empty when it ended the turn). */
  readonly calls: readonly Call[];
  /** It looked like calls but did not decode. */
  readonly malformed: boolean;
  /** Set when this response ended a user turn: that turn's verdict. */
  readonly turnVerdict?: BfclVerdict;
  /** Set when the entry is over. */
  readonly outcome?: EpisodeOutcome;
}

function allowedAt(
  context: BfclContext,
  state: Pick<BfclState, "entry" | "model">,
  offered: readonly FuncDoc[],
): ReadonlySet<string> | undefined {
  return allowedNames(context.rules.callable, state.entry, offered, state.model);
}

/** The messages that open user turn `turn` (upstream's substitution for miss_func turns included). */
function turnMessages(context: BfclContext, state: BfclState, turn: number): Message[] {
  const added = state.functions.added.get(turn);
  if (added !== undefined) {
    const content = context.rules.mode === "tools" ? ADDITIONAL_FUNCTION_MESSAGE : additionalFunctionsPrompt(added);
    return [{ role: "user", content }];
  }
  return [...(state.entry.question[turn] ?? [])];
}

function toolsOf(context: BfclContext, offered: readonly FuncDoc[]): readonly ToolSpec[] | undefined {
  return context.rules.mode === "tools" ? offered.map(toolSpec) : undefined;
}

export function startEpisode(context: BfclContext, entry: BfclEntry): EpisodeStart {
  const classes = context.registry.resolve(entry.involvedClasses, entry.id);
  const functions = context.functionsOf(entry);
  const model = createInstanceSet(classes, entry.initialConfig, entry.longContext, context.constants);
  const truth = createInstanceSet(classes, entry.initialConfig, entry.longContext, context.constants);
  const offered = offeredAt(functions, 0);
  const state: BfclState = {
    entry,
    classes,
    functions,
    model,
    truth,
    turn: 0,
    stepsInTurn: 0,
    offered,
    allowed: allowedAt(context, { entry, model }, offered),
    allModelResults: [],
    turnResults: [],
    turnSteps: [],
    transcript: [],
    turnVerdicts: [],
    passedTurns: 0,
    failure: null,
    outcome: null,
  };
  const first = turnMessages(context, state, 0);
  const observation = context.rules.mode === "prompting" ? withSystemPrompt(first, offered) : first;
  const tools = toolsOf(context, offered);
  return tools === undefined ? { state, observation } : { state, observation, tools };
}

function runCalls(state: BfclState, calls: readonly StepCall[]): string[] {
  return calls.map(({ call }) => executeCall(state.model, call, state.allowed).text);
}

function resultMessages(context: BfclContext, calls: readonly StepCall[], results: readonly string[]): Message[] {
  if (context.rules.mode === "prompting")
    return [
      {
        role: "user",
        content: executionResultsPrompt(
          calls.map((call, index) => ({ call: call.text, result: results[index] as string })),
        ),
      },
    ];
  return calls.map((call, index) => ({
    role: "tool",
    content: results[index] as string,
    toolCallId: call.toolCallId ?? "",
  }));
}

/** Run the ground truth of the turn, check it, and move to the next turn (or end the entry). */
function finishTurn(
  context: BfclContext,
  state: BfclState,
  forced: boolean,
): Omit<EpisodeStep, "calls" | "malformed"> & { observation: Message[] } {
  const { entry } = state;
  const lastTurn = state.turn === entry.question.length - 1;
  state.transcript.push(state.turnSteps);
  if (forced && !lastTurn) {
    const verdict = forceTerminatedVerdict(state.turn + 1, entry.groundTruth.length, context.rules.maxStepsPerTurn);
    state.failure = verdict;
    state.outcome = "force_terminated";
    return { observation: [], turnVerdict: verdict, outcome: "force_terminated" };
  }
  const truthCalls = entry.groundTruth[state.turn] ?? [];
  const truthResults = truthCalls.map(({ call }) => executeCall(state.truth, call).text);
  const verdict = checkTurn({
    turn: state.turn,
    truthCallCount: truthCalls.length,
    truthResults,
    modelStepCount: state.turnSteps.length,
    modelResults: state.turnResults,
    allModelResults: state.allModelResults,
    modelInstances: state.model.instances,
    truthInstances: state.truth.instances,
    modelCalls: context.rules.irrelevanceCheck ? state.turnSteps.flat().map(formatCall) : [],
    irrelevance: context.rules.irrelevanceCheck,
  });
  state.turnVerdicts.push(verdict);
  if (verdict.valid) state.passedTurns += 1;
  else if (state.failure === null) state.failure = verdict;
  if (lastTurn || (state.failure !== null && context.rules.stopOnFailure)) {
    state.outcome = state.failure === null ? "success" : "failure";
    return { observation: [], turnVerdict: verdict, outcome: state.outcome };
  }
  state.turn += 1;
  state.stepsInTurn = 0;
  state.turnSteps = [];
  state.turnResults = [];
  const changed = state.functions.added.has(state.turn);
  if (changed) {
    state.offered = offeredAt(state.functions, state.turn);
    state.allowed = allowedAt(context, state, state.offered);
  }
  const observation = turnMessages(context, state, state.turn);
  const tools = changed ? toolsOf(context, state.offered) : undefined;
  return tools === undefined ? { observation, turnVerdict: verdict } : { observation, turnVerdict: verdict, tools };
}

/** The tool messages that answer tool calls which could not be decoded (keeps the chat valid for real APIs). */
function undecodedToolAnswers(action: Message, message: string): Message[] {
  return (action.toolCalls ?? []).map((toolCall) => ({
    role: "tool",
    content: `Error decoding the model response: ${message}`,
    toolCallId: toolCall.id,
  }));
}

export function stepEpisode(context: BfclContext, state: BfclState, action: Message): EpisodeStep {
  // A finished entry ignores further responses (no outcome: this step did not end it).
  if (state.outcome !== null) return { observation: [], calls: [], malformed: false };
  const decoded = decodeResponse(action, context.rules.mode);
  if (decoded.kind === "none") {
    const prefix =
      decoded.malformed && context.rules.mode === "tools"
        ? undecodedToolAnswers(action, decoded.message ?? "malformed tool call")
        : [];
    const end = finishTurn(context, state, false);
    return { ...end, observation: [...prefix, ...end.observation], calls: [], malformed: decoded.malformed };
  }
  const calls = decoded.calls.map((item) => item.call);
  const results = runCalls(state, decoded.calls);
  state.allModelResults.push(...results);
  state.turnResults.push(...results);
  state.turnSteps.push(calls);
  state.stepsInTurn += 1;
  const observation = resultMessages(context, decoded.calls, results);
  if (state.stepsInTurn > context.rules.maxStepsPerTurn) {
    const end = finishTurn(context, state, true);
    return { ...end, observation: [...observation, ...end.observation], calls, malformed: false };
  }
  return { observation, calls, malformed: false };
}
