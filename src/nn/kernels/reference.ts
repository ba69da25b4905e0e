// The reference kernels: plain TypeScript, one loop nest per operation, written to be read. They define what
// the WebAssembly kernels (src/nn/wasm/*.ts) must compute; the tests compare the two. Arithmetic is float32
// storage with float64 accumulation inside a row, so results differ from the fast path by rounding only.
import { logitsGradient, tokenLogprobs } from "../loss.js";
import { prepareRow } from "../sampler.js";
import { cachePositions, type Kernels } from "./types.js";

function gemm(
  out: Float32Array,
  ldc: number,
  a: Float32Array,
  ars: number,
  acs: number,
  b: Float32Array,
  ldb: number,
  m: number,
  n: number,
  k: number,
  accumulate: boolean,
): void {
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let p = 0; p < k; p++) sum += a[i * ars + p * acs]! * b[p * ldb + j]!;
      out[i * ldc + j] = accumulate ? out[i * ldc + j]! + sum : sum;
    }
  }
}

function gemmPanels(
  out: Float32Array,
  ldc: number,
  a: Float32Array,
  ars: number,
  acs: number,
  b: Float32Array,
  panelStride: number,
  m: number,
  n: number,
  k: number,
  accumulate: boolean,
): void {
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let p = 0; p < k; p++) sum += a[i * ars + p * acs]! * b[Math.floor(j / 8) * panelStride + p * 8 + (j % 8)]!;
      out[i * ldc + j] = accumulate ? out[i * ldc + j]! + sum : sum;
    }
  }
}

/** Softmax in place of scale * row[0..keep), zeros over the rest of the row. */
function causalSoftmaxRow(row: Float32Array, keep: number, scale: number): void {
  let max = -Infinity;
  for (let j = 0; j < keep; j++) max = Math.max(max, row[j]! * scale);
  let sum = 0;
  for (let j = 0; j < keep; j++) {
    row[j] = Math.exp(row[j]! * scale - max);
    sum += row[j]!;
  }
  for (let j = 0; j < keep; j++) row[j] = row[j]! / sum;
  row.fill(0, keep);
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export const referenceKernels: Kernels = {
  name: "reference",
  gemm,
  gemmPanels,
  tokenLogprobs,
  logitsGradient,
  matmul: (out, a, b, m, n, k, accumulate) => gemm(out, n, a, k, 1, b, n, m, n, k, accumulate),
  matmulTransposedA: (out, a, b, m, n, k, accumulate) => gemm(out, n, a, 1, m, b, n, m, n, k, accumulate),

  causalSoftmax(scores, ld, rows, cols, scale) {
    for (let i = 0; i < rows; i++)
      causalSoftmaxRow(scores.subarray(i * ld, i * ld + Math.max(cols, i + 1)), i + 1, scale);
  },

  transpose(out, x, rows, cols, stride) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) out[c * rows + r] = x[r * stride + c]!;
    }
  },

  causalSoftmaxBackward(d, probs, ld, rows, cols, scale, past = 0) {
    for (let i = 0; i < rows; i++) {
      const base = i * ld;
      const last = past + i;
      let total = 0;
      for (let j = 0; j <= last; j++) total += probs[base + j]! * d[base + j]!;
      for (let j = 0; j <= last; j++) d[base + j] = scale * probs[base + j]! * (d[base + j]! - total);
      d.fill(0, base + last + 1, base + Math.max(cols, last + 1));
    }
  },

  rmsnormForward(out, rstd, x, weight, rows, dim, eps) {
    for (let r = 0; r < rows; r++) {
      let ss = 0;
      for (let i = 0; i < dim; i++) ss += x[r * dim + i]! ** 2;
      const s = 1 / Math.sqrt(ss / dim + eps);
      rstd[r] = s;
      for (let i = 0; i < dim; i++) out[r * dim + i] = x[r * dim + i]! * s * weight[i]!;
    }
  },

  rmsnormBackward(dx, dweight, dout, x, weight, rstd, rows, dim) {
    for (let r = 0; r < rows; r++) {
      const s = rstd[r]!;
      let dot = 0;
      for (let i = 0; i < dim; i++) {
        const g = dout[r * dim + i]!;
        const v = x[r * dim + i]!;
        dot += g * weight[i]! * v;
        dweight[i] = dweight[i]! + g * v * s;
      }
      const k = (dot * s * s * s) / dim;
      for (let i = 0; i < dim; i++) {
        const g = dout[r * dim + i]! * weight[i]!;
        dx[r * dim + i] = dx[r * dim + i]! + g * s - x[r * dim + i]! * k;
      }
    }
  },

  rope(x, rows, rowStride, vectors, headDim, cos, sin, positions, inverse) {
    const half = headDim / 2;
    for (let r = 0; r < rows; r++) {
      const pos = positions[r]!;
      for (let h = 0; h < vectors; h++) {
        const base = r * rowStride + h * headDim;
        for (let i = 0; i < half; i++) {
          const c = cos[pos * half + i]!;
          const s = (inverse ? -1 : 1) * sin[pos * half + i]!;
          const a = x[base + i]!;
          const b = x[base + i + half]!;
          x[base + i] = a * c - b * s;
          x[base + i + half] = b * c + a * s;
        }
      }
    }
  },

  swigluForward(h, gateUp, rows, hidden) {
    for (let r = 0; r < rows; r++) {
      for (let i = 0; i < hidden; i++) {
        const g = gateUp[r * 2 * hidden + i]!;
        h[r * hidden + i] = g * sigmoid(g) * gateUp[r * 2 * hidden + hidden + i]!;
      }
    }
  },

  linearSwiglu(h, x, wT, rows, hidden, k) {
    const gateUp = new Float32Array(rows * 2 * hidden);
    gemmPanels(gateUp, 2 * hidden, x, k, 1, wT, 8 * k, rows, 2 * hidden, k, false);
    referenceKernels.swigluForward(h, gateUp, rows, hidden);
  },

  swigluBackward(dGateUp, dh, gateUp, rows, hidden) {
    for (let r = 0; r < rows; r++) {
      for (let i = 0; i < hidden; i++) {
        const g = gateUp[r * 2 * hidden + i]!;
        const u = gateUp[r * 2 * hidden + hidden + i]!;
        const d = dh[r * hidden + i]!;
        const s = sigmoid(g);
        dGateUp[r * 2 * hidden + i] = d * u * s * (1 + g * (1 - s));
        dGateUp[r * 2 * hidden + hidden + i] = d * g * s;
      }
    }
  },

  samplingWeights(weights, stats, logits, rows, vocab, temperature) {
    for (let r = 0; r < rows; r++) {
      const row = prepareRow(logits.subarray(r * vocab, (r + 1) * vocab), temperature);
      weights.set(row.weights, r * vocab);
      stats[2 * r] = row.modelLse;
      stats[2 * r + 1] = row.sum;
    }
  },

  causalAttention(out, outStride, q, qStride, kT, ldk, kPanel, v, ldv, probs, n, hd, scale, past, keepProbs) {
    const ld = past + n;
    for (let i0 = 0; i0 < n; i0 += 16) {
      const rows = Math.min(16, n - i0);
      const p = keepProbs ? probs.subarray(i0 * ld) : probs;
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j <= past + i0 + i; j++) {
          let dot = 0;
          for (let d = 0; d < hd; d++)
            dot += q[(i0 + i) * qStride + d]! * kT[Math.floor(j / 8) * kPanel + d * ldk + (j % 8)]!;
          p[i * ld + j] = dot;
        }
        causalSoftmaxRow(p.subarray(i * ld, (i + 1) * ld), past + i0 + i + 1, scale);
      }
      gemm(out.subarray(i0 * outStride), outStride, p, ld, 1, v, ldv, rows, hd, ld, false);
    }
  },

  storeKeysValues(keys, values, qkv, rows, firstPos, contextLength, dModel, heads) {
    const hd = dModel / heads;
    const block = hd * cachePositions(contextLength);
    for (let i = 0; i < rows; i++) {
      const pos = firstPos + i;
      for (let h = 0; h < heads; h++) {
        for (let d = 0; d < hd; d++) {
          keys[h * block + Math.floor(pos / 8) * 8 * hd + 8 * d + (pos % 8)] =
            qkv[i * 3 * dModel + dModel + h * hd + d]!;
          values[h * block + pos * hd + d] = qkv[i * 3 * dModel + 2 * dModel + h * hd + d]!;
        }
      }
    }
  },

  cachedAttention(att, qkv, rows, positions, slots, cache, layerOffset, contextLength, dModel, heads, scale, scratch) {
    const hd = dModel / heads;
    const P = cachePositions(contextLength);
    const size = dModel * P;
    for (let r = 0; r < rows; r++) {
      const pos = positions[r]!;
      const keys = cache.subarray(slots[r]! + layerOffset, slots[r]! + layerOffset + size);
      const values = cache.subarray(slots[r]! + layerOffset + size, slots[r]! + layerOffset + 2 * size);
      const row = qkv.subarray(r * 3 * dModel);
      referenceKernels.storeKeysValues(keys, values, row, 1, pos, contextLength, dModel, heads);
      for (let h = 0; h < heads; h++) {
        const base = h * hd * P;
        let max = -Infinity;
        for (let j = 0; j <= pos; j++) {
          let dot = 0;
          for (let d = 0; d < hd; d++)
            dot += row[h * hd + d]! * keys[base + Math.floor(j / 8) * 8 * hd + 8 * d + (j % 8)]!;
          scratch[j] = dot * scale;
          max = Math.max(max, scratch[j]!);
        }
        let sum = 0;
        for (let j = 0; j <= pos; j++) {
          scratch[j] = Math.exp(scratch[j]! - max);
          sum += scratch[j]!;
        }
        for (let d = 0; d < hd; d++) {
          let acc = 0;
          for (let j = 0; j <= pos; j++) acc += (scratch[j]! / sum) * values[base + j * hd + d]!;
          att[r * dModel + h * hd + d] = acc;
        }
      }
    }
  },
};
