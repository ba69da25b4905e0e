// Prompt prefill for sampling: every new prompt row goes through the blocks so that its keys and values of
// every layer land in its sequence's KV cache, but past that only each prompt's last row matters (it gives
// the first new token's logits). So all layers but the last run on every row (chunk attention: the new rows
// attend to the cached tokens before them and to each other), the last layer computes keys and values alone
// for every row (no queries, no attention, no MLP), caches them, and then runs as a decoding step on the last
// rows. A prompt that extends a cached sequence is a chunk at positions past.. (src/nn/kv-cache.ts).
//
// Shared prefills: chunks that are the same tokens over nothing cached (a group's samples of one task start
// with the same prompt) are computed once; the others get a copy of its cache (what their own prefill would
// have written, bit for bit: rows do not depend on their batch-mates) and run only the last rows' decoding
// step, in their own blocks.
import { attendCache, attendChunks, fillCache, packLengths, type Packing } from "./attention.js";
import { block, embedTokens, linear, type ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { copyCachePrefix } from "./kv-cache.js";
import type { LayerActivations, Workspace } from "./workspace.js";

/** Where the new rows go: sequence s's block is at float slots[s] of `cache` and already holds pasts[s] tokens. */
export interface ChunkTargets {
  readonly cache: Float32Array;
  readonly slots: readonly number[];
  readonly pasts: readonly number[];
}

/**
 * Which chunks share a prefill: sources[s] is the first chunk with the same tokens as chunk s when neither
 * extends a cached prefix (pasts 0), else s itself. Depends on the chunks alone.
 */
export function sharedSources(chunks: readonly ArrayLike<number>[], pasts: readonly number[]): number[] {
  const first = new Map<string, number>();
  return chunks.map((chunk, s) => {
    if (pasts[s] !== 0) return s;
    const key = Array.prototype.join.call(chunk, ",");
    const source = first.get(key);
    if (source !== undefined) return source;
    first.set(key, s);
    return s;
  });
}

/** The chunks a prefill computes (their own source), and their packing. */
export function computedChunks(
  lengths: readonly number[],
  sources: readonly number[],
): { own: number[]; packing: Packing } {
  const own = lengths.map((_, s) => s).filter((s) => sources[s] === s);
  return { own, packing: packLengths(own.map((s) => lengths[s]!)) };
}

/**
 * Rotated keys and values of `layer` for `rows` rows into a.qkv (columns C..3C), then into the cache. The
 * queries are skipped when they fill whole weight panels (C a multiple of 8), else computed too.
 */
function cacheKeysValues(
  kernels: Kernels,
  model: ModelViews,
  layer: number,
  a: LayerActivations,
  workspace: Workspace,
  rows: number,
  packing: Packing,
  targets: ChunkTargets,
): void {
  const { dModel: C, heads: H, normEps } = model.config;
  kernels.rmsnormForward(a.xn1, a.rstd1, a.xIn, model.weights.layers[layer]!.attnNorm, rows, C, normEps);
  const wT = model.transposed.layers[layer]!.qkv;
  if (C % 8 === 0)
    kernels.gemmPanels(a.qkv.subarray(C), 3 * C, a.xn1, C, 1, wT.subarray(C * C), 8 * C, rows, 2 * C, C, false);
  else linear(kernels, a.qkv, a.xn1, wT, rows, 3 * C, C, false);
  kernels.rope(a.qkv.subarray(C), rows, 3 * C, H, C / H, model.cos, model.sin, workspace.positions, false);
  fillCache(kernels, model.config, workspace, targets.cache, packing, targets.slots, targets.pasts, layer);
}

/**
 * Prefills chunks (lengths[s] tokens of chunk s extend the sequence at targets.slots[s]); the chunks that are
 * their own source (sharedSources; all of them without `sources`) are packed in the workspace (tokens and
 * absolute positions) in computedChunks order. Returns the final residual stream of each chunk's last row:
 * row s of workspace.xOut.
 */
export function prefill(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  lengths: readonly number[],
  targets: ChunkTargets,
  sources: readonly number[] = lengths.map((_, s) => s),
): Float32Array {
  const { dModel: C, layers: L } = model.config;
  const { own, packing } = computedChunks(lengths, sources);
  const computed = {
    cache: targets.cache,
    slots: own.map((s) => targets.slots[s]!),
    pasts: own.map((s) => targets.pasts[s]!),
  };
  const rows = packing.lengths.reduce((sum, n) => sum + n, 0);
  embedTokens(model, workspace, rows);
  const attend = attendChunks(kernels, model, workspace, packing, computed.cache, computed.slots, computed.pasts);
  for (let l = 0; l + 1 < L; l++)
    block(kernels, model, l, workspace.layers[l]!, workspace.layers[l + 1]!.xIn, workspace, rows, attend, false);
  const last = workspace.layers[L - 1]!;
  cacheKeysValues(kernels, model, L - 1, last, workspace, rows, packing, computed);
  // Each chunk's last row (its source's) enters the last block as a decoding step in its own block.
  const packedIndex = new Map(own.map((s, k) => [s, k]));
  const lastRows = new Float32Array(lengths.length * C);
  lengths.forEach((n, s) => {
    const k = packedIndex.get(sources[s]!)!;
    const row = packing.starts[k]! + n - 1;
    lastRows.set(last.xIn.subarray(row * C, (row + 1) * C), s * C);
    workspace.positions[s] = targets.pasts[s]! + n - 1;
    if (sources[s] !== s)
      copyCachePrefix(
        model.config,
        targets.cache,
        targets.slots[sources[s]!]!,
        targets.slots[s]!,
        targets.pasts[s]! + n,
      );
  });
  last.xIn.set(lastRows);
  // The decoding step recomputes the last rows' keys and values (bit-identical: matmul rows are independent).
  block(
    kernels,
    model,
    L - 1,
    last,
    workspace.xOut,
    workspace,
    lengths.length,
    attendCache(kernels, model, workspace, targets.cache, targets.slots),
    false,
  );
  return workspace.xOut;
}
