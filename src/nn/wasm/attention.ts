// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`): the KV cache and decoding attention
// (whole sequences go through matmul and causalSoftmax instead). Pointers are byte offsets, strides and
// sizes count floats, headDim = dModel / heads is a multiple of 4. The plain-TypeScript twins are in
// src/nn/kernels/reference.ts.
//
// Cache layout: every sequence has its own block (src/nn/kv-cache.ts) holding, per layer, its keys then its
// values (dModel * P floats each, P = contextLength rounded up to a multiple of 8 positions); per head h:
//   keys   K^T (headDim, P) in panels of 8 positions: panel q is a contiguous (headDim, 8) block holding
//          positions 8q..8q+7, so the scores of a query against 8 keys are two SIMD vectors (no horizontal
//          sums), a decoding step streams the keys sequentially, and a prefill uses the block as the
//          panel-packed right-hand side of q . k^T (gemmPanels, panel stride 8 headDim);
//   values (P, headDim): value of position j in row j.
// Head h's keys and values start at h * headDim * P within the layer's keys and values.

import { madd, matmul } from "./matmul";
import { causalSoftmaxFrom, softmaxRow } from "./layers";

/** Query rows per block of the whole-sequence attention: the causal mask skips keys past a block's last row. */
const ROW_BLOCK: i32 = 16;

/**
 * Causal attention of one head for n query rows at positions past..past+n-1 over keys 0..past+n-1 (training
 * and scoring: past = 0; a prefill that extends a cached sequence: past = the cached length), in blocks of
 * ROW_BLOCK query rows: probs rows = causalSoftmax(scale * q . k^T) (row i keeps keys 0..past+i, zeros after,
 * row stride past + n), out rows = probs . v. With keepProbs the full (n, past + n) matrix is written (the
 * backward pass reads it); without, every block reuses the first ROW_BLOCK rows of `probs`. k^T element
 * (d, j) is at kT[(j / 8) * kPanel + d * ldk + j % 8] (row-major: kPanel = 8; cache panels: ldk = 8,
 * kPanel = 8 hd).
 */
export function causalAttention(out: usize, outStride: i32, q: usize, qStride: i32, kT: usize, ldk: i32, kPanel: i32, v: usize, ldv: i32,
  probs: usize, n: i32, hd: i32, scale: f32, past: i32, keepProbs: bool): void {
  const ld = past + n;
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = min(ROW_BLOCK, n - i0);
    const cols = past + i0 + rows;
    const p = keepProbs ? probs + ((<usize>i0 * ld) << 2) : probs;
    matmul(p, q + ((<usize>i0 * qStride) << 2), kT, rows, cols, hd, qStride, 1, ldk, ld, 0, kPanel);
    causalSoftmaxFrom(p, ld, past + i0, rows, ld, scale);
    matmul(out + ((<usize>i0 * outStride) << 2), p, v, rows, hd, cols, ld, 1, ldv, outStride, 0, 8);
  }
}

@inline function cachePositions(contextLength: i32): i32 {
  return (contextLength + 7) & ~7;
}

/** Writes key and value of `rows` qkv rows (stride 3C, q then k then v) at positions firstPos.. of one slot. */
export function storeKeysValues(keys: usize, values: usize, qkv: usize, rows: i32, firstPos: i32, contextLength: i32, dModel: i32, heads: i32): void {
  const hd = dModel / heads;
  const block = <usize>hd * cachePositions(contextLength);
  const rowBytes = (<usize>dModel * 3) << 2;
  for (let h = 0; h < heads; h++) {
    let k = qkv + ((<usize>dModel + h * hd) << 2);
    let v = k + (<usize>dModel << 2);
    const kh = keys + ((<usize>h * block) << 2);
    const vh = values + ((<usize>h * block) << 2);
    for (let i = 0; i < rows; i++) {
      const pos = firstPos + i;
      let dst = kh + ((<usize>(pos >> 3) * hd * 8 + (pos & 7)) << 2);
      for (let d = 0; d < hd; d++) {
        store<f32>(dst, load<f32>(k + (<usize>d << 2)));
        dst += 32;
      }
      const vr = vh + ((<usize>pos * hd) << 2);
      for (let d = 0; d < hd; d += 4) v128.store(vr + (<usize>d << 2), v128.load(v + (<usize>d << 2)));
      k += rowBytes;
      v += rowBytes;
    }
  }
}

/**
 * out[j] = scale * sum_d q[d] K^T[d][j] for the panels covering j < n (whole panels: lanes past n hold
 * whatever the cache holds there and are never read); d ascending, one madd per step in every path, so a
 * score does not depend on which group its panel falls in. Returns the maximum over j < n.
 */
@inline function scores(q: usize, kT: usize, n: i32, hd: i32, scale: f32, out: usize): f32 {
  const sv = f32x4.splat(scale);
  const panelBytes = <usize>hd << 5;
  const panels = (n + 7) >> 3;
  let pi = 0;
  // Three panels (24 keys) at a time: six independent accumulator chains that fit the registers.
  for (; pi + 3 <= panels; pi += 3) {
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0), a4 = f32x4.splat(0), a5 = f32x4.splat(0);
    let p = kT + <usize>pi * panelBytes;
    for (let d = 0; d < hd; d++) {
      const x = v128.load32_splat(q + (<usize>d << 2));
      a0 = madd(x, v128.load(p), a0);
      a1 = madd(x, v128.load(p, 16), a1);
      a2 = madd(x, v128.load(p + panelBytes), a2);
      a3 = madd(x, v128.load(p + panelBytes, 16), a3);
      a4 = madd(x, v128.load(p + 2 * panelBytes), a4);
      a5 = madd(x, v128.load(p + 2 * panelBytes, 16), a5);
      p += 32;
    }
    const o = out + (<usize>pi << 5);
    v128.store(o, f32x4.mul(a0, sv));
    v128.store(o, f32x4.mul(a1, sv), 16);
    v128.store(o, f32x4.mul(a2, sv), 32);
    v128.store(o, f32x4.mul(a3, sv), 48);
    v128.store(o, f32x4.mul(a4, sv), 64);
    v128.store(o, f32x4.mul(a5, sv), 80);
  }
  for (; pi < panels; pi++) {
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0);
    let p = kT + <usize>pi * panelBytes;
    for (let d = 0; d < hd; d++) {
      const x = v128.load32_splat(q + (<usize>d << 2));
      a0 = madd(x, v128.load(p), a0);
      a1 = madd(x, v128.load(p, 16), a1);
      p += 32;
    }
    const o = out + (<usize>pi << 5);
    v128.store(o, f32x4.mul(a0, sv));
    v128.store(o, f32x4.mul(a1, sv), 16);
  }
  const n4 = n & ~3;
  let mv = f32x4.splat(-Infinity);
  for (let j = 0; j < n4; j += 4) mv = f32x4.pmax(mv, v128.load(out + (<usize>j << 2)));
  let max = Mathf.max(Mathf.max(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)), Mathf.max(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)));
  for (let j = n4; j < n; j++) max = Mathf.max(max, load<f32>(out + (<usize>j << 2)));
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
 * Decoding: row r of qkv (stride 3C) is the newest token of the sequence whose KV-cache block starts at float
 * slots[r] of `cache`, at position positions[r]. This layer's keys start layerOffset floats into the block and
 * its values C * P floats after them. Stores the row's key and value there, then attends over positions
 * 0..positions[r] head by head: att row r (stride C) = softmax(scale * q . K^T) . V. scratch holds one row of
 * scores (P floats).
 */
export function cachedAttention(att: usize, qkv: usize, rows: i32, positions: usize, slots: usize, cache: usize, layerOffset: i32,
  contextLength: i32, dModel: i32, heads: i32, scale: f32, scratch: usize): void {
  const hd = dModel / heads;
  const block = <usize>hd * cachePositions(contextLength);
  const valuesBytes = (<usize>dModel * cachePositions(contextLength)) << 2;
  for (let r = 0; r < rows; r++) {
    const pos = load<i32>(positions + (<usize>r << 2));
    const keys = cache + ((<usize>load<u32>(slots + (<usize>r << 2)) + <usize>layerOffset) << 2);
    const values = keys + valuesBytes;
    const row = qkv + ((<usize>r * 3 * dModel) << 2);
    storeKeysValues(keys, values, row, 1, pos, contextLength, dModel, heads);
    for (let h = 0; h < heads; h++) {
      const head = (<usize>h * block) << 2;
      const max = scores(row + ((<usize>h * hd) << 2), keys + head, pos + 1, hd, scale, scratch);
      softmaxRow(scratch, pos + 1, max);
      weightedSum(att + ((<usize>r * dModel + h * hd) << 2), scratch, values + head, pos + 1, hd);
    }
  }
}
