// Checking whole transcripts offline: ground truth passes, steps and empty steps, each error type, irrelevance.
import { describe, expect, it } from "vitest";
import { checkTranscript, groundTruthTranscript } from "../../../../src/envs/bfcl/check/offline-transcript.js";
import { fakeContext } from "../fixtures.js";

describe("checkTranscript", () => {
  const { context, dataset, entry } = fakeContext();

  it("passes every ground truth replayed as a transcript", () => {
    for (const item of dataset.entries)
      expect(checkTranscript(context, item, groundTruthTranscript(item)), item.id).toEqual({ valid: true });
  });

  it("takes call strings over several steps, and drops empty steps as upstream's runner does", () => {
    const transcript = [[[], ["get()"], ["add(2)"]], [["write(title='a', text='hello')"]], [["read(title='a')"], []]];
    expect(checkTranscript(context, entry("multi_turn_base_0"), transcript)).toEqual({ valid: true });
  });

  it("fails with the right error type", () => {
    const base0 = entry("multi_turn_base_0");
    expect(checkTranscript(context, base0, [[["add(amount=2)"]], [["write(title='a', text='hello')"]]])).toMatchObject({
      errorType: "multi_turn:force_terminated",
    });
    expect(checkTranscript(context, base0, [[["add(amount=2)"]], [], [["read(title='a')"]]])).toMatchObject({
      errorType: "multi_turn:empty_turn_model_response",
      details: { turn: 1 },
    });
    expect(checkTranscript(context, base0, [[["add(amount=3)"]], [], []])).toMatchObject({
      errorType: "multi_turn:instance_state_mismatch",
      details: { turn: 0 },
    });
    const missing = checkTranscript(context, base0, [
      [["add(amount=2)"]],
      [["write(title='a', text='hello')"]],
      [["get()"]],
    ]);
    expect(missing).toMatchObject({
      errorType: "multi_turn:execution_response_mismatch",
      details: { turn: 2, missing_items: ["hello"] },
    });
    expect(checkTranscript(context, base0, [[["add(amount=2"]], [], []])).toMatchObject({
      errorType: "multi_turn:instance_state_mismatch",
    });
  });

  it("counts results of earlier turns for the response check", () => {
    const base1 = entry("multi_turn_base_1");
    expect(checkTranscript(context, base1, [[["add(amount=5)", "add(amount=5)", "get()"]], [["get()"]]])).toEqual({
      valid: true,
    });
  });

  it("applies the irrelevance check when asked", () => {
    const strict = fakeContext({ irrelevanceCheck: true });
    const transcript = [[["add(amount=2)"]], [["get()"]], [["add(amount=3)"]]];
    expect(checkTranscript(context, entry("multi_turn_miss_param_0"), transcript)).toEqual({ valid: true });
    expect(checkTranscript(strict.context, strict.entry("multi_turn_miss_param_0"), transcript)).toMatchObject({
      errorType: "multi_turn:irrelevance_error:decoder_success",
    });
  });
});
