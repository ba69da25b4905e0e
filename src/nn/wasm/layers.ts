// AssemblyScript (compiled to WebAssembly by `npm run build:wasm`): the row-wise layers of the transformer,
// RMSNorm, rotary position embedding and SwiGLU, forward and backward. Pointers are byte offsets; sizes count
// floats. The plain-TypeScript twins live in src/nn/kernels/reference.ts; the tests compare the two.

/** out(rows, dim) = x * rstd * weight; rstd(rows) = 1 / sqrt(mean(x^2) + eps). */
export function rmsnormForward(out: usize, rstd: usize, x: usize, weight: usize, rows: i32, dim: i32, eps: f32): void {
  for (let r = 0; r < rows; r++) {
    const xr = x + ((<usize>r * dim) << 2);
    const or = out + ((<usize>r * dim) << 2);
    let ss: f32 = 0;
    for (let i = 0; i < dim; i++) {
      const v = load<f32>(xr + (<usize>i << 2));
      ss += v * v;
    }
    const s: f32 = 1 / Mathf.sqrt(ss / <f32>dim + eps);
    store<f32>(rstd + (<usize>r << 2), s);
    for (let i = 0; i < dim; i++) {
      const o = <usize>i << 2;
      store<f32>(or + o, load<f32>(xr + o) * s * load<f32>(weight + o));
    }
  }
}

/** dx += d(rmsnorm)/dx . dout; dweight += sum over rows of dout * x * rstd. */
export function rmsnormBackward(dx: usize, dweight: usize, dout: usize, x: usize, weight: usize, rstd: usize, rows: i32, dim: i32): void {
  for (let r = 0; r < rows; r++) {
    const base = (<usize>r * dim) << 2;
    const s = load<f32>(rstd + (<usize>r << 2));
    let dot: f32 = 0;
    for (let i = 0; i < dim; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(dout + base + o);
      const v = load<f32>(x + base + o);
      dot += g * load<f32>(weight + o) * v;
      store<f32>(dweight + o, load<f32>(dweight + o) + g * v * s);
    }
    const k: f32 = (dot * s * s * s) / <f32>dim;
    for (let i = 0; i < dim; i++) {
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
  const sign: f32 = inverse != 0 ? -1 : 1;
  for (let r = 0; r < rows; r++) {
    const pos = load<i32>(positions + (<usize>r << 2));
    const tc = cos + ((<usize>pos * half) << 2);
    const ts = sin + ((<usize>pos * half) << 2);
    const row = x + ((<usize>r * rowStride) << 2);
    for (let h = 0; h < vectors; h++) {
      const v = row + ((<usize>h * headDim) << 2);
      for (let i = 0; i < half; i++) {
        const o = <usize>i << 2;
        const c = load<f32>(tc + o);
        const s = sign * load<f32>(ts + o);
        const a = load<f32>(v + o);
        const b = load<f32>(v + o + (<usize>half << 2));
        store<f32>(v + o, a * c - b * s);
        store<f32>(v + o + (<usize>half << 2), b * c + a * s);
      }
    }
  }
}

@inline function sigmoid(x: f32): f32 {
  return 1 / (1 + Mathf.exp(-x));
}

/** h(rows, hidden) = silu(gate) * up, where gateUp(rows, 2 * hidden) holds gate then up in each row. */
export function swigluForward(h: usize, gateUp: usize, rows: i32, hidden: i32): void {
  for (let r = 0; r < rows; r++) {
    const gu = gateUp + ((<usize>r * 2 * hidden) << 2);
    const hr = h + ((<usize>r * hidden) << 2);
    for (let i = 0; i < hidden; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(gu + o);
      store<f32>(hr + o, g * sigmoid(g) * load<f32>(gu + o + (<usize>hidden << 2)));
    }
  }
}

/** dGateUp(rows, 2 * hidden) = d(silu(gate) * up) from dh(rows, hidden). */
export function swigluBackward(dGateUp: usize, dh: usize, gateUp: usize, rows: i32, hidden: i32): void {
  for (let r = 0; r < rows; r++) {
    const off = (<usize>r * 2 * hidden) << 2;
    const hr = dh + ((<usize>r * hidden) << 2);
    for (let i = 0; i < hidden; i++) {
      const o = <usize>i << 2;
      const g = load<f32>(gateUp + off + o);
      const u = load<f32>(gateUp + off + o + (<usize>hidden << 2));
      const d = load<f32>(hr + o);
      const s = sigmoid(g);
      store<f32>(dGateUp + off + o, d * u * s * (1 + g * (1 - s)));
      store<f32>(dGateUp + off + o + (<usize>hidden << 2), d * g * s);
    }
  }
}

/**
 * Causal softmax in place over a (rows, ld) block of scores: row i keeps columns 0..i, scaled by `scale`
 * and normalised; columns i+1..cols-1 are set to 0.
 */
export function causalSoftmax(s: usize, ld: i32, rows: i32, cols: i32, scale: f32): void {
  for (let i = 0; i < rows; i++) {
    const row = s + ((<usize>i * ld) << 2);
    let max: f32 = -Infinity;
    for (let j = 0; j <= i; j++) {
      const v = load<f32>(row + (<usize>j << 2)) * scale;
      store<f32>(row + (<usize>j << 2), v);
      if (v > max) max = v;
    }
    let sum: f32 = 0;
    for (let j = 0; j <= i; j++) {
      const e = Mathf.exp(load<f32>(row + (<usize>j << 2)) - max);
      store<f32>(row + (<usize>j << 2), e);
      sum += e;
    }
    const inv: f32 = 1 / sum;
    for (let j = 0; j <= i; j++) store<f32>(row + (<usize>j << 2), load<f32>(row + (<usize>j << 2)) * inv);
    if (i + 1 < cols) memory.fill(row + (<usize>(i + 1) << 2), 0, <usize>(cols - i - 1) << 2);
  }
}

/**
 * Softmax backward in place: on entry d holds dloss/dprobs, on exit dloss/dscores (times `scale`, the
 * factor the scores were multiplied by): d_ij = scale * p_ij * (d_ij - sum_k p_ik d_ik) for j <= i, else 0.
 */
export function causalSoftmaxBackward(d: usize, p: usize, ld: i32, rows: i32, cols: i32, scale: f32): void {
  for (let i = 0; i < rows; i++) {
    const dr = d + ((<usize>i * ld) << 2);
    const pr = p + ((<usize>i * ld) << 2);
    let total: f32 = 0;
    for (let j = 0; j <= i; j++) total += load<f32>(pr + (<usize>j << 2)) * load<f32>(dr + (<usize>j << 2));
    for (let j = 0; j <= i; j++) {
      const o = <usize>j << 2;
      store<f32>(dr + o, scale * load<f32>(pr + o) * (load<f32>(dr + o) - total));
    }
    if (i + 1 < cols) memory.fill(dr + (<usize>(i + 1) << 2), 0, <usize>(cols - i - 1) << 2);
  }
}
