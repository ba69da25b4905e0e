// Sampling as shard jobs, with KV-cache sessions. Each prompt runs in a KV-cache block: its session's (kept
// between calls) or a temporary one. A prompt is always the whole sequence to continue; the tokens at the
// start of it that its session already caches (their common prefix, src/nn/kv-cache.ts) are not computed
// again, only the rest is prefilled. So a multi-turn conversation sampled turn by turn in one session
// prefills each turn's new tokens once. Prompts of one call that are the same tokens over an empty cache (the
// samples of one task at their first turn) share one prefill within a shard (prefill.ts).
//
// Determinism: a sequence's tokens depend on its prompts so far in its session, its seeds and the weights,
// never on its batch-mates, shards or threads (no kernel mixes rows).
//
// Resuming (generate.ts): with `resume`, every prompt is its session's sequence so far, the last token being
// the one the previous call sampled (the session caches all the others), and sampling goes on from the stream
// state that call ended with: a reply sampled k tokens per call equals the reply of one call, bit for bit.
import { BudgetrlError } from "../core/errors.js";
import { checkTokens } from "./batch.js";
import type { Generated, GenerateOptions, RngState } from "./generate.js";
import type { Job } from "./jobs.js";
import { penalises, type Penalties, type PenaltyHistory } from "./penalties.js";
import { createCachePool, reusableLength, type CachePool, type KvSession, type SessionState } from "./kv-cache.js";
import { sharedSources } from "./prefill.js";
import type { ModelRuntime } from "./runtime.js";
import { ensureWorkspace, shardRanges, type WorkspaceSlot } from "./shards.js";
import { END } from "./tokenizer.js";
import { freeWorkspace } from "./workspace.js";

/** What a prompt's decoding steps weigh against its prefill rows when splitting a call over the shards. */
const DECODE_WEIGHT = 8;

export interface SampleOptions {
  readonly maxNewTokens: number;
  /** Default 1; 0 is greedy. */
  readonly temperature?: number;
  /** Default 1 (no truncation). */
  readonly topP?: number;
  /** Keep the k most likely tokens; default 0 (all). */
  readonly topK?: number;
  /** Keep tokens at least minP times as likely as the most likely; default 0 (all). */
  readonly minP?: number;
  /** Logit biases and repetition penalties (penalties.ts); default none. */
  readonly penalties?: Penalties;
  /** Per prompt, where the reply so far starts in it (the tokens before are the prompt, for the penalties); default
   * its length (no reply yet). */
  readonly replyStarts?: readonly number[];
  /** Default [END]. */
  readonly stopTokens?: readonly number[];
  /** Token sequences that end a sequence when its sampled tokens end with one (default none). */
  readonly stopSequences?: readonly (readonly number[])[];
  /** Stop tokens masked out, and nothing stops a sequence, before it has this many new tokens (default 0). */
  readonly minNewTokens?: number;
  /** The most likely tokens reported per sampled token (Generated.alternatives); default 0. */
  readonly topLogprobs?: number;
  /** Per prompt, the stream state of the call it continues (Generated.rngState); all prompts or none (see the header). */
  readonly resume?: readonly RngState[];
  /** Per prompt, the tokens its first sampled token may be (1: allowed), or undefined. */
  readonly masks?: readonly (Uint8Array | undefined)[];
  /** One seed per prompt: a sequence's tokens depend only on its prompt, its seed and the weights. */
  readonly seeds: readonly number[];
  /** Per prompt, a session of this model to sample in (undefined: a temporary cache); each at most once per call. */
  readonly sessions?: readonly (KvSession | undefined)[];
}

/** What the penalties of each prompt read: the tokens before its reply start, and the reply so far. */
function histories(prompts: readonly (readonly number[])[], options: SampleOptions): PenaltyHistory[] {
  const repetition = options.penalties?.repetition !== 1;
  return prompts.map((prompt, i) => {
    const start = options.replyStarts?.[i] ?? prompt.length;
    return { prompt: repetition ? prompt.slice(0, start) : [], reply: prompt.slice(start) };
  });
}

/** Tokens the model has run, by kind, since it was created (rows of the forward passes). */
export interface Sampler {
  sample(prompts: readonly (readonly number[])[], options: SampleOptions): Promise<Generated[]>;
  openSession(): KvSession;
  /** Frees the workspaces and every cache block (open sessions are closed). */
  free(): void;
}

function resolveOptions(options: SampleOptions, prompts: number): GenerateOptions {
  const resolved: GenerateOptions = {
    maxNewTokens: options.maxNewTokens,
    temperature: options.temperature ?? 1,
    topP: options.topP ?? 1,
    stopTokens: options.stopTokens ?? [END],
    ...(options.stopSequences === undefined || options.stopSequences.length === 0
      ? {}
      : { stopSequences: options.stopSequences }),
    ...(options.minNewTokens === undefined || options.minNewTokens === 0 ? {} : { minNewTokens: options.minNewTokens }),
    ...(options.topLogprobs === undefined || options.topLogprobs === 0 ? {} : { topLogprobs: options.topLogprobs }),
    ...(options.topK === undefined || options.topK === 0 ? {} : { topK: options.topK }),
    ...(options.minP === undefined || options.minP === 0 ? {} : { minP: options.minP }),
    ...(penalises(options.penalties) ? { penalties: options.penalties } : {}),
  };
  if (!(Number.isInteger(resolved.topK ?? 0) && (resolved.topK ?? 0) >= 0))
    throw new BudgetrlError("nn:bad-sample", `topK must be a non-negative integer, got ${resolved.topK}`);
  if (!((resolved.minP ?? 0) >= 0 && (resolved.minP ?? 0) <= 1))
    throw new BudgetrlError("nn:bad-sample", `minP must be in [0, 1], got ${resolved.minP}`);
  if (resolved.penalties !== undefined && !(resolved.penalties.repetition > 0))
    throw new BudgetrlError(
      "nn:bad-sample",
      `the repetition penalty must be > 0, got ${resolved.penalties.repetition}`,
    );
  if (options.replyStarts !== undefined && options.replyStarts.length !== prompts)
    throw new BudgetrlError(
      "nn:bad-sample",
      `need one reply start per prompt: ${prompts} prompts, ${options.replyStarts.length} starts`,
    );
  if (!(Number.isInteger(resolved.minNewTokens ?? 0) && (resolved.minNewTokens ?? 0) >= 0))
    throw new BudgetrlError(
      "nn:bad-sample",
      `minNewTokens must be a non-negative integer, got ${resolved.minNewTokens}`,
    );
  if (!(Number.isInteger(resolved.topLogprobs ?? 0) && (resolved.topLogprobs ?? 0) >= 0))
    throw new BudgetrlError("nn:bad-sample", `topLogprobs must be a non-negative integer, got ${resolved.topLogprobs}`);
  if (options.resume !== undefined && options.resume.length !== prompts)
    throw new BudgetrlError(
      "nn:bad-sample",
      `need one stream state per prompt to resume: ${prompts} prompts, ${options.resume.length} states`,
    );
  if (options.masks !== undefined && options.masks.length !== prompts)
    throw new BudgetrlError(
      "nn:bad-sample",
      `need one mask (or undefined) per prompt: ${prompts} prompts, ${options.masks.length} masks`,
    );
  if (!(Number.isInteger(resolved.maxNewTokens) && resolved.maxNewTokens >= 0))
    throw new BudgetrlError(
      "nn:bad-sample",
      `maxNewTokens must be a non-negative integer, got ${resolved.maxNewTokens}`,
    );
  if (!(resolved.temperature >= 0))
    throw new BudgetrlError("nn:bad-sample", `temperature must be >= 0, got ${resolved.temperature}`);
  if (!(resolved.topP > 0 && resolved.topP <= 1))
    throw new BudgetrlError("nn:bad-sample", `topP must be in (0, 1], got ${resolved.topP}`);
  if (options.seeds.length !== prompts)
    throw new BudgetrlError(
      "nn:bad-sample",
      `need one seed per prompt: ${prompts} prompts, ${options.seeds.length} seeds`,
    );
  if (options.sessions !== undefined && options.sessions.length !== prompts)
    throw new BudgetrlError(
      "nn:bad-sample",
      `need one session (or undefined) per prompt: ${prompts} prompts, ${options.sessions.length} sessions`,
    );
  return resolved;
}

/** What a sampler's calls share: the model's runtime, its cache blocks, its sessions' states, a workspace per shard. */
interface SamplerState {
  readonly context: ModelRuntime;
  readonly caches: CachePool;
  readonly states: WeakMap<KvSession, SessionState>;
  readonly slots: WorkspaceSlot[];
}

/** A prompt's cache state: its session's, or a temporary one (given back after the call). */
interface PromptRun {
  readonly state: SessionState;
  readonly temporary: boolean;
}

/** Where a call's prompts start computing: the tokens to run of each, and how many its cache already holds. */
interface PromptChunks {
  readonly chunks: Int32Array[];
  readonly pasts: number[];
}

/** Refuses an empty prompt, one that fills the context, or one with tokens outside the vocabulary. */
function checkPrompts(config: ModelRuntime["config"], prompts: readonly (readonly number[])[]): void {
  prompts.forEach((p, i) => {
    if (p.length === 0 || p.length >= config.contextLength) {
      throw new BudgetrlError(
        "nn:too-long",
        `prompt ${i} has ${p.length} tokens; it needs 1..${config.contextLength - 1}`,
        "keep the newest tokens that fit (the tiny policy does)",
      );
    }
    checkTokens(config, `prompts[${i}]`, p, false);
  });
}

/** The cache state each prompt runs in: its session's, or a temporary one. */
function statesFor(
  sampler: SamplerState,
  sessions: readonly (KvSession | undefined)[] | undefined,
  count: number,
): PromptRun[] {
  const seen = new Set<SessionState>();
  return Array.from({ length: count }, (_, i) => {
    const session = sessions?.[i];
    if (session === undefined) return { state: { block: undefined, cached: [], closed: false }, temporary: true };
    const state = sampler.states.get(session);
    if (state === undefined) throw new BudgetrlError("nn:bad-session", `sessions[${i}] belongs to another model`);
    if (state.closed) throw new BudgetrlError("nn:bad-session", `sessions[${i}] is closed`);
    if (seen.has(state))
      throw new BudgetrlError("nn:bad-session", `sessions[${i}] appears twice in one call`, "one sequence per session");
    seen.add(state);
    return { state, temporary: false };
  });
}

/** Refuses to resume a prompt whose session does not cache every token but the last. */
function checkResumable(
  runs: readonly PromptRun[],
  pasts: readonly number[],
  prompts: readonly (readonly number[])[],
): void {
  pasts.forEach((past, i) => {
    if (runs[i]!.temporary || past !== prompts[i]!.length - 1) {
      throw new BudgetrlError(
        "nn:bad-resume",
        `prompt ${i} cannot be resumed: its session must cache every token but the last (the one the previous call sampled); it caches ${past} of ${prompts[i]!.length}`,
      );
    }
  });
}

/** The call's work split over the shards: one generate job each, its prefills shared within it. */
function shardJobs(
  sampler: SamplerState,
  prompts: readonly (readonly number[])[],
  options: SampleOptions,
  generate: GenerateOptions,
  runs: readonly PromptRun[],
  { chunks, pasts }: PromptChunks,
): { jobs: Job[]; sources: number[][] } {
  const { config, heap, memory, shards } = sampler.context;
  const rowHistories = generate.penalties === undefined ? undefined : histories(prompts, options);
  // Work per prompt: its prefill rows (none when it shares another's), and a few decoding steps.
  const shared = sharedSources(chunks, pasts);
  const ranges = shardRanges(
    chunks.map((chunk, i) => (shared[i] === i ? chunk.length : 0) + DECODE_WEIGHT),
    shards,
  );
  // Prefills are shared within a shard (its first prompt with those tokens computes them).
  const sources = ranges.map(([first, end]) => sharedSources(chunks.slice(first, end), pasts.slice(first, end)));
  // Rows: the computed chunks' rows, and at least one per prompt (the decoding steps).
  const workspaces = ranges.map(([first, end], s) =>
    ensureWorkspace(
      heap,
      config,
      sampler.slots[s]!,
      chunks.slice(first, end).map((c, i) => (sources[s]![i] === i ? c.length : 1)),
      "sample",
    ),
  );
  // A view from the heap's first float, made after every allocation: the kernels address blocks by offset.
  const cache = new Float32Array(heap.memory.buffer);
  const jobs: Job[] = ranges.map(([first, end], s) => ({
    kind: "generate",
    model: memory.views,
    workspace: workspaces[s]!,
    chunks: chunks.slice(first, end),
    seeds: options.seeds.slice(first, end),
    options: generate,
    sources: sources[s]!,
    targets: {
      cache,
      slots: runs.slice(first, end).map(({ state }) => state.block!.byteOffset / 4),
      pasts: pasts.slice(first, end),
    },
    ...(options.resume === undefined && options.masks === undefined && rowHistories === undefined
      ? {}
      : {
          rows: {
            ...(options.resume === undefined ? {} : { resume: options.resume.slice(first, end) }),
            ...(options.masks === undefined ? {} : { masks: options.masks.slice(first, end) }),
            ...(rowHistories === undefined ? {} : { histories: rowHistories.slice(first, end) }),
          },
        }),
  }));
  return { jobs, sources };
}

/** Counts the tokens run and records what each session now caches. */
function recordResults(
  sampler: SamplerState,
  prompts: readonly (readonly number[])[],
  options: SampleOptions,
  generate: GenerateOptions,
  runs: readonly PromptRun[],
  chunks: readonly Int32Array[],
  sources: readonly number[][],
  results: readonly Generated[],
): void {
  const { counts } = sampler.context;
  const ownPrefill = sources.flatMap((shard) => shard.map((source, i) => source === i));
  const resumed = options.resume !== undefined;
  results.forEach((result, i) => {
    // A resumed prompt's one token runs as a decoding step.
    counts.prefill += generate.maxNewTokens > 0 && ownPrefill[i] && !resumed ? chunks[i]!.length : 0;
    counts.decode += Math.max(0, result.tokens.length - (resumed ? 0 : 1));
    if (generate.maxNewTokens > 0 && !runs[i]!.state.closed)
      runs[i]!.state.cached = [...prompts[i]!, ...result.tokens.slice(0, -1)];
  });
}

async function sample(
  sampler: SamplerState,
  prompts: readonly (readonly number[])[],
  options: SampleOptions,
): Promise<Generated[]> {
  const generate = resolveOptions(options, prompts.length);
  checkPrompts(sampler.context.config, prompts);
  const runs = statesFor(sampler, options.sessions, prompts.length);
  const pasts = runs.map(({ state }, i) => reusableLength(state.cached, prompts[i]!));
  if (options.resume !== undefined) checkResumable(runs, pasts, prompts);
  runs.forEach(({ state }, i) => {
    state.block ??= sampler.caches.take();
    state.cached = prompts[i]!.slice(0, pasts[i]); // what stays valid if the call fails
  });
  const chunks = prompts.map((p, i) => Int32Array.from(p.slice(pasts[i])));
  try {
    const { jobs, sources } = shardJobs(sampler, prompts, options, generate, runs, { chunks, pasts });
    const results = (await sampler.context.pool.runAll(jobs)).flatMap((r) => (r.kind === "generated" ? r.results : []));
    recordResults(sampler, prompts, options, generate, runs, chunks, sources, results);
    return results;
  } finally {
    for (const { state, temporary } of runs)
      if (temporary && state.block !== undefined) sampler.caches.give(state.block);
  }
}

export function createSampler(context: ModelRuntime): Sampler {
  const { config, heap, shards } = context;
  const sampler: SamplerState = {
    context,
    caches: createCachePool(heap, config),
    states: new WeakMap<KvSession, SessionState>(),
    slots: Array.from({ length: shards }, () => ({ workspace: undefined })),
  };
  return {
    sample: (prompts, options) => sample(sampler, prompts, options),
    openSession: () => {
      const { session, state } = sampler.caches.open();
      sampler.states.set(session, state);
      return session;
    },
    free: () => {
      for (const slot of sampler.slots) if (slot.workspace !== undefined) freeWorkspace(heap, slot.workspace);
      sampler.caches.dispose();
    },
  };
}
