// Training sequences as Tinker data: positions, the values scattered onto them, and the log-probs cut back out.
import { describe, expect, it } from "vitest";
import {
  crossEntropyDatum,
  policyLossDatum,
  responseLogprobs,
  responsePositions,
} from "../../../../src/rl/backends/tinker/datum.js";

// tokens 10..16; responses: tokens[2, 4) and tokens[5, 7)
const sequence = {
  tokens: [10, 11, 12, 13, 14, 15, 16],
  responses: [
    { start: 2, end: 4 },
    { start: 5, end: 7 },
  ],
};

describe("tinker data", () => {
  it("puts response token i at input position i - 1", () => {
    expect(responsePositions(sequence)).toEqual([1, 2, 4, 5]);
  });

  it("builds cross_entropy data: inputs tokens[0, L-1), targets tokens[1, L), weights on the responses only", () => {
    const datum = crossEntropyDatum(sequence, [0.5, -1, 2, 0.1]);
    expect(datum.model_input).toEqual({ chunks: [{ type: "encoded_text", tokens: [10, 11, 12, 13, 14, 15] }] });
    expect(datum.loss_fn_inputs.target_tokens).toEqual({ data: [11, 12, 13, 14, 15, 16], dtype: "int64", shape: [6] });
    expect(datum.loss_fn_inputs.weights?.data).toEqual([0, 0.5, -1, 0, 2, Math.fround(0.1)]);
    expect(crossEntropyDatum(sequence).loss_fn_inputs.weights?.data).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("builds policy-loss data with behaviour log-probs and advantages, zero on the context", () => {
    const datum = policyLossDatum(sequence, [-1, -2, -3, -4], [0.25, 0.25, -1, -1]);
    expect(datum.loss_fn_inputs.logprobs?.data).toEqual([0, -1, -2, 0, -3, -4]);
    expect(datum.loss_fn_inputs.advantages).toEqual({ data: [0, 0.25, 0.25, 0, -1, -1], dtype: "float32", shape: [6] });
  });

  it("cuts the response log-probs out of a forward answer, and refuses answers of the wrong size", () => {
    const output = { loss_fn_outputs: [{ logprobs: { data: [-9, -1, -2, -9, -3, -4] } }] };
    expect(Array.from(responseLogprobs(output, [sequence])?.[0] as Float32Array)).toEqual([-1, -2, -3, -4]);
    const two = {
      loss_fn_outputs: [
        output.loss_fn_outputs[0] as (typeof output.loss_fn_outputs)[0],
        output.loss_fn_outputs[0] as (typeof output.loss_fn_outputs)[0],
      ],
    };
    expect(() => responseLogprobs(two, [sequence])).toThrow(/2 loss outputs for 1 data/);
    expect(() => responseLogprobs({ loss_fn_outputs: [{ logprobs: { data: [1] } }] }, [sequence])).toThrow(
      /has 1 logprobs, expected 6/,
    );
    expect(() =>
      responseLogprobs({ loss_fn_outputs: [output.loss_fn_outputs[0] as (typeof output.loss_fn_outputs)[0], {}] }, [
        sequence,
        sequence,
      ]),
    ).toThrow(/loss output 1 has no logprobs/);
  });

  it("says undefined when the service stripped the log-probs: every record without them, or none at all", () => {
    expect(responseLogprobs({ loss_fn_outputs: [{}] }, [sequence])).toBeUndefined();
    expect(responseLogprobs({ loss_fn_outputs: [{}, {}] }, [sequence, sequence])).toBeUndefined();
    expect(responseLogprobs({ loss_fn_outputs: [] }, [sequence])).toBeUndefined();
  });
});
