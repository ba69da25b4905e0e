// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`): what drawing a token needs from each
// row of logits, so that the per-token JavaScript (src/nn/sampler.ts) does no exp: the model's log-sum-exp
// (temperature 1) and the unnormalised sampling weights exp((logit - max) / temperature) with their sum.
// Pointers are byte offsets; the float64 TypeScript twin is prepareRow in src/nn/sampler.ts.
import { exp4, hsum } from "./layers";
import { rowMax } from "./loss";

/** weights (rows, vocab) = exp((logits - rowmax) / temperature); stats (rows, 2) = [log-sum-exp of the logits, sum of weights]. */
export function samplingWeights(weights: usize, stats: usize, logits: usize, rows: i32, vocab: i32, temperature: f32): void {
  const v4 = vocab & ~3;
  const inv = f32x4.splat(1 / temperature);
  for (let r = 0; r < rows; r++) {
    const row = logits + ((<usize>r * vocab) << 2);
    const out = weights + ((<usize>r * vocab) << 2);
    const max = rowMax(row, vocab);
    const mv = f32x4.splat(max);
    let mside = f32x4.splat(0);
    let wside = f32x4.splat(0);
    for (let i = 0; i < v4; i += 4) {
      const z = f32x4.sub(v128.load(row + (<usize>i << 2)), mv);
      const e = exp4(z);
      const w = temperature == 1 ? e : exp4(f32x4.mul(z, inv));
      v128.store(out + (<usize>i << 2), w);
      mside = f32x4.add(mside, e);
      wside = f32x4.add(wside, w);
    }
    let modelSum = hsum(mside);
    let sum = hsum(wside);
    for (let i = v4; i < vocab; i++) {
      const z = f32x4.splat(load<f32>(row + (<usize>i << 2)) - max);
      const e = f32x4.extract_lane(exp4(z), 0);
      const w = temperature == 1 ? e : f32x4.extract_lane(exp4(f32x4.mul(z, inv)), 0);
      store<f32>(out + (<usize>i << 2), w);
      modelSum += e;
      sum += w;
    }
    store<f32>(stats + (<usize>r << 3), max + Mathf.log(modelSum));
    store<f32>(stats + (<usize>r << 3), sum, 4);
  }
}
