// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`): causal attention of one head for a
// few query rows, used for decoding against the KV cache (whole sequences go through matmul and
// causalSoftmax instead). Pointers are byte offsets, strides and sizes count floats, headDim is a multiple
// of 4. Query row i sits at position firstPos + i and attends key and value rows 0..firstPos + i (stride
// kvStride). The plain-TypeScript twin is in src/nn/kernels/reference.ts.

import { hsum, softmaxRow } from "./layers";

@inline function dot(a: usize, b: usize, headDim: i32): f32 {
  let acc = f32x4.splat(0);
  for (let d = 0; d < headDim; d += 4) {
    const o = <usize>d << 2;
    acc = f32x4.add(acc, f32x4.mul(v128.load(a + o), v128.load(b + o)));
  }
  return f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 1) + (f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3));
}

/** out[d] = sum_j w[j] * rows[j][d] for j in [0, count), rows with stride `stride` floats (j ascending). */
@inline function weightedSum(out: usize, w: usize, rows: usize, stride: usize, count: i32, headDim: i32): void {
  let d = 0;
  for (; d + 16 <= headDim; d += 16) {
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    let p = rows + (<usize>d << 2);
    for (let j = 0; j < count; j++) {
      const s = v128.load32_splat(w + (<usize>j << 2));
      a0 = f32x4.add(a0, f32x4.mul(s, v128.load(p)));
      a1 = f32x4.add(a1, f32x4.mul(s, v128.load(p, 16)));
      a2 = f32x4.add(a2, f32x4.mul(s, v128.load(p, 32)));
      a3 = f32x4.add(a3, f32x4.mul(s, v128.load(p, 48)));
      p += stride << 2;
    }
    const o = out + (<usize>d << 2);
    v128.store(o, a0);
    v128.store(o, a1, 16);
    v128.store(o, a2, 32);
    v128.store(o, a3, 48);
  }
  for (; d < headDim; d += 4) {
    let a0 = f32x4.splat(0);
    let p = rows + (<usize>d << 2);
    for (let j = 0; j < count; j++) {
      a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(w + (<usize>j << 2)), v128.load(p)));
      p += stride << 2;
    }
    v128.store(out + (<usize>d << 2), a0);
  }
}

/** Scores of query q (32 floats, held in registers) against n keys with stride kvs bytes; returns the max. */
@inline function scores32(q: usize, k: usize, kvs: usize, n: i32, scale: f32, out: usize): f32 {
  const q0 = v128.load(q), q1 = v128.load(q, 16), q2 = v128.load(q, 32), q3 = v128.load(q, 48);
  const q4 = v128.load(q, 64), q5 = v128.load(q, 80), q6 = v128.load(q, 96), q7 = v128.load(q, 112);
  let max: f32 = -Infinity;
  let p = k;
  for (let j = 0; j < n; j++) {
    let a = f32x4.mul(q0, v128.load(p));
    let b = f32x4.mul(q1, v128.load(p, 16));
    a = f32x4.add(a, f32x4.mul(q2, v128.load(p, 32)));
    b = f32x4.add(b, f32x4.mul(q3, v128.load(p, 48)));
    a = f32x4.add(a, f32x4.mul(q4, v128.load(p, 64)));
    b = f32x4.add(b, f32x4.mul(q5, v128.load(p, 80)));
    a = f32x4.add(a, f32x4.mul(q6, v128.load(p, 96)));
    b = f32x4.add(b, f32x4.mul(q7, v128.load(p, 112)));
    const s = hsum(f32x4.add(a, b)) * scale;
    store<f32>(out + (<usize>j << 2), s);
    if (s > max) max = s;
    p += kvs;
  }
  return max;
}

/** Forward: probs rows (softmax of scale * q.k) are written at probs + i * probsStride; out rows at outStride. */
export function attentionForward(out: usize, outStride: i32, q: usize, qStride: i32, k: usize, v: usize, kvStride: i32,
  probs: usize, probsStride: i32, firstPos: i32, rows: i32, headDim: i32, scale: f32): void {
  const kvs = <usize>kvStride;
  for (let i = 0; i < rows; i++) {
    const n = firstPos + i + 1;
    const qi = q + ((<usize>i * qStride) << 2);
    const pr = probs + ((<usize>i * probsStride) << 2);
    let max: f32 = -Infinity;
    if (headDim == 32) {
      max = scores32(qi, k, kvs << 2, n, scale, pr);
    } else {
      for (let j = 0; j < n; j++) {
        const s = dot(qi, k + ((<usize>j * kvs) << 2), headDim) * scale;
        store<f32>(pr + (<usize>j << 2), s);
        if (s > max) max = s;
      }
    }
    softmaxRow(pr, n, max);
    weightedSum(out + ((<usize>i * outStride) << 2), pr, v, kvs, n, headDim);
  }
}
