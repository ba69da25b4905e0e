// The acceptance tests on the bundled data and the real backends: all 800 ground-truth entries replayed through
// the agent loop as tool calls pass both checkers, and replays with one ground-truth call removed or altered fail
// with the right error type, on a sample of entries per category.
// The expected error type of a mutation is worked out independently of the checker: by running the original and
// the mutated turn on fresh instances and comparing the dumped public states and the results.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { canonicalCall, toolArguments } from "../../../src/envs/bfcl/play/canonical.js";
import type { Call } from "../../../src/envs/bfcl/calls/call.js";
import { missingItems } from "../../../src/envs/bfcl/check/turn-checks.js";
import { BFCL_CATEGORIES, type BfclEntry } from "../../../src/envs/bfcl/load/entries.js";
import { bfcl, type BfclEnv } from "../../../src/envs/bfcl/env.js";
import { createInstanceSet, executeCall } from "../../../src/envs/bfcl/apis/instance-set.js";
import { pyJsonDumps } from "../../../src/envs/bfcl/py/format.js";
import { instancesState } from "../../../src/envs/bfcl/check/state-dump.js";
import { checkTranscript, groundTruthTranscript } from "../../../src/envs/bfcl/check/offline-transcript.js";

const ANSWER: Message = { role: "assistant", content: "Done." };

/** Per turn, per step, the calls to replay. */
type Script = readonly (readonly (readonly Call[])[])[];

function toolMessage(env: BfclEnv, entry: BfclEntry, calls: readonly Call[], id: string): Message {
  const classes = env.context.registry.resolve(entry.involvedClasses, entry.id);
  const toolCalls = calls.map((call, index) => {
    const canonical = canonicalCall(call, classes);
    return { id: `${id}_${index}`, name: canonical.name, arguments: toolArguments(canonical) };
  });
  return { role: "assistant", content: "", toolCalls };
}

/** Replay a script through env.step as tool calls, closing every turn with a plain answer. */
function replay(env: BfclEnv, entry: BfclEntry, script: Script) {
  let { state } = env.reset(entry, { seed: 0 });
  let last = null;
  for (let turn = 0; turn < script.length; turn++) {
    for (const [step, calls] of (script[turn] ?? []).entries()) {
      last = env.step(state, toolMessage(env, entry, calls, `call_${turn}_${step}`));
      state = last.state;
      if (last.terminated) return last;
    }
    last = env.step(state, ANSWER);
    state = last.state;
    if (last.terminated) return last;
  }
  return last;
}

function groundTruthScript(entry: BfclEntry): Call[][][] {
  return groundTruthTranscript(entry);
}

/** What the checker must say about turn `turn` when its calls are `mutated` instead of the ground truth's. */
function expectedVerdict(env: BfclEnv, entry: BfclEntry, turn: number, mutated: readonly Call[]): string {
  if (mutated.length === 0) return "multi_turn:empty_turn_model_response";
  const classes = env.context.registry.resolve(entry.involvedClasses, entry.id);
  const run = (turnCalls: readonly Call[]) => {
    const set = createInstanceSet(classes, entry.initialConfig, entry.longContext, env.dataset.constants);
    const results: string[] = [];
    for (let before = 0; before < turn; before++)
      for (const { call } of entry.groundTruth[before] ?? []) results.push(executeCall(set, call).text);
    const turnResults = turnCalls.map((call) => executeCall(set, call).text);
    return {
      state: pyJsonDumps(instancesState(set.instances), { sortKeys: true }),
      all: [...results, ...turnResults],
      turnResults,
    };
  };
  const truth = run((entry.groundTruth[turn] ?? []).map(({ call }) => call));
  const model = run(mutated);
  if (model.state !== truth.state) return "multi_turn:instance_state_mismatch";
  if (missingItems(truth.turnResults, model.all).length > 0) return "multi_turn:execution_response_mismatch";
  return "valid";
}

function sample(entries: readonly BfclEntry[], count: number): BfclEntry[] {
  const step = Math.max(1, Math.floor(entries.length / count));
  return entries.filter((_, index) => index % step === 0).slice(0, count);
}

describe("BFCL ground truth on the real backends and the bundled data (800 entries)", () => {
  const env = bfcl();

  it("replays all entries through the loop as tool calls, passing both checkers", () => {
    const entries = env.tasks.list();
    expect(entries).toHaveLength(800);
    const failures = entries.flatMap((entry) => {
      const end = replay(env, entry, groundTruthScript(entry));
      return end?.info.stopReason === "success" && end.reward === 1
        ? []
        : [`${entry.id}: ${JSON.stringify(end?.info.details)}`];
    });
    expect(failures).toEqual([]);
  });

  it("passes all through the offline checker too", () => {
    const failures = env.tasks
      .list()
      .filter((entry) => !checkTranscript(env.context, entry, groundTruthTranscript(entry)).valid);
    expect(failures.map((entry) => entry.id)).toEqual([]);
  });

  it("replays all in prompting mode from the oracle's action texts", () => {
    const prompting = bfcl({ mode: "prompting" });
    const failures = prompting.tasks.list().flatMap((entry) => {
      let { state } = prompting.reset(entry, { seed: 0 });
      for (let guard = 0; guard < 100; guard++) {
        const result = prompting.step(
          state,
          prompting.actions.message(state, prompting.oracle!.answer(state).optimal[0] as string),
        );
        state = result.state;
        if (result.terminated)
          return result.info.stopReason === "success" ? [] : [`${entry.id}: ${JSON.stringify(result.info.details)}`];
      }
      return [`${entry.id}: did not end`];
    });
    expect(failures).toEqual([]);
  });

  for (const category of BFCL_CATEGORIES) {
    it(`fails ${category} entries with one ground-truth call removed or altered, with the right error type`, () => {
      const entries = sample(
        env.tasks.list().filter((entry) => entry.category === category),
        25,
      );
      let checked = 0;
      for (const entry of entries) {
        const turns = entry.groundTruth
          .map((turn, index) => [index, turn.length] as const)
          .filter(([, length]) => length > 0);
        const [lastTurn] = turns[turns.length - 1] ?? [-1];
        const [busyTurn] = turns.find(([, length]) => length >= 2) ?? turns[0] ?? [-1];
        const mutations: [string, number, Call[]][] = [];
        const truthOf = (turn: number) => (entry.groundTruth[turn] ?? []).map(({ call }) => call);
        if (busyTurn >= 0) mutations.push(["remove last call", busyTurn, truthOf(busyTurn).slice(0, -1)]);
        if (lastTurn >= 0)
          mutations.push([
            "alter first call's name",
            lastTurn,
            truthOf(lastTurn).map((call, index) => (index === 0 ? { ...call, name: `${call.name}_renamed` } : call)),
          ]);
        for (const [label, turn, calls] of mutations) {
          const script = groundTruthScript(entry).map((steps, index) =>
            index === turn ? (calls.length === 0 ? [] : [calls]) : steps,
          );
          const expected = expectedVerdict(env, entry, turn, calls);
          const end = replay(env, entry, script);
          const details = end?.info.details as
            { verdict?: { errorType?: string; details?: { turn?: number } } } | undefined;
          const actual = end?.info.stopReason === "success" ? "valid" : details?.verdict?.errorType;
          expect(actual, `${entry.id} ${label} at turn ${turn}`).toBe(expected);
          if (expected !== "valid") {
            expect(details?.verdict?.details?.turn, `${entry.id} ${label}: failing turn`).toBe(turn);
            checked += 1;
          }
        }
      }
      expect(checked).toBeGreaterThanOrEqual(25);
    });
  }

  it("force-terminates an entry that exceeds 20 steps in a turn before the last", () => {
    const entry = env.tasks
      .list()
      .find((item) => item.groundTruth.length >= 2 && (item.groundTruth[0]?.length ?? 0) > 0) as BfclEntry;
    const first = (entry.groundTruth[0] ?? []).map(({ call }) => call);
    const script = groundTruthScript(entry).map((steps, index) =>
      index === 0 ? Array.from({ length: 21 }, () => first.slice(0, 1)) : steps,
    );
    const end = replay(env, entry, script);
    expect(end?.info.stopReason).toBe("force_terminated");
    expect(checkTranscript(env.context, entry, [script[0] as Call[][]])).toMatchObject({
      errorType: "multi_turn:force_terminated",
    });
  });
});
