// Checking a complete transcript offline, as upstream's evaluation does (eval_runner._evaluate_single_multi_turn_
// entry + multi_turn_checker): the transcript is, per user turn, per step, the calls the model made (call strings
// or parsed calls). A transcript with a different number of turns than the ground truth is a force-terminated
// entry (upstream's runner detects the force-quit that way); empty steps are dropped (upstream skips empty
// decodes); then every turn runs the model's calls on fresh model instances and the ground truth's on fresh
// ground-truth instances, and the turn checks apply; the first failing turn is the verdict.
import { createInstanceSet, executeCall, type InstanceSet } from "../apis/instance-set.js";
import type { Call } from "../calls/call.js";
import { formatCall } from "../calls/format.js";
import { parseCall } from "../calls/parse.js";
import { allowedNames, type BfclContext } from "../context.js";
import type { BfclEntry } from "../load/entries.js";
import { offeredAt } from "../load/func-docs.js";
import { checkTurn, forceTerminatedVerdict, VALID, type BfclVerdict } from "./turn-checks.js";

/** Per user turn, per step, the calls of one model response. */
export type Transcript = readonly (readonly (readonly (string | Call)[])[])[];

function runItem(set: InstanceSet, item: string | Call, allowed: ReadonlySet<string> | undefined): string {
  if (typeof item !== "string") return executeCall(set, item, allowed).text;
  const verdict = parseCall(item);
  // Upstream evals the decoded string; text that is not a call fails there with Python's SyntaxError.
  if (!verdict.valid) return `Error during execution: invalid syntax (${verdict.message})`;
  return executeCall(set, verdict.call, allowed).text;
}

export function checkTranscript(context: BfclContext, entry: BfclEntry, transcript: Transcript): BfclVerdict {
  const turns = entry.groundTruth.length;
  if (transcript.length !== turns)
    return forceTerminatedVerdict(transcript.length, turns, context.rules.maxStepsPerTurn);
  const classes = context.registry.resolve(entry.involvedClasses, entry.id);
  const model = createInstanceSet(classes, entry.initialConfig, entry.longContext, context.constants);
  const truth = createInstanceSet(classes, entry.initialConfig, entry.longContext, context.constants);
  const functions = context.rules.callable === "offered" ? context.functionsOf(entry) : undefined;
  const steadyAllowed = functions === undefined ? allowedNames(context.rules.callable, entry, [], model) : undefined;
  const allModelResults: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const steps = (transcript[turn] as Transcript[number]).filter((step) => step.length > 0);
    const allowed =
      functions === undefined ? steadyAllowed : allowedNames("offered", entry, offeredAt(functions, turn), model);
    const modelResults: string[] = [];
    const modelCalls: string[] = [];
    for (const step of steps) {
      for (const item of step) {
        modelResults.push(runItem(model, item, allowed));
        // Call texts only serve the irrelevance check's details: skip formatting them otherwise.
        if (context.rules.irrelevanceCheck) modelCalls.push(typeof item === "string" ? item : formatCall(item));
      }
    }
    allModelResults.push(...modelResults);
    const truthCalls = entry.groundTruth[turn] ?? [];
    const truthResults = truthCalls.map(({ call }) => executeCall(truth, call).text);
    const verdict = checkTurn({
      turn,
      truthCallCount: truthCalls.length,
      truthResults,
      modelStepCount: steps.length,
      modelResults,
      allModelResults,
      modelInstances: model.instances,
      truthInstances: truth.instances,
      modelCalls,
      irrelevance: context.rules.irrelevanceCheck,
    });
    if (!verdict.valid) return verdict;
  }
  return VALID;
}

/** The ground truth of an entry as a transcript: one step per turn with that turn's calls (none if empty). */
export function groundTruthTranscript(entry: BfclEntry): Call[][][] {
  return entry.groundTruth.map((turn) => (turn.length === 0 ? [] : [turn.map(({ call }) => call)]));
}
