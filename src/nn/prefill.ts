// Prompt prefill for sampling: every new prompt row goes through the blocks so that its keys and values of
// every layer land in its sequence's KV cache, but past that only each prompt's last row matters (it gives
// the first new token's logits). So all layers but the last run on every row (chunk attention: the new rows
// attend to the cached tokens before them and to each other), the last layer computes keys and values alone
// for every row (no queries, no attention, no MLP), caches them, and then runs as a decoding step on the last
// rows. A prompt that extends a cached sequence is a chunk at positions past.. (src/nn/kv-cache.ts).
import { attendCache, attendChunks, fillCache, type Packing } from "./attention.js";
import { block, embedTokens, linear, type ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import type { LayerActivations, Workspace } from "./workspace.js";

/** Where the new rows go: sequence s's block is at float slots[s] of `cache` and already holds pasts[s] tokens. */
export interface ChunkTargets {
  readonly cache: Float32Array;
  readonly slots: readonly number[];
  readonly pasts: readonly number[];
}

/**
 * Rotated keys and values of `layer` for `rows` rows into a.qkv (columns C..3C), then into the cache. The
 * queries are skipped when they fill whole weight panels (C a multiple of 8), else computed too.
 */
function cacheKeysValues(kernels: Kernels, model: ModelViews, layer: number, a: LayerActivations, workspace: Workspace, rows: number,
  packing: Packing, targets: ChunkTargets): void {
  const { dModel: C, heads: H, normEps } = model.config;
  kernels.rmsnormForward(a.xn1, a.rstd1, a.xIn, model.weights.layers[layer]!.attnNorm, rows, C, normEps);
  const wT = model.transposed.layers[layer]!.qkv;
  if (C % 8 === 0) kernels.gemmPanels(a.qkv.subarray(C), 3 * C, a.xn1, C, 1, wT.subarray(C * C), 8 * C, rows, 2 * C, C, false);
  else linear(kernels, a.qkv, a.xn1, wT, rows, 3 * C, C, false);
  kernels.rope(a.qkv.subarray(C), rows, 3 * C, H, C / H, model.cos, model.sin, workspace.positions, false);
  fillCache(kernels, model.config, workspace, targets.cache, packing, targets.slots, targets.pasts, layer);
}

/**
 * Prefills packed chunks (tokens and absolute positions in the workspace; chunk s extends the sequence at
 * targets.slots[s]). Returns the final residual stream of each chunk's last row: row s of workspace.xOut.
 */
export function prefill(kernels: Kernels, model: ModelViews, workspace: Workspace, packing: Packing, targets: ChunkTargets): Float32Array {
  const { dModel: C, layers: L } = model.config;
  const rows = packing.lengths.reduce((sum, n) => sum + n, 0);
  embedTokens(model, workspace, rows);
  const attend = attendChunks(kernels, model, workspace, packing, targets.cache, targets.slots, targets.pasts);
  for (let l = 0; l + 1 < L; l++) block(kernels, model, l, workspace.layers[l]!, workspace.layers[l + 1]!.xIn, workspace, rows, attend, false);
  const last = workspace.layers[L - 1]!;
  cacheKeysValues(kernels, model, L - 1, last, workspace, rows, packing, targets);
  packing.lengths.forEach((n, s) => {
    const row = packing.starts[s]! + n - 1;
    last.xIn.copyWithin(s * C, row * C, (row + 1) * C);
    workspace.positions[s] = targets.pasts[s]! + n - 1;
  });
  // The decoding step recomputes the last rows' keys and values (bit-identical: matmul rows are independent).
  block(kernels, model, L - 1, last, workspace.xOut, workspace, packing.lengths.length, attendCache(kernels, model, workspace, targets.cache, targets.slots), false);
  return workspace.xOut;
}
