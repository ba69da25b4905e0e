// The model API: determinism across threads and batch composition, gradient accumulation, scoring, cloning,
// sampling options, clear errors, and the overfit check (the whole training loop works end to end).
import { describe, expect, it } from "vitest";
import { BudgetrlError } from "../../src/core/errors.js";
import { createModel } from "../../src/nn/model.js";
import { warmupCosine } from "../../src/nn/schedule.js";
import { encodeText, END } from "../../src/nn/tokenizer.js";
import { maxAbsDiff, randomBatch, tinyConfig } from "./helpers.js";

const small = { vocabSize: 260, contextLength: 48, layers: 2, dModel: 32, heads: 2, hiddenSize: 48 };

describe("model", () => {
  it("gives bit-identical outputs and gradients on 1 and 2 threads", async () => {
    const batch = randomBatch(small, 5, 20, 1);
    const results = [];
    for (const threads of [1, 2]) {
      const model = await createModel({ config: small, seed: 2, threads });
      expect(model.threads).toBe(threads);
      const out = await model.lossAndGradient(batch);
      const sampled = await model.sample([[1, 2, 3], [4], [5, 6, 7, 8]], {
        maxNewTokens: 6,
        temperature: 1,
        seeds: [1, 2, 3],
      });
      results.push({ logprobs: Array.from(out.logprobs), grads: Array.from(model.gradients()), sampled });
      model.dispose();
    }
    expect(results[1]).toEqual(results[0]);
  });

  it("gives the same log-probs and gradients with the WebAssembly and the reference kernels", async () => {
    const batch = { ...randomBatch(small, 3, 16, 11), lengths: [16, 9, 12] };
    const outputs = [];
    for (const backend of ["reference", "wasm"] as const) {
      const model = await createModel({ config: small, seed: 12, backend });
      const out = await model.lossAndGradient(batch);
      outputs.push({ logprobs: out.logprobs, grads: Float32Array.from(model.gradients()) });
      model.dispose();
    }
    expect(maxAbsDiff(outputs[0]!.logprobs, outputs[1]!.logprobs)).toBeLessThan(1e-4);
    expect(maxAbsDiff(outputs[0]!.grads, outputs[1]!.grads)).toBeLessThan(1e-5);
  });

  it("samples each sequence the same whatever else is in its batch", async () => {
    const model = await createModel({ config: small, seed: 3 });
    const prompts = [
      [1, 2, 3],
      [9, 9],
      [7, 7, 7, 7, 7],
    ];
    const together = await model.sample(prompts, {
      maxNewTokens: 8,
      temperature: 0.9,
      topP: 0.95,
      seeds: [10, 20, 30],
    });
    const alone = await model.sample([prompts[1]!], { maxNewTokens: 8, temperature: 0.9, topP: 0.95, seeds: [20] });
    expect(alone[0]).toEqual(together[1]);
    const other = await model.sample([prompts[1]!], { maxNewTokens: 8, temperature: 0.9, topP: 0.95, seeds: [21] });
    expect(other[0]!.tokens).not.toEqual(alone[0]!.tokens);
    model.dispose();
  });

  it("returns sampled log-probs equal to scoring the sequence afterwards", async () => {
    const model = await createModel({ config: small, seed: 4 });
    const prompt = encodeText("abc");
    const [out] = await model.sample([prompt], { maxNewTokens: 10, temperature: 1, stopTokens: [], seeds: [5] });
    expect(out!.tokens).toHaveLength(10);
    expect(out!.finish).toBe("length");
    const [scored] = await model.logprobs([[...prompt, ...out!.tokens]]);
    expect(maxAbsDiff(scored!.subarray(prompt.length - 1), out!.logprobs)).toBeLessThan(1e-4);
    model.dispose();
  });

  it("stops at stop tokens, at the context end, and is greedy at temperature 0", async () => {
    const model = await createModel({ config: small, seed: 5 });
    const greedy = await model.sample([[1, 2]], { maxNewTokens: 5, temperature: 0, stopTokens: [], seeds: [1] });
    const again = await model.sample([[1, 2]], { maxNewTokens: 5, temperature: 0, stopTokens: [], seeds: [2] });
    // The same reply whatever the seed (only the unused random streams differ).
    expect(again.map(({ rngState: _, ...rest }) => rest)).toEqual(greedy.map(({ rngState: _, ...rest }) => rest));
    const first = greedy[0]!.tokens[0]!;
    const stopped = await model.sample([[1, 2]], { maxNewTokens: 5, temperature: 0, stopTokens: [first], seeds: [1] });
    expect(stopped[0]!.tokens).toEqual([first]);
    expect(stopped[0]!.finish).toBe("stop");
    const long = await model.sample([Array.from({ length: 45 }, () => 3)], {
      maxNewTokens: 10,
      stopTokens: [],
      seeds: [1],
    });
    expect(long[0]!.tokens).toHaveLength(3);
    expect(long[0]!.finish).toBe("context");
    model.dispose();
  });

  it("accumulates gradients across calls (two halves = the whole batch)", async () => {
    const batch = randomBatch(small, 4, 10, 6);
    const model = await createModel({ config: small, seed: 7 });
    await model.lossAndGradient(batch);
    const whole = Float32Array.from(model.gradients());
    model.zeroGradients();
    for (const half of [0, 1]) {
      const part = {
        tokens: batch.tokens.subarray(half * 20, half * 20 + 20),
        targets: batch.targets.subarray(half * 20, half * 20 + 20),
        batchSize: 2,
        seqLen: 10,
      };
      await model.forward(part);
      await model.backward(new Float32Array(20).fill(1), { normaliser: 40 });
    }
    expect(maxAbsDiff(model.gradients(), whole)).toBeLessThan(1e-6);
    model.dispose();
  });

  it("scores sequences like forward does, and clones are independent copies", async () => {
    const model = await createModel({ config: small, seed: 8 });
    const seq = Array.from(encodeText("hello there"));
    const [lp] = await model.logprobs([seq]);
    const out = await model.forward({
      tokens: Int32Array.from(seq.slice(0, -1)),
      targets: Int32Array.from(seq.slice(1)),
      batchSize: 1,
      seqLen: seq.length - 1,
    });
    expect(maxAbsDiff(lp!, out.logprobs)).toBeLessThan(1e-6);
    const copy = await model.clone();
    expect(Array.from((await copy.logprobs([seq]))[0]!)).toEqual(Array.from(lp!));
    await model.lossAndGradient(randomBatch(small, 2, 8, 9));
    model.step({ learningRate: 0.01 });
    expect(Array.from((await copy.logprobs([seq]))[0]!)).toEqual(Array.from(lp!));
    expect(Array.from((await model.logprobs([seq]))[0]!)).not.toEqual(Array.from(lp!));
    copy.dispose();
    model.dispose();
  });

  it("scores only the wanted tokens, bit for bit as scoring every token, and refuses spans outside the sequence", async () => {
    const model = await createModel({ config: small, seed: 10 });
    const seqs = [
      Array.from(encodeText("the quick brown fox")),
      Array.from(encodeText("jumps")),
      Array.from(encodeText("over the lazy dog")),
    ];
    const all = await model.logprobs(seqs);
    const wanted = [
      [
        { start: 1, end: 3 },
        { start: 9, end: 12 },
      ],
      [],
      [{ start: 16, end: 17 }],
    ];
    const some = await model.logprobs(seqs, wanted);
    some.forEach((values, i) => {
      expect(values.length).toBe(all[i]!.length);
      values.forEach((value, t) => {
        const inSpan = wanted[i]!.some(({ start, end }) => t + 1 >= start && t + 1 < end);
        expect(value).toBe(inSpan ? all[i]![t] : 0);
      });
    });
    await expect(model.logprobs(seqs, [[{ start: 0, end: 2 }], [], []])).rejects.toThrow(
      /wanted\[0\] has span \[0, 2\)/,
    );
    await expect(model.logprobs(seqs, [[]])).rejects.toThrow(/one list of spans per sequence/);
    model.dispose();
  });

  it("handles a single sequence, empty rows and no prompts", async () => {
    const model = await createModel({ config: small, seed: 13 });
    const one = randomBatch(small, 1, 6, 14);
    const alone = await model.forward(one);
    const padded = await model.forward({
      tokens: new Int32Array([...one.tokens, 0, 0, 0, 0, 0, 0]),
      targets: new Int32Array([...one.targets, 1, 1, 1, 1, 1, 1]),
      batchSize: 2,
      seqLen: 6,
      lengths: [6, 0],
    });
    expect(Array.from(padded.logprobs.subarray(0, 6))).toEqual(Array.from(alone.logprobs));
    expect(Array.from(padded.logprobs.subarray(6))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(padded.loss).toBeCloseTo(alone.loss, 6);
    expect(await model.sample([], { maxNewTokens: 3, seeds: [] })).toEqual([]);
    model.dispose();
  });

  it("refuses bad input with clear errors", async () => {
    const model = await createModel({ config: tinyConfig, seed: 1 });
    await expect(model.backward(new Float32Array(4))).rejects.toThrow(/needs a forward/);
    await expect(
      model.forward({ tokens: new Int32Array([1, 99]), targets: new Int32Array([1, 1]), batchSize: 1, seqLen: 2 }),
    ).rejects.toThrow(BudgetrlError);
    await expect(model.logprobs([Array.from({ length: 13 }, () => 1)])).rejects.toThrow(/contextLength/);
    await model.forward(randomBatch(tinyConfig, 2, 3, 1));
    await expect(model.backward(new Float32Array(5))).rejects.toThrow(/coefficients must hold batchSize \* seqLen = 6/);
    await expect(model.forward({ ...randomBatch(tinyConfig, 2, 3, 1), lengths: [3, 4] })).rejects.toThrow(
      /lengths\[1\] = 4/,
    );
    await expect(model.sample([[]], { maxNewTokens: 2, seeds: [1] })).rejects.toThrow(/prompt 0/);
    await expect(model.sample([[1]], { maxNewTokens: 2, seeds: [] })).rejects.toThrow(/one seed per prompt/);
    await expect(createModel({ config: { dModel: 10, heads: 4 } })).rejects.toThrow(/heads/);
    model.dispose();
    await expect(model.logprobs([[1, 2]])).rejects.toThrow(/disposed/);
  });

  it("overfits a small text set to loss < 0.05 within 150 steps (seeded)", async () => {
    const texts = ["the cat sat on the mat", "a dog ran in the fog", "budgets of turns", "sokoban: push the box"];
    const T = 24;
    const tokens = new Int32Array(texts.length * T);
    const targets = new Int32Array(texts.length * T).fill(-1);
    texts.forEach((text, b) => {
      const seq = [...encodeText(text), END];
      for (let t = 0; t < seq.length - 1; t++) {
        tokens[b * T + t] = seq[t]!;
        targets[b * T + t] = seq[t + 1]!;
      }
    });
    const model = await createModel({ config: small, seed: 9, optimizer: { weightDecay: 0 } });
    const schedule = warmupCosine({ peak: 1e-2, warmupSteps: 10, totalSteps: 150, minRatio: 0.1 });
    let loss = Infinity;
    let steps = 0;
    for (; steps < 150 && loss >= 0.05; steps++) {
      loss = (await model.lossAndGradient({ tokens, targets, batchSize: texts.length, seqLen: T })).loss;
      model.step({ learningRate: schedule(steps) });
    }
    expect(loss).toBeLessThan(0.05);
    const [greedy] = await model.sample([[...encodeText("a dog")]], { maxNewTokens: 30, temperature: 0, seeds: [0] });
    expect(greedy!.tokens).toEqual([...encodeText(" ran in the fog"), END]);
    model.dispose();
  });
});
