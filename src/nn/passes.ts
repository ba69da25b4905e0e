// The model's whole-sequence passes as shard jobs: a training forward (per-token log-probs and entropy, the
// activations kept for one backward), the backward from per-token coefficients, and the no-gradient scoring
// pass (log-probs only). Sequences are packed into per-shard workspaces (shards.ts) and the per-token
// outputs are gathered back into the caller's (batchSize, seqLen) layout.
import { BudgetrlError } from "../core/errors.js";
import { packLengths, type Packing } from "./attention.js";
import { checkBatch, checkTokens, type TokenBatch } from "./batch.js";
import type { Job } from "./jobs.js";
import { findOutputRows, type OutputRows } from "./outputs.js";
import { ensureWorkspace, shardRanges, type WorkspaceSlot } from "./shards.js";
import type { ModelRuntime } from "./runtime.js";
import { freeWorkspace } from "./workspace.js";

export interface ForwardResult {
  /** (batchSize * seqLen) log p(target); 0 where there is no target or past a row's length. */
  readonly logprobs: Float32Array;
  readonly entropy: Float32Array;
  /** -sum(w log p) / sum(w) with the given weights (default: 1 where a target exists). */
  readonly loss: number;
}

export interface BackwardOptions {
  /** Divides the loss (default 1). */
  readonly normaliser?: number;
  /** e_t: adds -sum_t e_t H_t / normaliser to the loss (entropy bonus). */
  readonly entropyCoefficients?: Float32Array;
}

/** Token ranges [start, end) of a sequence (start >= 1): the positions whose log-probs a caller wants. */
export interface TokenSpan {
  readonly start: number;
  readonly end: number;
}

export interface Passes {
  forward(batch: TokenBatch, weights?: Float32Array): Promise<ForwardResult>;
  backward(coefficients: Float32Array, options?: BackwardOptions): Promise<void>;
  /** With `wanted`, only those tokens' log-probs (the others are 0): the last block and the head run on their rows alone. */
  logprobs(
    sequences: readonly (readonly number[])[],
    wanted?: readonly (readonly TokenSpan[])[],
  ): Promise<Float32Array[]>;
  /** Frees the workspaces. */
  free(): void;
}

/** Where the last forward left each sequence: what its backward needs. */
interface ForwardLayout {
  readonly packings: Packing[];
  readonly ranges: [number, number][];
  readonly seqLen: number;
  /** Per shard, the rows the last block and the head ran on (undefined: every row). */
  readonly outputs: (OutputRows | undefined)[];
}

type Row = { readonly tokens: ArrayLike<number>; readonly targets: ArrayLike<number>; readonly length: number };

/**
 * Writes sequences into shard workspaces and runs the forward jobs. With `targetRowsOnly` the last block and
 * the head run on the rows that have a target (outputs.ts); else on every row.
 */
async function runForward(
  context: ModelRuntime,
  slots: WorkspaceSlot[],
  rows: readonly Row[],
  seqLen: number,
  targetRowsOnly: boolean,
): Promise<ForwardLayout> {
  const { heap, config, shards, memory } = context;
  const ranges = shardRanges(
    rows.map((row) => row.length),
    shards,
  );
  const packings: Packing[] = [];
  const outputs: (OutputRows | undefined)[] = [];
  const jobs: Job[] = ranges.map(([first, end], s) => {
    const lengths = rows.slice(first, end).map((r) => r.length);
    const workspace = ensureWorkspace(heap, config, slots[s]!, lengths);
    const packing = packLengths(lengths);
    packings.push(packing);
    for (let i = first; i < end; i++) {
      const row = rows[i]!;
      const start = packing.starts[i - first]!;
      for (let t = 0; t < row.length; t++) {
        workspace.tokens[start + t] = row.tokens[t]!;
        workspace.targets[start + t] = row.targets[t]!;
        workspace.positions[start + t] = t;
      }
    }
    const shardOutputs = targetRowsOnly ? findOutputRows(packing, workspace.targets) : undefined;
    outputs.push(shardOutputs);
    return {
      kind: "forward",
      model: memory.views,
      workspace,
      packing,
      rows: lengths.reduce((a, b) => a + b, 0),
      ...(shardOutputs === undefined ? {} : { outputs: shardOutputs }),
    };
  });
  await context.pool.runAll(jobs);
  return { packings, ranges, seqLen, outputs };
}

/** The per-token outputs of a training forward in the batch's (batchSize, seqLen) layout, and the weighted loss. */
function gatherForward(
  layout: ForwardLayout,
  slots: readonly WorkspaceSlot[],
  batch: TokenBatch,
  lengths: readonly number[],
  weights: Float32Array | undefined,
): ForwardResult {
  const { batchSize: B, seqLen: T } = batch;
  const logprobs = new Float32Array(B * T);
  const entropy = new Float32Array(B * T);
  let num = 0;
  let den = 0;
  layout.ranges.forEach(([first, end], s) => {
    const ws = slots[s]!.workspace!;
    for (let b = first; b < end; b++) {
      const start = layout.packings[s]!.starts[b - first]!;
      for (let t = 0; t < lengths[b]!; t++) {
        const lp = ws.logprobs[start + t]!;
        logprobs[b * T + t] = lp;
        entropy[b * T + t] = ws.entropy[start + t]!;
        const w = weights === undefined ? (batch.targets[b * T + t]! >= 0 ? 1 : 0) : weights[b * T + t]!;
        num -= w * lp;
        den += w;
      }
    }
  });
  return { logprobs, entropy, loss: den === 0 ? 0 : num / den };
}

/** The backward jobs of the forward described by `last`, its coefficients written into the workspaces. */
function backwardJobs(
  context: ModelRuntime,
  slots: readonly WorkspaceSlot[],
  last: ForwardLayout,
  coefficients: Float32Array,
  options: BackwardOptions,
): Job[] {
  const normaliser = options.normaliser ?? 1;
  if (!(normaliser > 0)) throw new BudgetrlError("nn:bad-normaliser", `normaliser must be > 0, got ${normaliser}`);
  const entropyCoefficients = options.entropyCoefficients;
  const T = last.seqLen;
  const size = last.ranges[last.ranges.length - 1]![1] * T;
  for (const [name, values] of [
    ["coefficients", coefficients],
    ["entropyCoefficients", entropyCoefficients],
  ] as const) {
    if (values !== undefined && values.length !== size)
      throw new BudgetrlError(
        "nn:bad-batch",
        `${name} must hold batchSize * seqLen = ${size} entries (the last forward's shape), got ${values.length}`,
      );
  }
  return last.ranges.map(([first, end], s) => {
    const ws = slots[s]!.workspace!;
    const packing = last.packings[s]!;
    for (let b = first; b < end; b++) {
      const start = packing.starts[b - first]!;
      for (let t = 0; t < packing.lengths[b - first]!; t++) {
        ws.coefficients[start + t] = coefficients[b * T + t]!;
        ws.entropyCoefficients[start + t] = entropyCoefficients?.[b * T + t] ?? 0;
      }
    }
    const rows = packing.lengths.reduce((a, n) => a + n, 0);
    const outputs = last.outputs[s];
    return {
      kind: "backward",
      model: context.memory.views,
      workspace: ws,
      packing,
      rows,
      grads: context.memory.shardGrads[s]!,
      normaliser,
      withEntropy: entropyCoefficients !== undefined,
      ...(outputs === undefined ? {} : { outputs }),
    };
  });
}

/** Row t's target: token t + 1 (every one, or those in the wanted spans), else -1. */
function scoringTargets(seq: readonly number[], spans: readonly TokenSpan[] | undefined, index: number): number[] {
  if (spans === undefined) return [...seq.slice(1), -1];
  const targets = new Array<number>(seq.length).fill(-1);
  for (const { start, end } of spans) {
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 1 && start <= end && end <= seq.length)) {
      throw new BudgetrlError(
        "nn:bad-batch",
        `wanted[${index}] has span [${start}, ${end}); spans need 1 <= start <= end <= ${seq.length} (the sequence's length)`,
      );
    }
    for (let t = start; t < end; t++) targets[t - 1] = seq[t]!;
  }
  return targets;
}

export function createPasses(context: ModelRuntime): Passes {
  const { config, heap, shards } = context;
  const trainSlots: WorkspaceSlot[] = Array.from({ length: shards }, () => ({ workspace: undefined }));
  const scoreSlots: WorkspaceSlot[] = Array.from({ length: shards }, () => ({ workspace: undefined }));
  let pending: ForwardLayout | undefined;
  return {
    async forward(batch, weights) {
      const lengths = checkBatch(config, batch, { weights });
      const T = batch.seqLen;
      const rows = lengths.map((n, b) => ({
        tokens: batch.tokens.subarray(b * T, b * T + n),
        targets: batch.targets.subarray(b * T, b * T + n),
        length: n,
      }));
      pending = undefined;
      pending = await runForward(context, trainSlots, rows, T, true);
      context.counts.train += lengths.reduce((a, b) => a + b, 0);
      return gatherForward(pending, trainSlots, batch, lengths, weights);
    },
    async backward(coefficients, options = {}) {
      const last = pending;
      if (last === undefined)
        throw new BudgetrlError(
          "nn:no-forward",
          "backward() needs a forward() first (and each forward serves one backward)",
        );
      pending = undefined;
      await context.pool.runAll(backwardJobs(context, trainSlots, last, coefficients, options));
      context.memory.sumShardGradients();
    },
    async logprobs(sequences, wanted) {
      sequences.forEach((seq, i) => {
        if (seq.length > config.contextLength)
          throw new BudgetrlError(
            "nn:too-long",
            `sequence ${i} has ${seq.length} tokens, more than contextLength ${config.contextLength}`,
          );
        checkTokens(config, `sequences[${i}]`, seq, false);
      });
      if (wanted !== undefined && wanted.length !== sequences.length)
        throw new BudgetrlError(
          "nn:bad-batch",
          `wanted must hold one list of spans per sequence: ${sequences.length} sequences, ${wanted.length} lists`,
        );
      const rows = sequences.map((seq, i) => ({
        tokens: seq,
        targets: scoringTargets(seq, wanted?.[i], i),
        length: seq.length,
      }));
      const done = await runForward(context, scoreSlots, rows, config.contextLength, wanted !== undefined);
      context.counts.score += sequences.reduce((a, seq) => a + seq.length, 0);
      return sequences.map((seq, i) => {
        const s = done.ranges.findIndex(([first, end]) => i >= first && i < end);
        const start = done.packings[s]!.starts[i - done.ranges[s]![0]]!;
        return Float32Array.from(
          scoreSlots[s]!.workspace!.logprobs.subarray(start, start + Math.max(0, seq.length - 1)),
        );
      });
    },
    free() {
      for (const slot of [...trainSlots, ...scoreSlots])
        if (slot.workspace !== undefined) freeWorkspace(heap, slot.workspace);
    },
  };
}
