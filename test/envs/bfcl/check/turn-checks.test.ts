// Checker verdicts for each error type, with readable diffs, on fake backends.
import { describe, expect, it } from "vitest";
import {
  checkTurn,
  missingItems,
  responseChecker,
  stateChecker,
  verdictSummary,
} from "../../../../src/envs/bfcl/check/turn-checks.js";
import { createInstanceSet } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { pyDictOf } from "../../../../src/envs/bfcl/py/value.js";
import { parseCall } from "../../../../src/envs/bfcl/calls/parse.js";
import { executeCall } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { counterClass, notesClass } from "../fixtures.js";

const constants = { defaultState: new Map(), longContext: new Map() };
const config = new Map([
  ["Counter", pyDictOf({ count: 1 })],
  ["Notes", pyDictOf({ notes: pyDictOf({ todo: "milk" }) })],
]);

function instances(...calls: string[]) {
  const set = createInstanceSet([counterClass, notesClass], config, false, constants);
  const results = calls.map((text) => {
    const verdict = parseCall(text);
    if (!verdict.valid) throw new Error(verdict.message);
    return executeCall(set, verdict.call).text;
  });
  return { set, results };
}

describe("stateChecker", () => {
  it("passes equal states and names the attribute paths that differ", () => {
    expect(stateChecker(instances("add(amount=2)").set.instances, instances("add(2)").set.instances, 0)).toEqual({
      valid: true,
    });
    const verdict = stateChecker(
      instances("write(title='a', text='x')", "add(amount=1)").set.instances,
      instances("write(title='a', text='y')", "add(amount=1)").set.instances,
      3,
    );
    expect(verdict).toMatchObject({
      valid: false,
      errorType: "multi_turn:instance_state_mismatch",
      message: "Model instance for Notes does not match the state with ground truth instance.",
    });
    if (verdict.valid) return;
    expect(verdict.details["turn"]).toBe(3);
    expect(verdict.details["diff"]).toEqual(["Notes.notes['a']: model 'x', ground truth 'y'"]);
    expect(verdict.details["differences"]).toEqual({
      notes: { model: { todo: "milk", a: "x" }, ground_truth: { todo: "milk", a: "y" } },
    });
  });

  it("reports the first differing class in ground-truth order, with missing and extra keys", () => {
    const verdict = stateChecker(
      instances("add(amount=2)", "write(title='b', text='z')").set.instances,
      instances("add(amount=3)").set.instances,
      0,
    );
    expect(verdict.valid === false && verdict.details["class"]).toBe("Counter");
    expect(verdict.valid === false && verdict.details["diff"]).toEqual([
      "Counter.count: model 3, ground truth 4",
      "Counter.history[0]: model 2, ground truth 3",
    ]);
    const notes = stateChecker(instances("write(title='b', text='z')").set.instances, instances().set.instances, 0);
    expect(notes.valid === false && notes.details["diff"]).toEqual(["Notes.notes['b']: extra in model ('z')"]);
  });
});

describe("responseChecker", () => {
  it("needs every ground-truth result among the model's, as a multiset", () => {
    expect(missingItems(["a", "a", "b"], ["b", "a", "c", "a"])).toEqual([]);
    expect(missingItems(["a", "a", "b"], ["a", "b"])).toEqual(["a"]);
    expect(responseChecker(["x", "y"], ["y"], 1)).toEqual({ valid: true });
    const verdict = responseChecker(["x"], ["y", "x"], 2);
    expect(verdict).toMatchObject({
      valid: false,
      errorType: "multi_turn:execution_response_mismatch",
      message:
        "Model response execution results so far does not contain all the ground truth response execution results for turn 2.",
    });
    expect(verdict.valid === false && verdict.details["missing_items"]).toEqual(["y"]);
  });
});

describe("checkTurn", () => {
  const base = { turn: 1, modelResults: [], allModelResults: [], modelCalls: [], irrelevance: false };

  it("applies upstream's order: empty turn, then state, then response", () => {
    const model = instances("add(amount=2)");
    const truth = instances("add(amount=2)", "get()");
    const common = {
      ...base,
      modelInstances: model.set.instances,
      truthInstances: truth.set.instances,
      truthResults: truth.results,
    };
    expect(checkTurn({ ...common, truthCallCount: 2, modelStepCount: 0 })).toMatchObject({
      errorType: "multi_turn:empty_turn_model_response",
      message: "Model response list is empty for turn 1",
    });
    expect(
      checkTurn({ ...common, truthCallCount: 2, modelStepCount: 1, allModelResults: model.results }),
    ).toMatchObject({ errorType: "multi_turn:execution_response_mismatch" });
    const wrong = instances("add(amount=5)");
    expect(
      checkTurn({
        ...common,
        modelInstances: wrong.set.instances,
        truthCallCount: 2,
        modelStepCount: 1,
        allModelResults: [...wrong.results, "3"],
      }),
    ).toMatchObject({ errorType: "multi_turn:instance_state_mismatch" });
    expect(
      checkTurn({ ...common, truthCallCount: 2, modelStepCount: 1, allModelResults: [...model.results, "3"] }),
    ).toEqual({ valid: true });
  });

  it("skips the checks of turns whose ground truth is empty, unless the irrelevance check is on", () => {
    const model = instances("add(amount=9)");
    const truth = instances();
    const common = {
      ...base,
      modelInstances: model.set.instances,
      truthInstances: truth.set.instances,
      truthResults: [],
      truthCallCount: 0,
      modelStepCount: 1,
      modelCalls: ["add(amount=9)"],
    };
    expect(checkTurn(common)).toEqual({ valid: true });
    const verdict = checkTurn({ ...common, irrelevance: true });
    expect(verdict).toMatchObject({
      errorType: "multi_turn:irrelevance_error:decoder_success",
      message: "Model outputs valid function calls when it should not for turn 1.",
    });
    expect(verdictSummary(verdict)).toBe(
      "multi_turn:irrelevance_error:decoder_success at turn 1: Model outputs valid function calls when it should not for turn 1.",
    );
  });
});
