// The two ways a row attends, as AttentionStep functions for the forward pass:
// - whole sequences (training, scoring, prompt prefill): each packed sequence attends causally within
//   itself, computed per head as blocked matmuls; softmax weights are kept per layer for the backward pass;
// - the KV cache (decoding): each row is one sequence's newest token; its k and v are appended to that
//   sequence's cache, and it attends to everything cached so far.
import type { ModelConfig } from "./config.js";
import type { AttentionStep, ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { attentionScale, probsOffsets, type Workspace } from "./workspace.js";

/** Packed sequences: sequence s occupies rows starts[s] .. starts[s] + lengths[s] - 1. */
export interface Packing {
  readonly starts: readonly number[];
  readonly lengths: readonly number[];
}

export function packLengths(lengths: readonly number[]): Packing {
  const starts: number[] = [];
  let row = 0;
  for (const n of lengths) {
    starts.push(row);
    row += n;
  }
  return { starts, lengths };
}

/** KV cache of one shard: per layer, (slots, contextLength, C) keys and values. */
export interface KvCache {
  readonly slots: number;
  readonly keys: readonly Float32Array[];
  readonly values: readonly Float32Array[];
}

/** Query rows per matmul call: the causal mask skips whole blocks of keys beyond a block's last row. */
export const ROW_BLOCK = 16;

/** out(cols, rows) = x^T where x is (rows, cols) with row stride `stride`. */
export function transposeStrided(out: Float32Array, x: Float32Array, rows: number, cols: number, stride: number): void {
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[c * rows + r] = x[r * stride + c]!;
  }
}

/**
 * One head of one sequence of n rows, as matmuls: probs(n, n) = causalSoftmax(scale * q . k^T), then
 * out(n, hd) = probs . v; q, k, v are rows of qkv (stride 3C), out rows of att (stride C).
 */
export function headForward(kernels: Kernels, q: Float32Array, k: Float32Array, v: Float32Array, stride: number, out: Float32Array, outStride: number,
  probs: Float32Array, kT: Float32Array, n: number, hd: number, scale: number): void {
  transposeStrided(kT, k, n, hd, stride);
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - i0);
    kernels.gemm(probs.subarray(i0 * n), n, q.subarray(i0 * stride), stride, 1, kT, n, rows, i0 + rows, hd, false);
  }
  kernels.causalSoftmax(probs, n, n, n, scale);
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - i0);
    kernels.gemm(out.subarray(i0 * outStride), outStride, probs.subarray(i0 * n), n, 1, v, stride, rows, hd, i0 + rows, false);
  }
}

export function attendSequences(kernels: Kernels, model: ModelViews, packing: Packing, workspace: Workspace): AttentionStep {
  const { config } = model;
  const { dModel: C, heads: H } = config;
  const hd = C / H;
  const scale = attentionScale(config);
  const offsets = probsOffsets(config, packing.lengths);
  return (_layer, a) => {
    packing.lengths.forEach((n, s) => {
      const start = packing.starts[s]!;
      for (let h = 0; h < H; h++) {
        const q = a.qkv.subarray(start * 3 * C + h * hd);
        headForward(kernels, q, q.subarray(C), q.subarray(2 * C), 3 * C, a.att.subarray(start * C + h * hd), C,
          a.probs.subarray(offsets[s]! + h * n * n), workspace.scratch, n, hd, scale);
      }
    });
  };
}

/** Copies each packed sequence's rotated keys and values of `layer` into cache slot `slots[s]`. */
export function fillCache(config: ModelConfig, workspace: Workspace, cache: KvCache, packing: Packing, slots: readonly number[], layer: number): void {
  const C = config.dModel;
  const qkv = workspace.layers[layer]!.qkv;
  packing.lengths.forEach((n, s) => {
    const base = slots[s]! * config.contextLength * C;
    for (let i = 0; i < n; i++) {
      const row = (packing.starts[s]! + i) * 3 * C;
      cache.keys[layer]!.set(qkv.subarray(row + C, row + 2 * C), base + i * C);
      cache.values[layer]!.set(qkv.subarray(row + 2 * C, row + 3 * C), base + i * C);
    }
  });
}

/** Prefill: attend within sequences and remember their keys and values. */
export function attendAndCache(kernels: Kernels, model: ModelViews, workspace: Workspace, packing: Packing, cache: KvCache, slots: readonly number[]): AttentionStep {
  const attend = attendSequences(kernels, model, packing, workspace);
  return (layer, a, rows) => {
    attend(layer, a, rows);
    fillCache(model.config, workspace, cache, packing, slots, layer);
  };
}

/** Decoding: row r is slot slots[r]'s token at workspace.positions[r]. */
export function attendCache(kernels: Kernels, model: ModelViews, workspace: Workspace, cache: KvCache, slots: readonly number[]): AttentionStep {
  const { config } = model;
  const { dModel: C, heads: H, contextLength: T } = config;
  const hd = C / H;
  const scale = attentionScale(config);
  return (layer, a, rows) => {
    const keys = cache.keys[layer]!;
    const values = cache.values[layer]!;
    for (let r = 0; r < rows; r++) {
      const pos = workspace.positions[r]!;
      const base = slots[r]! * T * C;
      const row = r * 3 * C;
      keys.set(a.qkv.subarray(row + C, row + 2 * C), base + pos * C);
      values.set(a.qkv.subarray(row + 2 * C, row + 3 * C), base + pos * C);
      for (let h = 0; h < H; h++) {
        kernels.attentionForward(a.att.subarray(r * C + h * hd), C, a.qkv.subarray(row + h * hd), 3 * C, keys.subarray(base + h * hd), values.subarray(base + h * hd), C,
          workspace.scratch, 0, pos, 1, hd, scale);
      }
    }
  };
}
