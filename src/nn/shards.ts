// Splitting a batch of sequences over a fixed number of shards, and the per-shard workspaces that grow to
// fit. Shards take consecutive sequences, split where the work (tokens) is most even, so that the two
// threads finish together. The split depends only on the sequences' lengths, never on the threads, so
// results are the same on one thread or many; the gradient of a batch is the sum of shard gradients in shard
// order.
import type { ModelConfig } from "./config.js";
import type { Heap } from "./heap.js";
import { allocateWorkspace, freeWorkspace, probsSize, type Workspace, type WorkspaceKind } from "./workspace.js";

/**
 * [first, end) sequence index ranges, one per shard, of about equal total weight: shard s ends at the
 * boundary whose running total is nearest to (s + 1) / shards of the sum (the earlier one on a tie).
 */
export function shardRanges(weights: readonly number[], shards: number): [number, number][] {
  const total = weights.reduce((a, b) => a + b, 0);
  const ranges: [number, number][] = [];
  let first = 0;
  let end = 0;
  let running = 0;
  for (let s = 0; s < shards; s++) {
    if (s === shards - 1) end = weights.length;
    else {
      const target = (total * (s + 1)) / shards;
      while (end < weights.length && running + weights[end]! / 2 < target) running += weights[end++]!;
    }
    ranges.push([first, end]);
    first = end;
  }
  return ranges;
}

/** A shard's workspace, reallocated when it is too small for `lengths`. */
export interface WorkspaceSlot {
  workspace: Workspace | undefined;
}

/** A "sample" workspace (prefill and decoding) keeps no attention weights, so none are allocated. */
export function ensureWorkspace(
  heap: Heap,
  config: ModelConfig,
  slot: WorkspaceSlot,
  lengths: readonly number[],
  kind: WorkspaceKind = "train",
): Workspace {
  const rows = Math.max(
    1,
    lengths.reduce((a, b) => a + b, 0),
  );
  const probs = kind === "train" ? Math.max(1, probsSize(config, lengths)) : 1;
  const current = slot.workspace;
  if (current !== undefined && current.kind === kind && current.rowCapacity >= rows && current.probsCapacity >= probs)
    return current;
  if (current !== undefined) {
    freeWorkspace(heap, current);
    // Emptied before allocating: if the allocation fails, the slot must not keep the freed workspace.
    slot.workspace = undefined;
  }
  // Grow with headroom so that slowly growing batches do not reallocate every call.
  const fresh = allocateWorkspace(
    heap,
    config,
    Math.max(rows, Math.ceil((current?.rowCapacity ?? 0) * 1.25)),
    Math.max(probs, Math.ceil((current?.probsCapacity ?? 0) * 1.25)),
    kind,
  );
  slot.workspace = fresh;
  return fresh;
}
