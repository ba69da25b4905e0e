// The three ways rows attend, as AttentionStep functions for the forward pass:
// - whole sequences (training, scoring): each packed sequence attends causally within itself, computed per
//   head as blocked matmuls; softmax weights are kept per layer for the backward pass;
// - chunks (prompt prefill): each packed sequence is the new tokens of a sequence whose earlier tokens may
//   be cached; their keys and values join the cache and they attend causally to the whole cached sequence,
//   with the same blocked matmuls reading the cache (it keeps keys transposed, as q . k^T wants them);
// - the KV cache (decoding): each row is one sequence's newest token; its k and v are appended to that
//   sequence's cache, and it attends to everything cached so far (one kernel call per layer).
import type { ModelConfig } from "./config.js";
import type { AttentionStep, ModelViews } from "./forward.js";
import { cachePositions, type Kernels } from "./kernels/types.js";
import { layerCache, layerOffset } from "./kv-cache.js";
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

/** Query rows per matmul call of the attention backward: the causal mask skips whole blocks of keys past a block's last row. */
export const ROW_BLOCK = 16;

/** k^T (hd, n) of one head: row-major with row stride ld, or in 8-column panels (the KV cache's keys). */
export type KeysT = { readonly rows: Float32Array; readonly ld: number } | { readonly panels: Float32Array };

/**
 * One head of one sequence: n query rows at positions past..past+n-1 attend to keys 0..past+n-1:
 * probs = causalSoftmax(scale * q . k^T) (row stride past + n; all n rows kept with keepProbs, else 16 rows
 * reused), then out(n, hd) = probs . v; q rows have stride qStride, v rows ldv, out rows outStride.
 */
export function headForward(
  kernels: Kernels,
  q: Float32Array,
  qStride: number,
  kT: KeysT,
  v: Float32Array,
  ldv: number,
  out: Float32Array,
  outStride: number,
  probs: Float32Array,
  n: number,
  hd: number,
  scale: number,
  past = 0,
  keepProbs = true,
): void {
  if ("panels" in kT)
    kernels.causalAttention(
      out,
      outStride,
      q,
      qStride,
      kT.panels,
      8,
      8 * hd,
      v,
      ldv,
      probs,
      n,
      hd,
      scale,
      past,
      keepProbs,
    );
  else
    kernels.causalAttention(
      out,
      outStride,
      q,
      qStride,
      kT.rows,
      kT.ld,
      8,
      v,
      ldv,
      probs,
      n,
      hd,
      scale,
      past,
      keepProbs,
    );
}

export function attendSequences(
  kernels: Kernels,
  model: ModelViews,
  packing: Packing,
  workspace: Workspace,
): AttentionStep {
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
        kernels.transpose(workspace.scratch, q.subarray(C), n, hd, 3 * C);
        headForward(
          kernels,
          q,
          3 * C,
          { rows: workspace.scratch, ld: n },
          q.subarray(2 * C),
          3 * C,
          a.att.subarray(start * C + h * hd),
          C,
          a.probs.subarray(offsets[s]! + h * n * n),
          n,
          hd,
          scale,
        );
      }
    });
  };
}

/**
 * Copies each packed sequence's rotated keys and values of `layer` (from its qkv) into its KV-cache block (at
 * float offset slots[s] of `cache`, src/nn/kv-cache.ts), at positions pasts[s]...
 */
export function fillCache(
  kernels: Kernels,
  config: ModelConfig,
  workspace: Workspace,
  cache: Float32Array,
  packing: Packing,
  slots: readonly number[],
  pasts: readonly number[],
  layer: number,
): void {
  const { dModel: C, heads: H, contextLength: T } = config;
  const qkv = workspace.layers[layer]!.qkv;
  packing.lengths.forEach((n, s) => {
    const { keys, values } = layerCache(config, cache, slots[s]!, layer);
    kernels.storeKeysValues(keys, values, qkv.subarray(packing.starts[s]! * 3 * C), n, pasts[s]!, T, C, H);
  });
}

/**
 * Prefill: each packed sequence's rows are new tokens at positions pasts[s].. of a sequence whose first
 * pasts[s] tokens are cached; their keys and values join the cache, then they attend to the whole cached
 * sequence, reading keys and values from the cache. No attention weights are kept (no backward pass).
 */
export function attendChunks(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  packing: Packing,
  cache: Float32Array,
  slots: readonly number[],
  pasts: readonly number[],
): AttentionStep {
  const { config } = model;
  const { dModel: C, heads: H, contextLength: T } = config;
  const P = cachePositions(T);
  const hd = C / H;
  const scale = attentionScale(config);
  return (layer, a) => {
    fillCache(kernels, config, workspace, cache, packing, slots, pasts, layer);
    packing.lengths.forEach((n, s) => {
      const start = packing.starts[s]!;
      const { keys, values } = layerCache(config, cache, slots[s]!, layer);
      for (let h = 0; h < H; h++) {
        headForward(
          kernels,
          a.qkv.subarray(start * 3 * C + h * hd),
          3 * C,
          { panels: keys.subarray(h * hd * P) },
          values.subarray(h * hd * P),
          hd,
          a.att.subarray(start * C + h * hd),
          C,
          workspace.scores,
          n,
          hd,
          scale,
          pasts[s]!,
          false,
        );
      }
    });
  };
}

/** Decoding: row r is the newest token, at workspace.positions[r], of the sequence whose block is at float slots[r] of `cache`. */
export function attendCache(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  cache: Float32Array,
  slots: readonly number[],
): AttentionStep {
  const { config } = model;
  const { dModel: C, heads: H, contextLength: T } = config;
  const scale = attentionScale(config);
  workspace.slots.set(slots);
  return (layer, a, rows) => {
    kernels.cachedAttention(
      a.att,
      a.qkv,
      rows,
      workspace.positions,
      workspace.slots,
      cache,
      layerOffset(config, layer),
      T,
      C,
      H,
      scale,
      workspace.scratch,
    );
  };
}
