// Batched autoregressive sampling for one shard: prefill every prompt's new tokens at once (packed rows, keys
// and values go to each sequence's KV cache, after what it already holds), then one decoding step per new
// token for the sequences still running. Each sequence draws from its own stream seeded by its own seed, and
// no kernel mixes rows, so a sequence's tokens do not depend on which other sequences share its batch or its
// thread.
//
// Resuming: a call can go on where an earlier call of the same sequences stopped (one token at a time, for a
// server that streams or constrains each token): each chunk is then the one token its sequence sampled last,
// with everything before it cached, and it runs as the decoding step the earlier call's loop would have run
// next, drawing on from the stream state that call ended with (Generated.rngState). Sampling a reply in k such
// calls gives the tokens and log-probs of one call, bit for bit.
//
// Stopping: a sampled stop token, or sampled tokens ending with a stop sequence, end a sequence ("stop"), but
// only once it has minNewTokens tokens; before that, stop tokens are masked out. `masks` restrict the first token
// a sequence samples in this call (constrained decoding, one token per call).
//
// Penalties (penalties.ts: logit biases, repetition, presence and frequency penalties) change the logits a token
// is drawn from, read from each sequence's history (its prompt and reply so far: `histories`, the reply growing
// with each token sampled); its log-probs stay the model's own.
import { createRng, rngFromState, type Rng } from "../core/rng.js";
import { attendCache } from "./attention.js";
import { forwardBlocks, forwardHead, type ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { computedChunks, prefill, type ChunkTargets } from "./prefill.js";
import { penalisedLogits, penalises, type Penalties, type PenaltyHistory } from "./penalties.js";
import {
  alternatives,
  chooseToken,
  prepareRow,
  samplingLogprobs,
  type Alternative,
  type Choice,
  type PreparedRow,
  type SamplingParams,
  type TokenMask,
} from "./sampler.js";
import type { Workspace } from "./workspace.js";

export interface GenerateOptions extends SamplingParams {
  readonly maxNewTokens: number;
  /** Sampling one of these ends the sequence (the stop token is kept in the output). */
  readonly stopTokens: readonly number[];
  /** Sampled tokens ending with one of these end the sequence (kept in the output); default none. */
  readonly stopSequences?: readonly (readonly number[])[];
  /** Before a sequence has this many new tokens, stop tokens are masked out and nothing stops it (default 0). */
  readonly minNewTokens?: number;
  /** How many of each step's most likely tokens to report (Generated.alternatives); default 0. */
  readonly topLogprobs?: number;
  /** Biases and penalties applied before each draw (penalties.ts); default none. */
  readonly penalties?: Penalties;
}

/** A random stream's state (Rng.snapshot()). */
export type RngState = readonly [number, number, number, number];

/** Per sequence of a call: where an earlier call left it (resume), and a mask for its first token. */
export interface RowOptions {
  /** The stream state an earlier call ended with: the chunk is that call's last sampled token (see the header). */
  readonly resume?: readonly (RngState | undefined)[];
  readonly masks?: readonly (TokenMask | undefined)[];
  /** What the penalties read: the sequence's prompt and its reply before this call (needed with penalties). */
  readonly histories?: readonly (PenaltyHistory | undefined)[];
}

export type FinishReason = "stop" | "length" | "context";

export interface Generated {
  readonly tokens: number[];
  /** log p(token) under the model at temperature 1. */
  readonly logprobs: number[];
  /** log-prob under the distribution sampled from (temperature, top-p); 0 for greedy. */
  readonly samplingLogprobs: number[];
  /** Per sampled token, the step's topLogprobs most likely tokens (when asked). */
  readonly alternatives?: Alternative[][];
  finish: FinishReason;
  /** The sequence's random stream after this call (to resume it). */
  rngState?: RngState;
}

function endsWithAny(tokens: readonly number[], sequences: readonly (readonly number[])[]): boolean {
  return sequences.some(
    (sequence) =>
      sequence.length > 0 &&
      sequence.length <= tokens.length &&
      sequence.every((token, i) => tokens[tokens.length - sequence.length + i] === token),
  );
}

/** The mask of a step: the row's own (if any), without the stop tokens while the sequence is shorter than minNewTokens. */
function stepMask(
  out: Generated,
  options: GenerateOptions,
  own: TokenMask | undefined,
  vocab: number,
): TokenMask | undefined {
  if (out.tokens.length >= (options.minNewTokens ?? 0) || options.stopTokens.length === 0) return own;
  const mask = own === undefined ? new Uint8Array(vocab).fill(1) : Uint8Array.from(own);
  for (const token of options.stopTokens) if (token >= 0 && token < vocab) mask[token] = 0;
  return mask;
}

/** The draw of a row, and its alternatives when asked: from the penalised logits when there are penalties. */
function draw(
  out: Generated,
  logits: Float32Array,
  prepared: PreparedRow,
  options: GenerateOptions,
  rng: Rng,
  mask: TokenMask | undefined,
  history: PenaltyHistory | undefined,
): Choice {
  const k = options.topLogprobs ?? 0;
  if (!penalises(options.penalties)) {
    if (k > 0) out.alternatives!.push(alternatives(logits, options, prepared, k, mask));
    return chooseToken(logits, options, rng, prepared, mask);
  }
  const reply = [...(history?.reply ?? []), ...out.tokens];
  const penalised = penalisedLogits(logits, options.penalties, history?.prompt ?? [], reply);
  const row = prepareRow(penalised, options.temperature);
  if (k > 0) {
    const sampling = samplingLogprobs(penalised, options, row, mask);
    out.alternatives!.push(
      alternatives(logits, options, prepared, k, mask).map((alt) => ({ ...alt, samplingLogprob: sampling(alt.token) })),
    );
  }
  const choice = chooseToken(penalised, options, rng, row, mask);
  return { ...choice, logprob: logits[choice.token]! - prepared.modelLse };
}

/**
 * Samples the next token of a sequence that has `length` tokens so far; returns whether it goes on. A
 * sequence stops at a stop token, at maxNewTokens, or when it fills the context (prompt + answer <= T, so
 * the whole sequence can still be scored and trained on).
 */
function pick(
  out: Generated,
  logits: Float32Array,
  prepared: PreparedRow,
  options: GenerateOptions,
  rng: Rng,
  length: number,
  contextLength: number,
  own?: TokenMask,
  history?: PenaltyHistory,
): boolean {
  const mask = stepMask(out, options, own, logits.length);
  const choice = draw(out, logits, prepared, options, rng, mask, history);
  out.tokens.push(choice.token);
  out.logprobs.push(choice.logprob);
  out.samplingLogprobs.push(choice.samplingLogprob);
  const stopping = out.tokens.length >= (options.minNewTokens ?? 0);
  if (stopping && (options.stopTokens.includes(choice.token) || endsWithAny(out.tokens, options.stopSequences ?? [])))
    out.finish = "stop";
  else if (out.tokens.length >= options.maxNewTokens) out.finish = "length";
  else if (length + 1 >= contextLength) out.finish = "context";
  else return true;
  return false;
}

/** What the steps of one shard's call share. */
interface ShardRun {
  readonly kernels: Kernels;
  readonly model: ModelViews;
  readonly workspace: Workspace;
  readonly targets: ChunkTargets;
  readonly options: GenerateOptions;
  readonly rows: RowOptions;
  readonly results: Generated[];
  readonly rngs: Rng[];
  /** Per sequence, its length after the chunk (what it holds before its new tokens). */
  readonly filled: number[];
}

/** Prefills the chunks that compute their own rows (the others share theirs) into the sequences' caches. */
function prefillChunks(run: ShardRun, chunks: readonly Int32Array[], sources: readonly number[]): void {
  const { kernels, model, workspace, targets } = run;
  const lengths = chunks.map((p) => p.length);
  const { own, packing } = computedChunks(lengths, sources);
  own.forEach((s, k) => {
    const p = chunks[s]!;
    workspace.tokens.set(p, packing.starts[k]!);
    for (let i = 0; i < p.length; i++) workspace.positions[packing.starts[k]! + i] = targets.pasts[s]! + i;
  });
  prefill(kernels, model, workspace, lengths, targets, sources);
}

/** The decoding step of each sequence's last sampled token, as the earlier call would have run it. */
function replayLastTokens(run: ShardRun, chunks: readonly Int32Array[]): void {
  const { kernels, model, workspace, targets } = run;
  chunks.forEach((chunk, r) => {
    workspace.tokens[r] = chunk[0]!;
    workspace.positions[r] = targets.pasts[r]!;
  });
  forwardBlocks(
    kernels,
    model,
    workspace,
    chunks.length,
    attendCache(kernels, model, workspace, targets.cache, targets.slots),
    false,
  );
}

/** Logits of the first `rows` rows of workspace.xOut, and what sampling needs from them. */
function head(run: ShardRun, rows: number): (r: number) => [Float32Array, PreparedRow] {
  const { kernels, model, workspace, options } = run;
  const V = model.config.vocabSize;
  const logits = forwardHead(kernels, model, workspace, workspace.xOut, rows);
  const { sampleWeights: weights, sampleStats: stats } = workspace;
  kernels.samplingWeights(weights, stats, logits, rows, V, options.temperature > 0 ? options.temperature : 1);
  return (r) => [
    logits.subarray(r * V, (r + 1) * V),
    { weights: weights.subarray(r * V, (r + 1) * V), modelLse: stats[2 * r]!, sum: stats[2 * r + 1]! },
  ];
}

/** One decoding step of the active sequences (each runs its newest token); returns those that go on. */
function decodeStep(run: ShardRun, active: readonly number[]): number[] {
  const { kernels, model, workspace, targets, options, rows, results, rngs, filled } = run;
  active.forEach((s, r) => {
    const out = results[s]!;
    workspace.tokens[r] = out.tokens[out.tokens.length - 1]!;
    workspace.positions[r] = filled[s]! + out.tokens.length - 1;
  });
  forwardBlocks(
    kernels,
    model,
    workspace,
    active.length,
    attendCache(
      kernels,
      model,
      workspace,
      targets.cache,
      active.map((s) => targets.slots[s]!),
    ),
    false,
  );
  const step = head(run, active.length);
  return active.filter((s, r) =>
    pick(
      results[s]!,
      ...step(r),
      options,
      rngs[s]!,
      filled[s]! + results[s]!.tokens.length,
      model.config.contextLength,
      undefined,
      rows.histories?.[s],
    ),
  );
}

/**
 * chunks[s]: the tokens of sequence s not cached yet, at positions targets.pasts[s].. of the sequence whose
 * block is at targets.slots[s] (src/nn/kv-cache.ts); sources[s]: the chunk whose prefill it shares
 * (prefill.ts sharedSources; s itself when it has its own). Returns what each sequence sampled.
 */
export function generateShard(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  chunks: readonly Int32Array[],
  targets: ChunkTargets,
  seeds: readonly number[],
  options: GenerateOptions,
  sources: readonly number[] = chunks.map((_, s) => s),
  rows: RowOptions = {},
): Generated[] {
  const topLogprobs = (options.topLogprobs ?? 0) > 0;
  const results: Generated[] = chunks.map(() => ({
    tokens: [],
    logprobs: [],
    samplingLogprobs: [],
    ...(topLogprobs ? { alternatives: [] } : {}),
    finish: "length",
  }));
  const rngs = seeds.map((seed, s) => {
    const state = rows.resume?.[s];
    return state === undefined ? createRng(seed) : rngFromState(state);
  });
  const done = (): Generated[] => {
    results.forEach((result, s) => (result.rngState = rngs[s]!.snapshot()));
    return results;
  };
  if (chunks.length === 0 || options.maxNewTokens <= 0) return done();
  const resuming = rows.resume !== undefined && rows.resume.some((state) => state !== undefined);
  if (resuming && !chunks.every((chunk, s) => chunk.length === 1 && rows.resume![s] !== undefined)) {
    throw new RangeError("generateShard: a resumed call needs every sequence resumed, each with one token to run");
  }
  const filled = chunks.map((p, s) => targets.pasts[s]! + p.length);
  const run: ShardRun = { kernels, model, workspace, targets, options, rows, results, rngs, filled };
  if (resuming) replayLastTokens(run, chunks);
  else prefillChunks(run, chunks, sources);
  const first = head(run, chunks.length);
  let active = chunks
    .map((_, s) => s)
    .filter((s) =>
      pick(
        results[s]!,
        ...first(s),
        options,
        rngs[s]!,
        filled[s]!,
        model.config.contextLength,
        rows.masks?.[s],
        rows.histories?.[s],
      ),
    );
  while (active.length > 0) active = decodeStep(run, active);
  return done();
}
