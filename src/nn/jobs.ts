// The work a shard does, as plain data that can be posted to a worker thread (every tensor is a view of the
// shared heap) and run by the same function on either side. The model splits a batch into a fixed number
// of shards and runs them on the threads it has; shard results never depend on the thread that ran them.
import { attendSequences, type Packing } from "./attention.js";
import { backwardShard } from "./backward.js";
import { forwardBlocks, forwardHead, type ModelViews } from "./forward.js";
import { generateShard, type GenerateOptions, type Generated } from "./generate.js";
import type { Kernels } from "./kernels/types.js";
import type { ChunkTargets } from "./prefill.js";
import type { Weights } from "./params.js";
import type { Workspace } from "./workspace.js";

/** Forward over packed sequences whose tokens, targets and positions are in the workspace. */
export interface ForwardJob {
  readonly kind: "forward";
  readonly model: ModelViews;
  readonly workspace: Workspace;
  readonly packing: Packing;
  readonly rows: number;
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
}

export type Job = ForwardJob | BackwardJob | GenerateJob;
export type JobResult = { readonly kind: "done" } | { readonly kind: "generated"; readonly results: Generated[] };

export function runJob(kernels: Kernels, job: Job): JobResult {
  const { config } = job.model;
  switch (job.kind) {
    case "forward": {
      if (job.rows === 0) return { kind: "done" };
      const x = forwardBlocks(kernels, job.model, job.workspace, job.rows, attendSequences(kernels, job.model, job.packing, job.workspace));
      const logits = forwardHead(kernels, job.model, job.workspace, x, job.rows);
      kernels.tokenLogprobs(logits, job.workspace.targets, job.rows, config.vocabSize, job.workspace.logprobs, job.workspace.entropy);
      return { kind: "done" };
    }
    case "backward": {
      if (job.rows === 0) return { kind: "done" };
      const ws = job.workspace;
      kernels.logitsGradient(ws.logits, ws.targets, job.rows, config.vocabSize, ws.coefficients, job.withEntropy ? ws.entropyCoefficients : undefined, job.normaliser);
      backwardShard(kernels, job.model, job.grads, ws, job.rows, job.packing);
      return { kind: "done" };
    }
    case "generate":
      return { kind: "generated", results: generateShard(kernels, job.model, job.workspace, job.chunks, job.targets, job.seeds, job.options) };
  }
}
