// Batching sampling requests into the model: rows (a prompt, its seed, an optional KV-cache session) asked for
// while the model is busy, or in the same tick, are sampled together in one `model.sample` call (up to
// maxBatch rows). Rows with other sampling settings (answer length, temperature, truncation, penalties, stops, top log-probs)
// cannot share a call, nor can rows that resume an earlier call (nn/sampling.ts) and rows that do not: a call
// takes the oldest waiting row's settings and every waiting row with the same ones, in arrival order; the others
// wait for the next call. The tiny policy (one setting for every row) and `budgetrl serve` (settings per
// request, and a token per call for streamed or constrained replies) both sample through it.
//
// Each row's randomness is its own seed and the model never mixes rows, so an answer does not depend on which
// batch it landed in or on how requests were scheduled.
import type { TinyModel } from "../../nn/model.js";
import type { KvSession } from "../../nn/kv-cache.js";
import type { Generated, RngState } from "../../nn/generate.js";
import type { Penalties } from "../../nn/penalties.js";
import { END } from "../../nn/tokenizer.js";

/** How a row is sampled; rows share a call only when these are equal. */
export interface SampleSettings {
  readonly maxNewTokens: number;
  readonly temperature: number;
  readonly topP: number;
  /** Default [END]. */
  readonly stopTokens?: readonly number[];
  readonly stopSequences?: readonly (readonly number[])[];
  readonly minNewTokens?: number;
  readonly topLogprobs?: number;
  /** Default 0 (off). */
  readonly topK?: number;
  /** Default 0 (off). */
  readonly minP?: number;
  /** Default none. */
  readonly penalties?: Penalties;
}

export interface SampleRow {
  readonly prompt: readonly number[];
  readonly seed: number;
  readonly session?: KvSession;
  readonly settings: SampleSettings;
  /** The stream state of the call this row continues (its session caches all of the prompt but its last token). */
  readonly resume?: RngState;
  /** The tokens the row's first sampled token may be. */
  readonly mask?: Uint8Array;
  /** Where the reply so far starts in the prompt (what penalties read); default the prompt's length. */
  readonly replyStart?: number;
  /** Told when the model call that samples the row starts (its time in the queue ends). */
  readonly onStart?: () => void;
}

export interface SampleBatcher {
  /** Samples the rows (in one call when they fit, and with whatever else is waiting); one result per row. */
  sample(rows: readonly SampleRow[]): Promise<Generated[]>;
  /** Rows waiting for a call (not counting those being sampled). */
  waiting(): number;
  /** Model calls made so far, and the rows they sampled. */
  stats(): { readonly calls: number; readonly rows: number };
}

interface Waiting {
  readonly row: SampleRow;
  readonly key: string;
  readonly resolve: (generated: Generated) => void;
  readonly reject: (error: unknown) => void;
}

const settingsKey = (row: SampleRow): string => {
  const {
    maxNewTokens,
    temperature,
    topP,
    stopTokens = [END],
    stopSequences = [],
    minNewTokens = 0,
    topLogprobs = 0,
    topK = 0,
    minP = 0,
    penalties = null,
  } = row.settings;
  return JSON.stringify([
    maxNewTokens,
    temperature,
    topP,
    stopTokens,
    stopSequences,
    minNewTokens,
    topLogprobs,
    topK,
    minP,
    penalties,
    row.resume !== undefined,
  ]);
};

/** The next call's rows: the oldest row's settings, every waiting row with them, at most maxBatch; removed from `queue`. */
function nextBatch(queue: Waiting[], maxBatch: number): Waiting[] {
  const key = queue[0]!.key;
  const batch: Waiting[] = [];
  for (let i = 0; i < queue.length && batch.length < maxBatch;) {
    if (queue[i]!.key === key) batch.push(...queue.splice(i, 1));
    else i++;
  }
  return batch;
}

export function createSampleBatcher(model: Pick<TinyModel, "sample">, maxBatch: number): SampleBatcher {
  const queue: Waiting[] = [];
  const counts = { calls: 0, rows: 0 };
  let running = false;

  const drain = async (): Promise<void> => {
    running = true;
    while (queue.length > 0) {
      const batch = nextBatch(queue, maxBatch);
      const { settings } = batch[0]!.row;
      counts.calls++;
      counts.rows += batch.length;
      try {
        const rows = batch.map((w) => w.row);
        for (const row of rows) row.onStart?.();
        const results = await model.sample(
          rows.map((row) => row.prompt),
          {
            ...settings,
            stopTokens: settings.stopTokens ?? [END],
            seeds: rows.map((row) => row.seed),
            sessions: rows.map((row) => row.session),
            ...(rows[0]!.resume === undefined ? {} : { resume: rows.map((row) => row.resume!) }),
            ...(rows.some((row) => row.mask !== undefined) ? { masks: rows.map((row) => row.mask) } : {}),
            ...(rows.some((row) => row.replyStart !== undefined)
              ? { replyStarts: rows.map((row) => row.replyStart ?? row.prompt.length) }
              : {}),
          },
        );
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (error: unknown) {
        for (const w of batch) w.reject(error);
      }
    }
    running = false;
  };

  return {
    sample(rows) {
      const answers = rows.map(
        (row) =>
          new Promise<Generated>((resolve, reject) => queue.push({ row, key: settingsKey(row), resolve, reject })),
      );
      // Let every row asked for in this tick join the batch before sampling starts.
      if (!running) setImmediate(() => void (running ? undefined : drain()));
      return Promise.all(answers);
    },
    waiting: () => queue.length,
    stats: () => ({ ...counts }),
  };
}
