// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`): from logits to per-token log-probs
// and entropy, and the gradient of the per-token weighted loss; the formulas are in src/nn/loss.ts, whose
// float64 TypeScript functions are the reference twins. Pointers are byte offsets; targets are i32 (-1: none).
import { exp4, hsum } from "./layers";

@inline export function rowMax(row: usize, vocab: i32): f32 {
  const v4 = vocab & ~3;
  let mv = f32x4.splat(-Infinity);
  for (let i = 0; i < v4; i += 4) mv = f32x4.pmax(mv, v128.load(row + (<usize>i << 2)));
  let max = Mathf.max(Mathf.max(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)), Mathf.max(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)));
  for (let i = v4; i < vocab; i++) max = Mathf.max(max, load<f32>(row + (<usize>i << 2)));
  return max;
}

/** Scalar exp with the same arithmetic as exp4 (tails). */
@inline function exp1(x: f32): f32 {
  return f32x4.extract_lane(exp4(f32x4.splat(x)), 0);
}

export function tokenLogprobs(logits: usize, targets: usize, rows: i32, vocab: i32, logprobs: usize, entropy: usize): void {
  const v4 = vocab & ~3;
  for (let r = 0; r < rows; r++) {
    const row = logits + ((<usize>r * vocab) << 2);
    const max = rowMax(row, vocab);
    const mv = f32x4.splat(max);
    let sv = f32x4.splat(0);
    let wv = f32x4.splat(0);
    for (let i = 0; i < v4; i += 4) {
      const z = f32x4.sub(v128.load(row + (<usize>i << 2)), mv);
      const e = exp4(z);
      sv = f32x4.add(sv, e);
      wv = f32x4.add(wv, f32x4.mul(e, z));
    }
    let sum = hsum(sv);
    let weighted = hsum(wv);
    for (let i = v4; i < vocab; i++) {
      const z = load<f32>(row + (<usize>i << 2)) - max;
      const e = exp1(z);
      sum += e;
      weighted += e * z;
    }
    const lse = Mathf.log(sum);
    store<f32>(entropy + (<usize>r << 2), lse - weighted / sum);
    const y = load<i32>(targets + (<usize>r << 2));
    store<f32>(logprobs + (<usize>r << 2), y >= 0 ? load<f32>(row + (<usize>y << 2)) - max - lse : 0);
  }
}

/** Overwrites logits with dloss/dlogits; entropyCoefficients may be 0 (no entropy term). */
export function logitsGradient(logits: usize, targets: usize, rows: i32, vocab: i32, coefficients: usize, entropyCoefficients: usize, normaliser: f32): void {
  const v4 = vocab & ~3;
  for (let r = 0; r < rows; r++) {
    const row = logits + ((<usize>r * vocab) << 2);
    const c = load<f32>(coefficients + (<usize>r << 2)) / normaliser;
    const e: f32 = entropyCoefficients == 0 ? 0 : load<f32>(entropyCoefficients + (<usize>r << 2)) / normaliser;
    if (c == 0 && e == 0) {
      memory.fill(row, 0, <usize>vocab << 2);
      continue;
    }
    const max = rowMax(row, vocab);
    const mv = f32x4.splat(max);
    let sv = f32x4.splat(0);
    for (let i = 0; i < v4; i += 4) sv = f32x4.add(sv, exp4(f32x4.sub(v128.load(row + (<usize>i << 2)), mv)));
    let sum = hsum(sv);
    for (let i = v4; i < vocab; i++) sum += exp1(load<f32>(row + (<usize>i << 2)) - max);
    const shift = f32x4.splat(max + Mathf.log(sum));
    let h: f32 = 0;
    if (e != 0) {
      let hv = f32x4.splat(0);
      for (let i = 0; i < v4; i += 4) {
        const lp = f32x4.sub(v128.load(row + (<usize>i << 2)), shift);
        hv = f32x4.sub(hv, f32x4.mul(exp4(lp), lp));
      }
      h = hsum(hv);
      for (let i = v4; i < vocab; i++) {
        const lp = load<f32>(row + (<usize>i << 2)) - f32x4.extract_lane(shift, 0);
        h -= exp1(lp) * lp;
      }
    }
    const cv = f32x4.splat(c);
    const ev = f32x4.splat(e);
    const hv = f32x4.splat(h);
    for (let i = 0; i < v4; i += 4) {
      const o = <usize>i << 2;
      const lp = f32x4.sub(v128.load(row + o), shift);
      const p = exp4(lp);
      v128.store(row + o, f32x4.add(f32x4.mul(cv, p), f32x4.mul(f32x4.mul(ev, p), f32x4.add(lp, hv))));
    }
    for (let i = v4; i < vocab; i++) {
      const o = <usize>i << 2;
      const lp = load<f32>(row + o) - f32x4.extract_lane(shift, 0);
      const p = exp1(lp);
      store<f32>(row + o, c * p + e * p * (lp + h));
    }
    const y = load<i32>(targets + (<usize>r << 2));
    if (y >= 0) store<f32>(row + (<usize>y << 2), load<f32>(row + (<usize>y << 2)) - c);
  }
}
