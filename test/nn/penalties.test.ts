// Logit biases and repetition, presence and frequency penalties against hand-computed rows, and sampling with them
// through the model: seeded and deterministic, log-probs still the model's own, a banned token never drawn.
import { describe, expect, it } from "vitest";
import { createModel } from "../../src/nn/model.js";
import { NO_PENALTIES, penalisedLogits, penalises } from "../../src/nn/penalties.js";

const row = Float32Array.from([2, -1, 0.5, 3, -2]);

describe("penalties", () => {
  it("applies biases, then the repetition penalty on prompt and reply tokens, then presence and frequency on the reply's", () => {
    const out = penalisedLogits(
      row,
      {
        repetition: 2,
        presence: 0.5,
        frequency: 0.25,
        logitBias: [
          [4, 10],
          [9, 1],
        ],
      },
      [0, 1],
      [3, 3, 1],
    );
    // 0: in the prompt, positive: 2 / 2. 1: in both, negative: -1 * 2, then reply once: -0.25 - 0.5.
    // 2: untouched. 3: reply twice: 3 / 2 - 0.5 - 2 * 0.25. 4: bias +10 (8), not seen. Id 9 is outside: ignored.
    expect(Array.from(out)).toEqual([1, -2.75, 0.5, 0.5, 8]);
    expect(Array.from(row)).toEqual([2, -1, 0.5, 3, -2]);
  });

  it("knows when nothing changes", () => {
    expect(penalises(undefined)).toBe(false);
    expect(penalises(NO_PENALTIES)).toBe(false);
    expect(penalises({ ...NO_PENALTIES, presence: 0.1 })).toBe(true);
    expect(Array.from(penalisedLogits(row, NO_PENALTIES, [1], [2]))).toEqual(Array.from(row));
  });

  it("samples with them deterministically, log-probs under the model, a token biased to -100 never drawn", async () => {
    const model = await createModel({
      config: { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 },
      seed: 4,
    });
    const prompt = [258, 104, 105, 256, 259];
    const plain = await model.sample([prompt], { maxNewTokens: 12, seeds: [3], stopTokens: [] });
    const banned = plain[0]!.tokens[0]!;
    const options = {
      maxNewTokens: 12,
      seeds: [3],
      stopTokens: [],
      penalties: { repetition: 1.3, presence: 0.4, frequency: 0.2, logitBias: [[banned, -100]] as [number, number][] },
    };
    const [first] = await model.sample([prompt], options);
    const [again] = await model.sample([prompt], options);
    expect(again).toEqual(first);
    expect(first!.tokens).not.toContain(banned);
    const [scored] = await model.logprobs([[...prompt, ...first!.tokens]]);
    first!.logprobs.forEach((logprob, i) =>
      expect(Math.abs(logprob - scored![prompt.length - 1 + i]!)).toBeLessThan(1e-4),
    );
    model.dispose();
  });
});
