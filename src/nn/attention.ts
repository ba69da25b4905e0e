// The two ways a row attends, as AttentionStep functions for the forward pass:
// - whole sequences (training, scoring, prompt prefill): each packed sequence attends causally within
//   itself; softmax weights are kept per layer for the backward pass;
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

export function attendSequences(kernels: Kernels, model: ModelViews, packing: Packing): AttentionStep {
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
        const probs = a.probs.subarray(offsets[s]! + h * n * n);
        kernels.attentionForward(a.att.subarray(start * C + h * hd), C, q, 3 * C, q.subarray(C), q.subarray(2 * C), 3 * C, probs, n, 0, n, hd, scale);
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
  const attend = attendSequences(kernels, model, packing);
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
