// KV caches, one heap block per sequence, and sessions: a sequence whose block outlives a sample() call, so
// that the next call only computes the tokens that do not extend what is cached (a multi-turn episode
// prefills each turn's new tokens, not the whole conversation again).
//
// Block layout (the kernels' contract, src/nn/wasm/attention.ts): per layer, the keys then the values,
// dModel * P floats each, P = cachePositions(contextLength); within them head h starts at h * headDim * P.
// Kernels address a block by its float offset in the heap (a view whose byteOffset is 0), so one decoding
// call serves sequences whose blocks lie anywhere. Blocks are recycled through a pool: a freed block is kept
// (not zeroed: positions past a sequence's length are never read) until the model is disposed.
import { BudgetrlError } from "../core/errors.js";
import type { ModelConfig } from "./config.js";
import type { Heap } from "./heap.js";
import { cachePositions } from "./kernels/types.js";

/** Floats in one sequence's block. */
export function cacheFloats(config: ModelConfig): number {
  return config.layers * 2 * config.dModel * cachePositions(config.contextLength);
}

/** Offset of a layer's keys within a block (its values follow at + dModel * P). */
export function layerOffset(config: ModelConfig, layer: number): number {
  return layer * 2 * config.dModel * cachePositions(config.contextLength);
}

/**
 * Copies positions 0..n-1 of every layer from the block at float offset `from` to the block at `to` (both in
 * `cache`, a view from the heap's first float): keys in whole panels of 8 positions, values row by row.
 */
export function copyCachePrefix(config: ModelConfig, cache: Float32Array, from: number, to: number, n: number): void {
  const { dModel: C, heads: H, layers: L } = config;
  const P = cachePositions(config.contextLength);
  const hd = C / H;
  const keyFloats = Math.ceil(n / 8) * 8 * hd;
  for (let l = 0; l < L; l++) {
    for (let h = 0; h < H; h++) {
      const keys = layerOffset(config, l) + h * hd * P;
      const values = keys + C * P;
      cache.copyWithin(to + keys, from + keys, from + keys + keyFloats);
      cache.copyWithin(to + values, from + values, from + values + n * hd);
    }
  }
}

/** The keys and values of one layer of the block at float offset `slot` of `cache`. */
export function layerCache(
  config: ModelConfig,
  cache: Float32Array,
  slot: number,
  layer: number,
): { keys: Float32Array; values: Float32Array } {
  const size = config.dModel * cachePositions(config.contextLength);
  const start = slot + layerOffset(config, layer);
  return { keys: cache.subarray(start, start + size), values: cache.subarray(start + size, start + 2 * size) };
}

/**
 * A sequence kept in the KV cache between sample() calls. `cached` are the tokens whose keys and values the
 * block holds: the last prompt and the tokens sampled after it, except the last sampled one (it has not been
 * fed to the model yet). Close it to return its block to the model.
 */
export interface KvSession {
  readonly cached: readonly number[];
  readonly closed: boolean;
  close(): void;
}

/** Cached tokens a new prompt can keep: their common prefix, leaving at least the prompt's last token to run. */
export function reusableLength(cached: readonly number[], prompt: readonly number[]): number {
  const limit = Math.min(cached.length, prompt.length - 1);
  let n = 0;
  while (n < limit && cached[n] === prompt[n]) n++;
  return n;
}

/** Where one sequence of a sample() call lives: its block, and a session's state. */
export interface SessionState {
  block: Float32Array | undefined;
  cached: number[];
  closed: boolean;
}

export interface CachePool {
  /** A block for one sequence (recycled when possible). */
  take(): Float32Array;
  give(block: Float32Array): void;
  /** A session whose block is taken on first use and given back on close. */
  open(): { session: KvSession; state: SessionState };
  /** Frees every block; sessions still open are closed. */
  dispose(): void;
}

export function createCachePool(heap: Heap, config: ModelConfig): CachePool {
  const spare: Float32Array[] = [];
  const open = new Set<SessionState>();
  let disposed = false;
  const pool: CachePool = {
    take: () => {
      if (disposed) throw new BudgetrlError("nn:disposed", "this model was disposed");
      return spare.pop() ?? heap.allocFloats(cacheFloats(config), false);
    },
    give: (block) => void spare.push(block),
    open: () => {
      const state: SessionState = { block: undefined, cached: [], closed: false };
      open.add(state);
      const session: KvSession = {
        get cached() {
          return state.cached;
        },
        get closed() {
          return state.closed;
        },
        close() {
          if (state.closed) return;
          state.closed = true;
          state.cached = [];
          open.delete(state);
          if (state.block !== undefined && !disposed) pool.give(state.block);
          state.block = undefined;
        },
      };
      return { session, state };
    },
    dispose: () => {
      if (disposed) return;
      for (const state of open) {
        state.closed = true;
        if (state.block !== undefined) spare.push(state.block);
        state.block = undefined;
      }
      open.clear();
      disposed = true;
      for (const block of spare.splice(0)) heap.free(block);
    },
  };
  return pool;
}
