// The work a shard does, as plain data that can be posted to a worker thread (every tensor is a view of the
// shared heap) and run by the same function on either side. The model splits a batch into a fixed number
// of shards and runs them on the threads it has; shard results never depend on the thread that ran them.
import { attendSequences, type Packing } from "./attention.js";
import { backwardShard } from "./backward.js";
import { forwardBlocks, forwardHead, type ModelViews } from "./forward.js";
import { generateShard, type GenerateOptions, type Generated, type RowOptions } from "./generate.js";
import type { Kernels } from "./kernels/types.js";
import { allRows, expandRows, forwardOutputs, gatherRows, type OutputRows } from "./outputs.js";
import type { ChunkTargets } from "./prefill.js";
import type { Weights } from "./params.js";
import type { Workspace } from "./workspace.js";

/**
 * Forward over packed sequences whose tokens, targets and positions are in the workspace. With `outputs`
 * (the rows that have a target, outputs.ts) the last block and the head run on those rows only.
 */
export interface ForwardJob {
  readonly kind: "forward";
  readonly model: ModelViews;
  readonly workspace: Workspace;
  readonly packing: Packing;
  readonly rows: number;
  readonly outputs?: OutputRows;
}

/** Backward of the last forward of this workspace, from workspace.coefficients, into `grads`. */
export interface BackwardJob {
  readonly kind: "backward";
  readonly model: ModelViews;
  readonly workspace: Workspace;
  readonly packing: Packing;
  readonly rows: number;
  readonly grads: Weights;
  readonly normaliser: number;
  readonly withEntropy: boolean;
  /** The forward's output rows (undefined: every row). */
  readonly outputs?: OutputRows;
}

/** Sampling: prefill each chunk (the tokens its sequence has not cached), then decode (generate.ts). */
export interface GenerateJob {
  readonly kind: "generate";
  readonly model: ModelViews;
  readonly workspace: Workspace;
  readonly chunks: readonly Int32Array[];
  readonly targets: ChunkTargets;
  readonly seeds: readonly number[];
  readonly options: GenerateOptions;
  /** Per chunk, the chunk whose prefill it shares (prefill.ts sharedSources). */
  readonly sources: readonly number[];
  /** Per chunk, the stream state it resumes from and the mask of its first token (generate.ts). */
  readonly rows?: RowOptions;
}

export type Job = ForwardJob | BackwardJob | GenerateJob;
export type JobResult = { readonly kind: "done" } | { readonly kind: "generated"; readonly results: Generated[] };

/** Per-token log-probs and entropy of every row (0 for rows without a target), activations kept for the backward. */
function forwardShard(kernels: Kernels, job: ForwardJob): void {
  const { model, workspace: ws, rows, packing, outputs } = job;
  const V = model.config.vocabSize;
  if (rows === 0) return;
  const attend = attendSequences(kernels, model, packing, ws);
  if (outputs === undefined || allRows(outputs, rows)) {
    const logits = forwardHead(kernels, model, ws, forwardBlocks(kernels, model, ws, rows, attend), rows);
    kernels.tokenLogprobs(logits, ws.targets, rows, V, ws.logprobs, ws.entropy);
    return;
  }
  if (outputs.count > 0) {
    forwardBlocks(kernels, model, ws, rows, attend, true, model.config.layers - 1);
    const logits = forwardOutputs(kernels, model, ws, rows, packing, outputs);
    kernels.tokenLogprobs(logits, ws.outputTargets, outputs.count, V, ws.logprobs, ws.entropy);
  }
  expandRows(ws.logprobs, 1, rows, packing, outputs);
  expandRows(ws.entropy, 1, rows, packing, outputs);
}

export function runJob(kernels: Kernels, job: Job): JobResult {
  const { config } = job.model;
  switch (job.kind) {
    case "forward":
      forwardShard(kernels, job);
      return { kind: "done" };
    case "backward": {
      const { workspace: ws, outputs, rows } = job;
      if (rows === 0) return { kind: "done" };
      if (outputs === undefined || allRows(outputs, rows)) {
        kernels.logitsGradient(
          ws.logits,
          ws.targets,
          rows,
          config.vocabSize,
          ws.coefficients,
          job.withEntropy ? ws.entropyCoefficients : undefined,
          job.normaliser,
        );
      } else {
        // In place, compact at the start (gatherRows onto its own array: a compact row never lies after its row).
        gatherRows(ws.coefficients, ws.coefficients, 1, job.packing, outputs);
        if (job.withEntropy) gatherRows(ws.entropyCoefficients, ws.entropyCoefficients, 1, job.packing, outputs);
        kernels.logitsGradient(
          ws.logits,
          ws.outputTargets,
          outputs.count,
          config.vocabSize,
          ws.coefficients,
          job.withEntropy ? ws.entropyCoefficients : undefined,
          job.normaliser,
        );
      }
      backwardShard(kernels, job.model, job.grads, ws, rows, job.packing, outputs);
      return { kind: "done" };
    }
    case "generate":
      return {
        kind: "generated",
        results: generateShard(
          kernels,
          job.model,
          job.workspace,
          job.chunks,
          job.targets,
          job.seeds,
          job.options,
          job.sources,
          job.rows,
        ),
      };
  }
}
