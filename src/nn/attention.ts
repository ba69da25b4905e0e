// The two ways a row attends, as AttentionStep functions for the forward pass:
// - whole sequences (training, scoring, prompt prefill): each packed sequence attends causally within
//   itself, computed per head as blocked matmuls; softmax weights are kept per layer for the backward pass;
// - the KV cache (decoding): each row is one sequence's newest token; its k and v are appended to that
//   sequence's cache, and it attends to everything cached so far (one kernel call per layer).
// A prompt prefill attends within whole sequences like training, reading keys and values from the cache it
// has just filled (the cache keeps keys transposed, as the q . k^T product wants them).
import type { ModelConfig } from "./config.js";
import type { AttentionStep, ModelViews } from "./forward.js";
import { cachePositions, type Kernels } from "./kernels/types.js";
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

/**
 * KV cache of one shard: per layer, `slots` blocks of C * P floats for keys and as many for values, P =
 * cachePositions(contextLength); within a slot, head h's keys are K^T (headDim, P) in panels of 8 positions
 * and its values a (P, headDim) block, both starting at h * headDim * P (see src/nn/wasm/attention.ts).
 */
export interface KvCache {
  readonly slots: number;
  readonly keys: readonly Float32Array[];
  readonly values: readonly Float32Array[];
}

/** Query rows per matmul call of the attention backward: the causal mask skips whole blocks of keys past a block's last row. */
export const ROW_BLOCK = 16;

/** out(cols, rows) = x^T where x is (rows, cols) with row stride `stride`. */
export function transposeStrided(out: Float32Array, x: Float32Array, rows: number, cols: number, stride: number): void {
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[c * rows + r] = x[r * stride + c]!;
  }
}

/** k^T (hd, n) of one head: row-major with row stride ld, or in 8-column panels (the KV cache's keys). */
export type KeysT = { readonly rows: Float32Array; readonly ld: number } | { readonly panels: Float32Array };

/**
 * One head of one sequence of n rows: probs(n, n) = causalSoftmax(scale * q . k^T), then out(n, hd) =
 * probs . v; q rows have stride qStride, v rows have stride ldv, out rows stride outStride.
 */
export function headForward(kernels: Kernels, q: Float32Array, qStride: number, kT: KeysT, v: Float32Array, ldv: number,
  out: Float32Array, outStride: number, probs: Float32Array, n: number, hd: number, scale: number): void {
  if ("panels" in kT) kernels.causalAttention(out, outStride, q, qStride, kT.panels, 8, 8 * hd, v, ldv, probs, n, hd, scale);
  else kernels.causalAttention(out, outStride, q, qStride, kT.rows, kT.ld, 8, v, ldv, probs, n, hd, scale);
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
        transposeStrided(workspace.scratch, q.subarray(C), n, hd, 3 * C);
        headForward(kernels, q, 3 * C, { rows: workspace.scratch, ld: n }, q.subarray(2 * C), 3 * C, a.att.subarray(start * C + h * hd), C,
          a.probs.subarray(offsets[s]! + h * n * n), n, hd, scale);
      }
    });
  };
}

/** Copies each packed sequence's rotated keys and values of `layer` (from its qkv) into cache slot `slots[s]`. */
export function fillCache(kernels: Kernels, config: ModelConfig, workspace: Workspace, cache: KvCache, packing: Packing, slots: readonly number[], layer: number): void {
  const { dModel: C, heads: H, contextLength: T } = config;
  const P = cachePositions(T);
  const qkv = workspace.layers[layer]!.qkv;
  packing.lengths.forEach((n, s) => {
    const base = slots[s]! * C * P;
    kernels.storeKeysValues(cache.keys[layer]!.subarray(base, base + C * P), cache.values[layer]!.subarray(base, base + C * P),
      qkv.subarray(packing.starts[s]! * 3 * C), n, 0, T, C, H);
  });
}

/** Prefill: remember each sequence's keys and values, and attend within sequences reading them from the cache. */
export function attendAndCache(kernels: Kernels, model: ModelViews, workspace: Workspace, packing: Packing, cache: KvCache, slots: readonly number[]): AttentionStep {
  const { config } = model;
  const { dModel: C, heads: H, contextLength: T } = config;
  const P = cachePositions(T);
  const hd = C / H;
  const scale = attentionScale(config);
  const offsets = probsOffsets(config, packing.lengths);
  return (layer, a) => {
    fillCache(kernels, config, workspace, cache, packing, slots, layer);
    packing.lengths.forEach((n, s) => {
      const start = packing.starts[s]!;
      for (let h = 0; h < H; h++) {
        const block = slots[s]! * C * P + h * hd * P;
        headForward(kernels, a.qkv.subarray(start * 3 * C + h * hd), 3 * C, { panels: cache.keys[layer]!.subarray(block) }, cache.values[layer]!.subarray(block), hd,
          a.att.subarray(start * C + h * hd), C, a.probs.subarray(offsets[s]! + h * n * n), n, hd, scale);
      }
    });
  };
}

/** Decoding: row r is slot slots[r]'s token at workspace.positions[r]. */
export function attendCache(kernels: Kernels, model: ModelViews, workspace: Workspace, cache: KvCache, slots: readonly number[]): AttentionStep {
  const { config } = model;
  const { dModel: C, heads: H, contextLength: T } = config;
  const scale = attentionScale(config);
  workspace.slots.set(slots);
  return (layer, a, rows) => {
    kernels.cachedAttention(a.att, a.qkv, rows, workspace.positions, workspace.slots, cache.keys[layer]!, cache.values[layer]!, T, C, H, scale, workspace.scratch);
  };
}
