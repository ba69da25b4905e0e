// What the training passes (passes.ts) and the sampler (sampling.ts) of one model share: its config, the
// WebAssembly heap, the thread pool, the weights' memory, the shard count and the running token counts.
import type { ModelConfig } from "./config.js";
import type { Heap } from "./heap.js";
import type { ModelMemory } from "./memory.js";
import type { Pool } from "./pool.js";

/** Tokens run so far, by kind. */
export interface TokenCounts {
  /** Prompt tokens prefilled for sampling (what a session already cached, or a shared prefill, is not counted). */
  prefill: number;
  /** Sampled tokens fed back in decoding steps. */
  decode: number;
  /** Training forward passes (each also runs backward once at most). */
  train: number;
  /** Scoring passes (log-probs without gradient). */
  score: number;
}

export interface ModelRuntime {
  readonly config: ModelConfig;
  readonly heap: Heap;
  readonly pool: Pool;
  readonly memory: ModelMemory;
  readonly shards: number;
  readonly counts: TokenCounts;
}
