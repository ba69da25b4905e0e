// Sampling one token per call (resumed from the call before: its session and its stream state) gives the reply
// of one call, bit for bit: tokens, both log-probs and the alternatives, greedy, with temperature and with a
// nucleus. Stop sequences and a minimum length end sequences where they say; masks restrict a token.
import { describe, expect, it } from "vitest";
import type { Generated, RngState } from "../../src/nn/generate.js";
import { createModel, type SampleOptions, type TinyModel } from "../../src/nn/model.js";
import { encodeText, END } from "../../src/nn/tokenizer.js";

const config = { vocabSize: 260, contextLength: 48, layers: 2, dModel: 32, heads: 2, hiddenSize: 48 };

/** A reply sampled one token per call, each call resuming the one before. */
async function tokenByToken(
  model: TinyModel,
  prompt: readonly number[],
  seed: number,
  options: Omit<SampleOptions, "seeds" | "maxNewTokens">,
  maxNewTokens: number,
): Promise<Generated> {
  const session = model.openSession();
  const out: Generated = { tokens: [], logprobs: [], samplingLogprobs: [], alternatives: [], finish: "length" };
  let state: RngState | undefined;
  try {
    for (let k = 0; k < maxNewTokens; k++) {
      const [step] = await model.sample([[...prompt, ...out.tokens]], {
        ...options,
        maxNewTokens: 1,
        seeds: [seed],
        sessions: [session],
        ...(state === undefined ? {} : { resume: [state] }),
      });
      out.tokens.push(...step!.tokens);
      out.logprobs.push(...step!.logprobs);
      out.samplingLogprobs.push(...step!.samplingLogprobs);
      out.alternatives!.push(...(step!.alternatives ?? []));
      state = step!.rngState;
      out.finish = step!.finish;
      if (step!.finish !== "length") break;
    }
  } finally {
    session.close();
  }
  return out;
}

describe("resumed sampling", () => {
  for (const [name, sampling] of [
    ["greedy", { temperature: 0 }],
    ["temperature 1", { temperature: 1 }],
    ["temperature 0.7, top-p 0.9", { temperature: 0.7, topP: 0.9 }],
  ] as const) {
    it(`gives the reply of one call, one token per call (${name})`, async () => {
      const model = await createModel({ config, seed: 3 });
      const prompt = encodeText("resume me");
      for (const seed of [1, 2, 3]) {
        const [whole] = await model.sample([prompt], {
          ...sampling,
          maxNewTokens: 12,
          seeds: [seed],
          stopTokens: [],
          topLogprobs: 3,
        });
        const stepped = await tokenByToken(model, prompt, seed, { ...sampling, stopTokens: [], topLogprobs: 3 }, 12);
        expect(stepped.tokens).toEqual(whole!.tokens);
        expect(stepped.logprobs).toEqual(whole!.logprobs);
        expect(stepped.samplingLogprobs).toEqual(whole!.samplingLogprobs);
        expect(stepped.alternatives).toEqual(whole!.alternatives);
        expect(whole!.alternatives!.every((top) => top.length === 3)).toBe(true);
      }
      model.dispose();
    });
  }

  it("refuses to resume a prompt whose session does not hold all but its last token", async () => {
    const model = await createModel({ config, seed: 3 });
    const session = model.openSession();
    await expect(
      model.sample([[1, 2, 3]], { maxNewTokens: 1, seeds: [1], sessions: [session], resume: [[1, 2, 3, 4]] }),
    ).rejects.toThrow(/cannot be resumed/);
    await expect(model.sample([[1, 2, 3]], { maxNewTokens: 1, seeds: [1], resume: [[1, 2, 3, 4]] })).rejects.toThrow(
      /cannot be resumed/,
    );
    session.close();
    model.dispose();
  });

  it("stops at a stop sequence, not before minNewTokens, and never samples a stop token before it", async () => {
    const model = await createModel({ config, seed: 4 });
    const prompt = encodeText("go");
    const [free] = await model.sample([prompt], { maxNewTokens: 20, temperature: 1, seeds: [7], stopTokens: [] });
    // Stop at the third sampled token's pair: the reply ends there, with the sequence kept.
    const sequence = free!.tokens.slice(1, 3);
    const [stopped] = await model.sample([prompt], {
      maxNewTokens: 20,
      temperature: 1,
      seeds: [7],
      stopTokens: [],
      stopSequences: [sequence],
    });
    const at = free!.tokens.findIndex(
      (_, i) => i >= 1 && free!.tokens[i] === sequence[0] && free!.tokens[i + 1] === sequence[1],
    );
    expect(stopped!.tokens).toEqual(free!.tokens.slice(0, at + 2));
    expect(stopped!.finish).toBe("stop");
    // The first sampled token as a stop token: with minNewTokens 4 it cannot be sampled in the first 4 tokens.
    const first = free!.tokens[0]!;
    const [early] = await model.sample([prompt], { maxNewTokens: 20, temperature: 1, seeds: [7], stopTokens: [first] });
    expect(early!.tokens).toEqual([first]);
    const [late] = await model.sample([prompt], {
      maxNewTokens: 8,
      temperature: 1,
      seeds: [7],
      stopTokens: [first],
      minNewTokens: 4,
    });
    expect(late!.tokens.slice(0, 4)).not.toContain(first);
    model.dispose();
  });

  it("samples only allowed tokens under a mask, with log-probs under the model and the masked distribution", async () => {
    const model = await createModel({ config, seed: 5 });
    const mask = new Uint8Array(260);
    mask[65] = 1;
    mask[66] = 1;
    const seen = new Set<number>();
    for (let seed = 0; seed < 20; seed++) {
      const [out] = await model.sample([encodeText("pick")], {
        maxNewTokens: 1,
        temperature: 1,
        seeds: [seed],
        masks: [mask],
        topLogprobs: 2,
      });
      seen.add(out!.tokens[0]!);
      const [scored] = await model.logprobs([[...encodeText("pick"), out!.tokens[0]!]]);
      expect(Math.abs(out!.logprobs[0]! - scored![3]!)).toBeLessThan(1e-4);
      expect(out!.samplingLogprobs[0]!).toBeGreaterThan(out!.logprobs[0]!);
    }
    expect([...seen].sort()).toEqual([65, 66]);
    const only = new Uint8Array(260);
    only[END] = 1;
    const [forced] = await model.sample([encodeText("pick")], {
      maxNewTokens: 3,
      temperature: 0,
      seeds: [0],
      masks: [only],
    });
    expect(forced!.tokens).toEqual([END]);
    expect(forced!.samplingLogprobs[0]).toBe(0);
    model.dispose();
  });
});
