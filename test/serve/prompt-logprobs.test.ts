// Prompt log-probs: each prompt token's log-prob is the model's scoring of the prompt (what echo reports), its rank
// and the k most likely tokens come from the model's distribution at that position; vLLM's JSON shape.
import { describe, expect, it } from "vitest";
import { createModel } from "../../src/nn/model.js";
import { promptLogprobsJson, scorePrompt } from "../../src/serve/prompt-logprobs.js";
import { byteVocabulary } from "../../src/serve/vocabulary.js";

describe("prompt log-probs", () => {
  it("scores each token after the first, ranks it among the distribution, and lists the k best", async () => {
    const model = await createModel({
      config: { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 },
      seed: 6,
    });
    const tokens = [258, 104, 101, 108, 108, 111, 256, 259];
    const positions = await scorePrompt(model, tokens, 3);
    const [scored] = await model.logprobs([tokens]);
    expect(positions).toHaveLength(tokens.length - 1);
    positions.forEach((position, i) => {
      expect(position.token).toBe(tokens[i + 1]);
      expect(position.logprob).toBe(scored![i]);
      expect(position.best).toHaveLength(3);
      expect(position.best[0]!.logprob).toBeGreaterThanOrEqual(position.best[2]!.logprob);
      const above = position.best.filter((alt) => alt.logprob > position.logprob + 1e-4).length;
      if (position.rank <= 3) expect(position.rank).toBe(above + 1);
      else expect(above).toBe(3);
      // The distribution's log-probs and the scoring agree to float rounding.
      const own = position.best.find((alt) => alt.token === position.token);
      if (own !== undefined) expect(Math.abs(own.logprob - position.logprob)).toBeLessThan(1e-4);
    });
    const json = promptLogprobsJson(positions, byteVocabulary(260));
    expect(json[0]).toBeNull();
    expect(json).toHaveLength(tokens.length);
    const first = json[1] as Record<string, { logprob: number; rank: number; decoded_token: string }>;
    expect(first[String(tokens[1])]).toEqual({
      logprob: positions[0]!.logprob,
      rank: positions[0]!.rank,
      decoded_token: "h",
    });
    expect(Object.keys(first).length).toBeGreaterThanOrEqual(3);
    expect(await scorePrompt(model, [65], 2)).toEqual([]);
    model.dispose();
  });
});
