// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`): the KV cache and decoding attention
// (whole sequences go through matmul and causalSoftmax instead). Pointers are byte offsets, strides and
// sizes count floats, headDim = dModel / heads is a multiple of 4. The plain-TypeScript twins are in
// src/nn/kernels/reference.ts.
//
// Cache layout, per layer, per slot (one sequence), per head h:
//   keys   (headDim, contextLength): transposed, key of position j in column j, so that the scores of a query
//          against keys j..j+3 are one SIMD lane each (no horizontal sums) and a prefill can use the block
//          as the right-hand side of q . k^T directly;
//   values (contextLength, headDim): value of position j in row j.
// A slot holds dModel * contextLength floats of each; head h's block starts at h * headDim * contextLength.

import { madd } from "./matmul";
import { softmaxRow } from "./layers";

/**
 * Writes key and value of `rows` qkv rows (stride 3C, q then k then v) at positions firstPos.. of one slot.
 * Keys are written dimension by dimension (each a contiguous run of positions), values row by row.
 */
export function storeKeysValues(keys: usize, values: usize, qkv: usize, rows: i32, firstPos: i32, contextLength: i32, dModel: i32, heads: i32): void {
  const hd = dModel / heads;
  const block = <usize>hd * contextLength;
  const rowBytes = (<usize>dModel * 3) << 2;
  for (let h = 0; h < heads; h++) {
    const k = qkv + ((<usize>dModel + h * hd) << 2);
    for (let d = 0; d < hd; d++) {
      let src = k + (<usize>d << 2);
      let dst = keys + ((<usize>h * block + <usize>d * contextLength + firstPos) << 2);
      for (let i = 0; i < rows; i++) {
        store<f32>(dst, load<f32>(src));
        src += rowBytes;
        dst += 4;
      }
    }
    let src = qkv + ((<usize>2 * dModel + h * hd) << 2);
    let dst = values + ((<usize>h * block + <usize>firstPos * hd) << 2);
    for (let i = 0; i < rows; i++) {
      for (let d = 0; d < hd; d += 4) v128.store(dst + (<usize>d << 2), v128.load(src + (<usize>d << 2)));
      src += rowBytes;
      dst += <usize>hd << 2;
    }
  }
}

/**
 * out[j] = scale * sum_d q[d] kT[d][j] for j < n (d ascending, one madd per step, in every path so that a
 * score does not depend on which block it falls in); kT rows are ldk bytes apart. Returns the maximum.
 */
@inline function scores(q: usize, kT: usize, ldk: usize, n: i32, hd: i32, scale: f32, out: usize): f32 {
  const sv = f32x4.splat(scale);
  let mv = f32x4.splat(-Infinity);
  let j = 0;
  // 32 keys at a time: eight independent accumulator chains keep both FMA ports busy.
  for (; j + 32 <= n; j += 32) {
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    let a4 = f32x4.splat(0), a5 = f32x4.splat(0), a6 = f32x4.splat(0), a7 = f32x4.splat(0);
    let p = kT + (<usize>j << 2);
    for (let d = 0; d < hd; d++) {
      const x = v128.load32_splat(q + (<usize>d << 2));
      a0 = madd(x, v128.load(p), a0);
      a1 = madd(x, v128.load(p, 16), a1);
      a2 = madd(x, v128.load(p, 32), a2);
      a3 = madd(x, v128.load(p, 48), a3);
      a4 = madd(x, v128.load(p, 64), a4);
      a5 = madd(x, v128.load(p, 80), a5);
      a6 = madd(x, v128.load(p, 96), a6);
      a7 = madd(x, v128.load(p, 112), a7);
      p += ldk;
    }
    const o = out + (<usize>j << 2);
    a0 = f32x4.mul(a0, sv);
    a1 = f32x4.mul(a1, sv);
    a2 = f32x4.mul(a2, sv);
    a3 = f32x4.mul(a3, sv);
    a4 = f32x4.mul(a4, sv);
    a5 = f32x4.mul(a5, sv);
    a6 = f32x4.mul(a6, sv);
    a7 = f32x4.mul(a7, sv);
    v128.store(o, a0);
    v128.store(o, a1, 16);
    v128.store(o, a2, 32);
    v128.store(o, a3, 48);
    v128.store(o, a4, 64);
    v128.store(o, a5, 80);
    v128.store(o, a6, 96);
    v128.store(o, a7, 112);
    mv = f32x4.pmax(mv, f32x4.pmax(f32x4.pmax(f32x4.pmax(a0, a1), f32x4.pmax(a2, a3)), f32x4.pmax(f32x4.pmax(a4, a5), f32x4.pmax(a6, a7))));
  }
  for (; j + 16 <= n; j += 16) {
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    let p = kT + (<usize>j << 2);
    for (let d = 0; d < hd; d++) {
      const x = v128.load32_splat(q + (<usize>d << 2));
      a0 = madd(x, v128.load(p), a0);
      a1 = madd(x, v128.load(p, 16), a1);
      a2 = madd(x, v128.load(p, 32), a2);
      a3 = madd(x, v128.load(p, 48), a3);
      p += ldk;
    }
    a0 = f32x4.mul(a0, sv);
    a1 = f32x4.mul(a1, sv);
    a2 = f32x4.mul(a2, sv);
    a3 = f32x4.mul(a3, sv);
    const o = out + (<usize>j << 2);
    v128.store(o, a0);
    v128.store(o, a1, 16);
    v128.store(o, a2, 32);
    v128.store(o, a3, 48);
    mv = f32x4.pmax(mv, f32x4.pmax(f32x4.pmax(a0, a1), f32x4.pmax(a2, a3)));
  }
  for (; j + 4 <= n; j += 4) {
    let a0 = f32x4.splat(0);
    let p = kT + (<usize>j << 2);
    for (let d = 0; d < hd; d++) {
      a0 = madd(v128.load32_splat(q + (<usize>d << 2)), v128.load(p), a0);
      p += ldk;
    }
    a0 = f32x4.mul(a0, sv);
    v128.store(out + (<usize>j << 2), a0);
    mv = f32x4.pmax(mv, a0);
  }
  let max = Mathf.max(Mathf.max(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)), Mathf.max(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)));
  for (; j < n; j++) {
    let a0 = f32x4.splat(0);
    let p = kT + (<usize>j << 2);
    for (let d = 0; d < hd; d++) {
      a0 = madd(v128.load32_splat(q + (<usize>d << 2)), v128.load32_splat(p), a0);
      p += ldk;
    }
    const s = f32x4.extract_lane(f32x4.mul(a0, sv), 0);
    store<f32>(out + (<usize>j << 2), s);
    max = Mathf.max(max, s);
  }
  return max;
}

/** out[d] = sum_j w[j] * rows[j][d] for j in [0, count) (j ascending), rows contiguous with hd floats each. */
@inline function weightedSum(out: usize, w: usize, rows: usize, count: i32, hd: i32): void {
  const stride = <usize>hd << 2;
  let d = 0;
  for (; d + 32 <= hd; d += 32) {
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    let a4 = f32x4.splat(0), a5 = f32x4.splat(0), a6 = f32x4.splat(0), a7 = f32x4.splat(0);
    let p = rows + (<usize>d << 2);
    for (let j = 0; j < count; j++) {
      const s = v128.load32_splat(w + (<usize>j << 2));
      a0 = madd(s, v128.load(p), a0);
      a1 = madd(s, v128.load(p, 16), a1);
      a2 = madd(s, v128.load(p, 32), a2);
      a3 = madd(s, v128.load(p, 48), a3);
      a4 = madd(s, v128.load(p, 64), a4);
      a5 = madd(s, v128.load(p, 80), a5);
      a6 = madd(s, v128.load(p, 96), a6);
      a7 = madd(s, v128.load(p, 112), a7);
      p += stride;
    }
    const o = out + (<usize>d << 2);
    v128.store(o, a0);
    v128.store(o, a1, 16);
    v128.store(o, a2, 32);
    v128.store(o, a3, 48);
    v128.store(o, a4, 64);
    v128.store(o, a5, 80);
    v128.store(o, a6, 96);
    v128.store(o, a7, 112);
  }
  for (; d < hd; d += 4) {
    let a0 = f32x4.splat(0);
    let p = rows + (<usize>d << 2);
    for (let j = 0; j < count; j++) {
      a0 = madd(v128.load32_splat(w + (<usize>j << 2)), v128.load(p), a0);
      p += stride;
    }
    v128.store(out + (<usize>d << 2), a0);
  }
}

/**
 * Decoding: row r of qkv (stride 3C) is the newest token of cache slot slots[r], at position positions[r].
 * Stores its key and value in the cache, then attends over positions 0..positions[r] head by head:
 * att row r (stride C) = softmax(scale * q . K^T) . V. scratch holds one row of scores (contextLength).
 */
export function cachedAttention(att: usize, qkv: usize, rows: i32, positions: usize, slots: usize, keys: usize, values: usize,
  contextLength: i32, dModel: i32, heads: i32, scale: f32, scratch: usize): void {
  const hd = dModel / heads;
  const block = <usize>hd * contextLength;
  const ldk = <usize>contextLength << 2;
  for (let r = 0; r < rows; r++) {
    const pos = load<i32>(positions + (<usize>r << 2));
    const slot = <usize>load<i32>(slots + (<usize>r << 2)) * dModel * contextLength;
    const row = qkv + ((<usize>r * 3 * dModel) << 2);
    storeKeysValues(keys + (slot << 2), values + (slot << 2), row, 1, pos, contextLength, dModel, heads);
    for (let h = 0; h < heads; h++) {
      const base = slot + <usize>h * block;
      const max = scores(row + ((<usize>h * hd) << 2), keys + (base << 2), ldk, pos + 1, hd, scale, scratch);
      softmaxRow(scratch, pos + 1, max);
      weightedSum(att + ((<usize>r * dModel + h * hd) << 2), scratch, values + (base << 2), pos + 1, hd);
    }
  }
}
