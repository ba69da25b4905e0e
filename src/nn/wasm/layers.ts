// AssemblyScript (compiled to WebAssembly by `npm run build:wasm`): the row-wise layers of the transformer,
// RMSNorm, rotary position embedding, SwiGLU and the causal softmax, forward and backward. Pointers are byte
// offsets; sizes count floats. The plain-TypeScript twins live in src/nn/kernels/reference.ts; the tests
// compare the two.

import { madd, transpose4x4 } from "./matmul";

/**
 * exp on 4 lanes (Cephes expf scheme): x = n ln2 + r with |r| <= ln2/2, exp(r) by a degree-6 polynomial,
 * 2^n through the exponent bits. About 1 ulp; inputs are clamped to [-87.3, 88.4] (no denormals, no inf).
 * Multiply-adds go through madd, so the FMA build fuses them (and rounds a little differently).
 */
@inline export function exp4(v: v128): v128 {
  let x = f32x4.pmin(f32x4.pmax(v, f32x4.splat(-87.33654)), f32x4.splat(88.37626));
  const fx = f32x4.floor(madd(x, f32x4.splat(1.44269504088896341), f32x4.splat(0.5)));
  x = madd(fx, f32x4.splat(-0.693359375), x);
  x = madd(fx, f32x4.splat(2.12194440e-4), x);
  const z = f32x4.mul(x, x);
  let y = madd(f32x4.splat(1.9875691500e-4), x, f32x4.splat(1.3981999507e-3));
  y = madd(y, x, f32x4.splat(8.3334519073e-3));
  y = madd(y, x, f32x4.splat(4.1665795894e-2));
  y = madd(y, x, f32x4.splat(1.6666665459e-1));
  y = madd(y, x, f32x4.splat(5.0000001201e-1));
  y = f32x4.add(madd(y, z, x), f32x4.splat(1));
  // 2^n from the bits of n + 127 + 2^23 (exact for the clamped n): its low mantissa bits hold n + 127.
  const pow2n = i32x4.shl(f32x4.add(fx, f32x4.splat(8388735.0)), 23);
  return f32x4.mul(y, pow2n);
}

/** The same exp for one value (tails), through lane 0, so every element gets identical arithmetic. */
@inline function exp1(x: f32): f32 {
  return f32x4.extract_lane(exp4(f32x4.splat(x)), 0);
}

@inline export function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

/** out(rows, dim) = x * rstd * weight; rstd(rows) = 1 / sqrt(mean(x^2) + eps). */
export function rmsnormForward(out: usize, rstd: usize, x: usize, weight: usize, rows: i32, dim: i32, eps: f32): void {
  const d4 = dim & ~3;
  for (let r = 0; r < rows; r++) {
    const xr = x + ((<usize>r * dim) << 2);
    const or = out + ((<usize>r * dim) << 2);
    let sv = f32x4.splat(0);
    for (let i = 0; i < d4; i += 4) {
      const v = v128.load(xr + (<usize>i << 2));
      sv = f32x4.add(sv, f32x4.mul(v, v));
    }
    let ss = hsum(sv);
    for (let i = d4; i < dim; i++) {
      const v = load<f32>(xr + (<usize>i << 2));
      ss += v * v;
    }
    const s: f32 = 1 / Mathf.sqrt(ss / <f32>dim + eps);
    store<f32>(rstd + (<usize>r << 2), s);
    const s4 = f32x4.splat(s);
    for (let i = 0; i < d4; i += 4) {
      const o = <usize>i << 2;
      v128.store(or + o, f32x4.mul(f32x4.mul(v128.load(xr + o), s4), v128.load(weight + o)));
    }
    for (let i = d4; i < dim; i++) {
      const o = <usize>i << 2;
      store<f32>(or + o, load<f32>(xr + o) * s * load<f32>(weight + o));
    }
  }
}

/** dx += d(rmsnorm)/dx . dout; dweight += sum over rows of dout * x * rstd. */
export function rmsnormBackward(dx: usize, dweight: usize, dout: usize, x: usize, weight: usize, rstd: usize, rows: i32, dim: i32): void {
  const d4 = dim & ~3;
  for (let r = 0; r < rows; r++) {
    const base = (<usize>r * dim) << 2;
    const s = load<f32>(rstd + (<usize>r << 2));
    const s4 = f32x4.splat(s);
    let dv = f32x4.splat(0);
    for (let i = 0; i < d4; i += 4) {
      const o = <usize>i << 2;
      const g = v128.load(dout + base + o);
      const v = v128.load(x + base + o);
      dv = f32x4.add(dv, f32x4.mul(f32x4.mul(g, v128.load(weight + o)), v));
      v128.store(dweight + o, f32x4.add(v128.load(dweight + o), f32x4.mul(f32x4.mul(g, v), s4)));
    }
    let dot = hsum(dv);
    for (let i = d4; i < dim; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(dout + base + o);
      const v = load<f32>(x + base + o);
      dot += g * load<f32>(weight + o) * v;
      store<f32>(dweight + o, load<f32>(dweight + o) + g * v * s);
    }
    const k: f32 = (dot * s * s * s) / <f32>dim;
    const k4 = f32x4.splat(k);
    for (let i = 0; i < d4; i += 4) {
      const o = <usize>i << 2;
      const g = f32x4.mul(v128.load(dout + base + o), v128.load(weight + o));
      v128.store(dx + base + o, f32x4.sub(f32x4.add(v128.load(dx + base + o), f32x4.mul(g, s4)), f32x4.mul(v128.load(x + base + o), k4)));
    }
    for (let i = d4; i < dim; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(dout + base + o) * load<f32>(weight + o);
      store<f32>(dx + base + o, load<f32>(dx + base + o) + g * s - load<f32>(x + base + o) * k);
    }
  }
}

/**
 * Rotary embedding in place, Hugging Face Llama layout (pairs i and i + headDim/2). Each row holds `vectors`
 * head vectors of `headDim` floats side by side from its start (q heads then k heads); row r sits at position
 * positions[r]; cos/sin are tables (position, headDim/2). `inverse` applies the transposed rotation (backward).
 */
export function rope(x: usize, rows: i32, rowStride: i32, vectors: i32, headDim: i32, cos: usize, sin: usize, positions: usize, inverse: i32): void {
  const half = headDim >> 1;
  const h4 = half & ~3;
  const sign: f32 = inverse != 0 ? -1 : 1;
  const sign4 = f32x4.splat(sign);
  const hb = <usize>half << 2;
  for (let r = 0; r < rows; r++) {
    const pos = load<i32>(positions + (<usize>r << 2));
    const tc = cos + ((<usize>pos * half) << 2);
    const ts = sin + ((<usize>pos * half) << 2);
    const row = x + ((<usize>r * rowStride) << 2);
    for (let h = 0; h < vectors; h++) {
      const v = row + ((<usize>h * headDim) << 2);
      for (let i = 0; i < h4; i += 4) {
        const o = <usize>i << 2;
        const c = v128.load(tc + o);
        const s = f32x4.mul(sign4, v128.load(ts + o));
        const a = v128.load(v + o);
        const b = v128.load(v + o + hb);
        v128.store(v + o, f32x4.sub(f32x4.mul(a, c), f32x4.mul(b, s)));
        v128.store(v + o + hb, f32x4.add(f32x4.mul(b, c), f32x4.mul(a, s)));
      }
      for (let i = h4; i < half; i++) {
        const o = <usize>i << 2;
        const c = load<f32>(tc + o);
        const s = sign * load<f32>(ts + o);
        const a = load<f32>(v + o);
        const b = load<f32>(v + o + hb);
        store<f32>(v + o, a * c - b * s);
        store<f32>(v + o + hb, b * c + a * s);
      }
    }
  }
}

/**
 * out(cols, rows) = x^T, x (rows, cols) with a row stride of `stride` floats: a head's keys or values out of
 * qkv for the attention matmuls. 4x4 blocks go through registers (two rounds of shuffles), tails one by one.
 */
export function transpose(out: usize, x: usize, rows: i32, cols: i32, stride: i32): void {
  const r4 = rows & ~3;
  const c4 = cols & ~3;
  const xs = <usize>stride << 2;
  const os = <usize>rows << 2;
  for (let r = 0; r < r4; r += 4) {
    const row = x + ((<usize>r * stride) << 2);
    for (let c = 0; c < c4; c += 4) {
      transpose4x4(out + ((<usize>c * rows + r) << 2), os, row + (<usize>c << 2), xs);
    }
    for (let c = c4; c < cols; c++) {
      for (let i = 0; i < 4; i++) store<f32>(out + ((<usize>c * rows + r + i) << 2), load<f32>(row + ((<usize>i * stride + c) << 2)));
    }
  }
  for (let r = r4; r < rows; r++) {
    for (let c = 0; c < cols; c++) store<f32>(out + ((<usize>c * rows + r) << 2), load<f32>(x + ((<usize>r * stride + c) << 2)));
  }
}

/** silu(g) * u and its parts on 4 lanes: s = sigmoid(g). */
@inline export function sigmoid4(g: v128): v128 {
  return f32x4.div(f32x4.splat(1), f32x4.add(f32x4.splat(1), exp4(f32x4.neg(g))));
}

/** h(rows, hidden) = silu(gate) * up, where gateUp(rows, 2 * hidden) holds gate then up in each row. */
export function swigluForward(h: usize, gateUp: usize, rows: i32, hidden: i32): void {
  const up = <usize>hidden << 2;
  for (let r = 0; r < rows; r++) {
    const gu = gateUp + ((<usize>r * 2 * hidden) << 2);
    const hr = h + ((<usize>r * hidden) << 2);
    let i = 0;
    for (; i + 4 <= hidden; i += 4) {
      const o = <usize>i << 2;
      const g = v128.load(gu + o);
      v128.store(hr + o, f32x4.mul(f32x4.mul(g, sigmoid4(g)), v128.load(gu + up + o)));
    }
    for (; i < hidden; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(gu + o);
      const s: f32 = 1 / (1 + exp1(-g));
      store<f32>(hr + o, g * s * load<f32>(gu + up + o));
    }
  }
}

/** dGateUp(rows, 2 * hidden) = d(silu(gate) * up) from dh(rows, hidden). */
export function swigluBackward(dGateUp: usize, dh: usize, gateUp: usize, rows: i32, hidden: i32): void {
  const up = <usize>hidden << 2;
  const one = f32x4.splat(1);
  for (let r = 0; r < rows; r++) {
    const off = (<usize>r * 2 * hidden) << 2;
    const hr = dh + ((<usize>r * hidden) << 2);
    let i = 0;
    for (; i + 4 <= hidden; i += 4) {
      const o = <usize>i << 2;
      const g = v128.load(gateUp + off + o);
      const u = v128.load(gateUp + off + up + o);
      const d = v128.load(hr + o);
      const s = sigmoid4(g);
      const ds = f32x4.mul(s, f32x4.add(one, f32x4.mul(g, f32x4.sub(one, s))));
      v128.store(dGateUp + off + o, f32x4.mul(f32x4.mul(d, u), ds));
      v128.store(dGateUp + off + up + o, f32x4.mul(f32x4.mul(d, g), s));
    }
    for (; i < hidden; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(gateUp + off + o);
      const u = load<f32>(gateUp + off + up + o);
      const d = load<f32>(hr + o);
      const s: f32 = 1 / (1 + exp1(-g));
      store<f32>(dGateUp + off + o, d * u * (s * (1 + g * (1 - s))));
      store<f32>(dGateUp + off + up + o, d * g * s);
    }
  }
}

/** row[0..n) <- exp(row - max) / sum, in place (max: the row's maximum). */
@inline export function softmaxRow(row: usize, n: i32, max: f32): void {
  const n4 = n & ~3;
  const maxv = f32x4.splat(max);
  let sumv = f32x4.splat(0);
  for (let j = 0; j < n4; j += 4) {
    const e = exp4(f32x4.sub(v128.load(row + (<usize>j << 2)), maxv));
    v128.store(row + (<usize>j << 2), e);
    sumv = f32x4.add(sumv, e);
  }
  let sum = hsum(sumv);
  for (let j = n4; j < n; j++) {
    const e = exp1(load<f32>(row + (<usize>j << 2)) - max);
    store<f32>(row + (<usize>j << 2), e);
    sum += e;
  }
  const inv = f32x4.splat(1 / sum);
  for (let j = 0; j < n4; j += 4) v128.store(row + (<usize>j << 2), f32x4.mul(v128.load(row + (<usize>j << 2)), inv));
  for (let j = n4; j < n; j++) store<f32>(row + (<usize>j << 2), load<f32>(row + (<usize>j << 2)) * f32x4.extract_lane(inv, 0));
}

/**
 * Causal softmax in place over a (rows, ld) block of scores: row i keeps columns 0..i, scaled by `scale`
 * and normalised; columns i+1..cols-1 are set to 0.
 */
export function causalSoftmax(s: usize, ld: i32, rows: i32, cols: i32, scale: f32): void {
  causalSoftmaxFrom(s, ld, 0, rows, cols, scale);
}

/** causalSoftmax for rows first..first+rows-1 of the scores, the block starting at s (row `first`). */
@inline export function causalSoftmaxFrom(s: usize, ld: i32, first: i32, rows: i32, cols: i32, scale: f32): void {
  const sv = f32x4.splat(scale);
  for (let i = 0; i < rows; i++) {
    const row = s + ((<usize>i * ld) << 2);
    const n = first + i + 1;
    const n4 = n & ~3;
    let mv = f32x4.splat(-Infinity);
    for (let j = 0; j < n4; j += 4) {
      const v = f32x4.mul(v128.load(row + (<usize>j << 2)), sv);
      v128.store(row + (<usize>j << 2), v);
      mv = f32x4.pmax(mv, v);
    }
    let max = f32x4.extract_lane(mv, 0);
    max = Mathf.max(max, f32x4.extract_lane(mv, 1));
    max = Mathf.max(max, f32x4.extract_lane(mv, 2));
    max = Mathf.max(max, f32x4.extract_lane(mv, 3));
    for (let j = n4; j < n; j++) {
      const v = load<f32>(row + (<usize>j << 2)) * scale;
      store<f32>(row + (<usize>j << 2), v);
      max = Mathf.max(max, v);
    }
    softmaxRow(row, n, max);
    if (n < cols) memory.fill(row + (<usize>n << 2), 0, <usize>(cols - n) << 2);
  }
}

/**
 * Softmax backward in place: on entry d holds dloss/dprobs, on exit dloss/dscores (times `scale`, the
 * factor the scores were multiplied by): d_ij = scale * p_ij * (d_ij - sum_k p_ik d_ik) for j <= past + i,
 * else 0 (past > 0: query rows at positions past.. of their sequence).
 */
export function causalSoftmaxBackward(d: usize, p: usize, ld: i32, rows: i32, cols: i32, scale: f32, past: i32): void {
  const sv = f32x4.splat(scale);
  for (let i = 0; i < rows; i++) {
    const dr = d + ((<usize>i * ld) << 2);
    const pr = p + ((<usize>i * ld) << 2);
    const n = past + i + 1;
    const n4 = n & ~3;
    let tv = f32x4.splat(0);
    for (let j = 0; j < n4; j += 4) tv = f32x4.add(tv, f32x4.mul(v128.load(pr + (<usize>j << 2)), v128.load(dr + (<usize>j << 2))));
    let total = hsum(tv);
    for (let j = n4; j < n; j++) total += load<f32>(pr + (<usize>j << 2)) * load<f32>(dr + (<usize>j << 2));
    const t = f32x4.splat(total);
    for (let j = 0; j < n4; j += 4) {
      const o = <usize>j << 2;
      v128.store(dr + o, f32x4.mul(f32x4.mul(sv, v128.load(pr + o)), f32x4.sub(v128.load(dr + o), t)));
    }
    for (let j = n4; j < n; j++) {
      const o = <usize>j << 2;
      store<f32>(dr + o, scale * load<f32>(pr + o) * (load<f32>(dr + o) - total));
    }
    if (n < cols) memory.fill(dr + (<usize>n << 2), 0, <usize>(cols - n) << 2);
  }
}
