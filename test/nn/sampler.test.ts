// Token choice: greedy, temperature, and truncation (min-p, top-k, nucleus top-p), with seeded draws.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { chooseToken } from "../../src/nn/sampler.js";

const logits = Float32Array.from([2, 1, 0, -1, 3]);

describe("chooseToken", () => {
  it("is greedy at temperature 0 and reports the model log-prob", () => {
    const c = chooseToken(logits, { temperature: 0, topP: 1 }, createRng(1));
    expect(c.token).toBe(4);
    const lse = Math.log(Array.from(logits).reduce((s, z) => s + Math.exp(z), 0));
    expect(c.logprob).toBeCloseTo(3 - lse, 6);
  });

  it("only samples inside the nucleus, with frequencies matching the renormalised probabilities", () => {
    const rng = createRng(2);
    const counts = new Map<number, number>();
    for (let i = 0; i < 4000; i++) {
      const c = chooseToken(logits, { temperature: 1, topP: 0.8 }, rng);
      counts.set(c.token, (counts.get(c.token) ?? 0) + 1);
    }
    // p = softmax: 4 -> .636, 0 -> .234, 1 -> .086, ...: the 0.8 nucleus is {4, 0}.
    expect([...counts.keys()].sort()).toEqual([0, 4]);
    expect(counts.get(4)! / 4000).toBeCloseTo(0.636 / 0.87, 1);
  });

  it("reports the log-prob under the model and under the sampled distribution (temperature, nucleus)", () => {
    const logSoftmax = (t: number, i: number): number =>
      logits[i]! / t - Math.log(Array.from(logits).reduce((s, z) => s + Math.exp(z / t), 0));
    const rng = createRng(3);
    for (let i = 0; i < 50; i++) {
      const c = chooseToken(logits, { temperature: 0.7, topP: 1 }, rng);
      expect(c.logprob).toBeCloseTo(logSoftmax(1, c.token), 6);
      expect(c.samplingLogprob).toBeCloseTo(logSoftmax(0.7, c.token), 6);
      const n = chooseToken(logits, { temperature: 1, topP: 0.8 }, rng);
      expect(n.samplingLogprob).toBeCloseTo(
        logSoftmax(1, n.token) - Math.log(Math.exp(logSoftmax(1, 4)) + Math.exp(logSoftmax(1, 0))),
        6,
      );
    }
  });

  it("is reproducible from the seed", () => {
    const draw = (seed: number): number[] => {
      const rng = createRng(seed);
      return Array.from({ length: 20 }, () => chooseToken(logits, { temperature: 1.3, topP: 1 }, rng).token);
    };
    expect(draw(5)).toEqual(draw(5));
    expect(draw(5)).not.toEqual(draw(6));
  });

  it("keeps the top k tokens, then the nucleus of what they keep", () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(chooseToken(logits, { temperature: 1, topP: 1, topK: 2 }, rng).token);
    expect([...seen].sort()).toEqual([0, 4]);
    // Within the top 2 ({4: .636, 0: .234} renormalised to .73, .27), a top-p of 0.7 keeps token 4 alone.
    for (let i = 0; i < 200; i++)
      expect(chooseToken(logits, { temperature: 1, topP: 0.7, topK: 2 }, rng).token).toBe(4);
    const only = chooseToken(logits, { temperature: 1, topP: 1, topK: 1 }, rng);
    expect(only).toMatchObject({ token: 4, samplingLogprob: 0 });
  });

  it("keeps tokens at least min_p times as likely as the most likely one", () => {
    // p(i) / p(4) = e^(l_i - 3): token 0 at e^-1 = .37, token 1 at e^-2 = .135, the others below .05.
    const rng = createRng(4);
    const seen = new Set<number>();
    for (let i = 0; i < 3000; i++) seen.add(chooseToken(logits, { temperature: 1, topP: 1, minP: 0.1 }, rng).token);
    expect([...seen].sort()).toEqual([0, 1, 4]);
    const c = chooseToken(logits, { temperature: 1, topP: 1, minP: 0.3 }, createRng(5));
    const kept = Math.exp(3) + Math.exp(2);
    expect(c.samplingLogprob).toBeCloseTo(Math.log(Math.exp(logits[c.token]!) / kept), 6);
  });

  it("truncates as before when top-k and min-p are off", () => {
    const draw = (params: Parameters<typeof chooseToken>[1]): number[] => {
      const rng = createRng(8);
      return Array.from({ length: 50 }, () => chooseToken(logits, params, rng).token);
    };
    expect(draw({ temperature: 0.9, topP: 0.9, topK: 0, minP: 0 })).toEqual(draw({ temperature: 0.9, topP: 0.9 }));
  });
});
