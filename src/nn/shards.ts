// Splitting a batch of sequences over a fixed number of shards, and the per-shard workspaces that grow to
// fit. The split depends only on the number of sequences (shard s takes sequences
// floor(s B / S) .. floor((s + 1) B / S) - 1), never on the threads, so results are the same on one thread
// or many; the gradient of a batch is the sum of shard gradients in shard order.
import type { ModelConfig } from "./config.js";
import type { Heap } from "./heap.js";
import { allocateWorkspace, freeWorkspace, probsSize, type Workspace } from "./workspace.js";
import type { KvCache } from "./attention.js";
import { cachePositions } from "./kernels/types.js";

/** [first, end) sequence index ranges, one per shard. */
export function shardRanges(sequences: number, shards: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (let s = 0; s < shards; s++) ranges.push([Math.floor((s * sequences) / shards), Math.floor(((s + 1) * sequences) / shards)]);
  return ranges;
}

/** A shard's workspace, reallocated when it is too small for `lengths`. */
export interface WorkspaceSlot {
  workspace: Workspace | undefined;
}

export function ensureWorkspace(heap: Heap, config: ModelConfig, slot: WorkspaceSlot, lengths: readonly number[]): Workspace {
  const rows = Math.max(1, lengths.reduce((a, b) => a + b, 0));
  const probs = Math.max(1, probsSize(config, lengths));
  const current = slot.workspace;
  if (current !== undefined && current.rowCapacity >= rows && current.probsCapacity >= probs) return current;
  if (current !== undefined) freeWorkspace(heap, current);
  // Grow with headroom so that slowly growing batches do not reallocate every call.
  const fresh = allocateWorkspace(heap, config, Math.max(rows, Math.ceil((current?.rowCapacity ?? 0) * 1.25)), Math.max(probs, Math.ceil((current?.probsCapacity ?? 0) * 1.25)));
  slot.workspace = fresh;
  return fresh;
}

export interface CacheSlot {
  cache: KvCache | undefined;
}

export function ensureCache(heap: Heap, config: ModelConfig, slot: CacheSlot, slots: number): KvCache {
  const current = slot.cache;
  if (current !== undefined && current.slots >= slots) return current;
  if (current !== undefined) freeCache(heap, current);
  const size = slots * cachePositions(config.contextLength) * config.dModel;
  const keys: Float32Array[] = [];
  const values: Float32Array[] = [];
  for (let l = 0; l < config.layers; l++) {
    keys.push(heap.allocFloats(size));
    values.push(heap.allocFloats(size));
  }
  slot.cache = { slots, keys, values };
  return slot.cache;
}

export function freeCache(heap: Heap, cache: KvCache): void {
  for (const t of [...cache.keys, ...cache.values]) heap.free(t);
}
