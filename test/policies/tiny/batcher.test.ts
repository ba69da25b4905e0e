// The sampling batcher: rows asked for together share one model call when their settings agree, rows with other
// settings go in calls of their own, maxBatch bounds a call, and every row's answer is the one it gets alone.
import { describe, expect, it } from "vitest";
import { createModel, type TinyModel } from "../../../src/nn/model.js";
import { createSampleBatcher, type SampleRow } from "../../../src/policies/tiny/batcher.js";

const config = { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };

function counting(model: TinyModel): {
  model: TinyModel;
  calls: { rows: number; maxNewTokens: number; temperature: number | undefined }[];
} {
  const calls: { rows: number; maxNewTokens: number; temperature: number | undefined }[] = [];
  return {
    calls,
    model: {
      ...model,
      sample: (prompts, options) => (
        calls.push({ rows: prompts.length, maxNewTokens: options.maxNewTokens, temperature: options.temperature }),
        model.sample(prompts, options)
      ),
    },
  };
}

const row = (seed: number, maxNewTokens = 6, temperature = 1): SampleRow => ({
  prompt: [258, 100 + (seed % 50), 256, 259],
  seed,
  settings: { maxNewTokens, temperature, topP: 1 },
});

describe("sample batcher", () => {
  it("samples rows with equal settings in one call, others in calls of their own, each answer as if alone", async () => {
    const base = await createModel({ config, seed: 5 });
    const { model, calls } = counting(base);
    const batcher = createSampleBatcher(model, 64);
    const rows = [row(1), row(2, 3), row(3), row(4, 6, 0.5), row(5, 3)];
    const together = await Promise.all(rows.map((r) => batcher.sample([r])));
    // The oldest row's settings first (rows 1, 3), then the next oldest (rows 2, 5), then row 4.
    expect(calls).toEqual([
      { rows: 2, maxNewTokens: 6, temperature: 1 },
      { rows: 2, maxNewTokens: 3, temperature: 1 },
      { rows: 1, maxNewTokens: 6, temperature: 0.5 },
    ]);
    together.forEach(([g], i) => expect(g!.tokens.length).toBeLessThanOrEqual(rows[i]!.settings.maxNewTokens));
    const alone = [];
    for (const r of rows) alone.push(await batcher.sample([r]));
    expect(alone).toEqual(together);
    expect(batcher.waiting()).toBe(0);
    base.dispose();
  });

  it("bounds a call by maxBatch and counts the rows waiting, the calls and the rows sampled", async () => {
    const base = await createModel({ config, seed: 6 });
    const { model, calls } = counting(base);
    const batcher = createSampleBatcher(model, 2);
    const answers = batcher.sample([row(1), row(2), row(3), row(4), row(5)]);
    expect(batcher.waiting()).toBe(5);
    const results = await answers;
    expect(results).toHaveLength(5);
    expect(calls.map((call) => call.rows)).toEqual([2, 2, 1]);
    expect(batcher.waiting()).toBe(0);
    expect(batcher.stats()).toEqual({ calls: 3, rows: 5 });
    base.dispose();
  });

  it("fails every row of a failed call and goes on with the next", async () => {
    const base = await createModel({ config, seed: 7 });
    const batcher = createSampleBatcher(base, 64);
    const bad: SampleRow = { prompt: [], seed: 1, settings: { maxNewTokens: 4, temperature: 1, topP: 1 } };
    await expect(batcher.sample([bad, row(2, 4)])).rejects.toThrow(/prompt 0 has 0 tokens/);
    await expect(batcher.sample([row(3)])).resolves.toHaveLength(1);
    base.dispose();
  });
});
