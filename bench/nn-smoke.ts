import { createModel } from "../src/nn/model.js";
const cfg = { vocabSize: 260, contextLength: 32, layers: 2, dModel: 16, heads: 2, hiddenSize: 24 };
const B = 3, T = 10;
const tokens = Int32Array.from({ length: B * T }, (_, i) => (i * 37) % 260);
const targets = Int32Array.from({ length: B * T }, (_, i) => (i * 53 + 1) % 260);
for (const backend of ["reference", "wasm"] as const) {
  const m = await createModel({ config: cfg, seed: 1, backend, threads: 2 });
  const r = await m.lossAndGradient({ tokens, targets, batchSize: B, seqLen: T });
  const g = m.gradients();
  let n = 0; for (const x of g) n += x * x;
  console.log(backend, r.loss, Math.sqrt(n), r.logprobs.slice(0, 3));
  const s = await m.sample([[1, 2, 3], [4, 5]], { maxNewTokens: 5, seeds: [1, 2] });
  console.log(JSON.stringify(s.map((x) => x.tokens)));
}
