// A model trained on a Tinker server (hosted Tinker, SkyRL's Tinker API, the loopback stand-in) as the RL
// loop's TrainerBackend, put together from its steps: the session (session.ts: one session, one LoRA model created on
// the base model or loaded from a checkpoint's saved state, request numbering, the sampler of the current weights)
// and the mapping from the interface to the API:
//
//   policy()        sampling sessions on the current weights (save_weights_for_sampler after every step),
//                   one asample per turn, or per group for an RL group's first turn (num_samples = group,
//                   tinker/policy.ts); prompts and replies through the renderer (policies/renderers/)
//   logprobs        forward_backward with forward_only, cross_entropy with weights 0: the log-probs of the
//                   response tokens, or the current weights' sampling session once the service strips them
//                   (logprobs.ts, scoring.ts)
//   accumulate      the current log-probs -> the caller's coefficients -> forward_backward with cross_entropy
//   accumulateLoss  forward_backward with the server's ppo or importance_sampling loss (both: accumulate.ts)
//   step            optim_step with Adam settings equal to the in-process AdamW (beta 0.9 / 0.95, eps 1e-8,
//                   decoupled weight decay 0.1, gradient clip 1)
//   reference       a sampling session on frozen weights, scored through prompt_logprobs (asample with
//                   max_tokens 1, the SDK's compute_logprobs): baseReference samples the base model itself (a
//                   LoRA starts at zero: the initial policy), reference() sampler weights saved from the current
//                   state; no second trained model
//   save            save_weights (state and optimiser, for --resume) and save_weights_for_sampler, their
//                   tinker:// paths in the checkpoint folder's budgetrl.json (no weights leave the server)
// Entropy is not available from the API (NaN in the stats); the weights digest names the weights on the
// server (model id and optimiser steps), not their bytes.
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { defaultAdamW } from "../../../nn/optimizer.js";
import { HISTORY } from "../../../policies/tiny/context.js";
import type { TrainablePolicy } from "../../../policies/trainable-policy.js";
import { TINKER_CHECKPOINT_FORMAT, writeTinkerCheckpoint } from "../../../tinker/checkpoint.js";
import * as api from "../../../tinker/operations.js";
import { createTinkerPolicy, DEFAULT_GROUP_SAMPLING } from "../../../tinker/policy.js";
import { replyParams, sampleReplies } from "../../../tinker/sample.js";
import type { AdamParams } from "../../../tinker/wire.js";
import type { ReferenceScorer, StepStats, TrainerBackend } from "../../backend.js";
import { accumulateCoefficients, accumulateServerLoss } from "./accumulate.js";
import { logprobSource } from "./logprobs.js";
import { openTinkerSession, type SessionOptions, type TinkerSession } from "./session.js";

/** The session's options (session.ts) and what the training steps read besides. */
export interface TinkerBackendOptions extends SessionOptions {
  readonly temperature?: number;
  /** Most tokens per forward / forward_backward request (a minibatch is sent in such chunks). Default 8192. */
  readonly requestTokens?: number;
  /** An RL group's first turn in one sampling request (num_samples = group). Default true; false: one request
   * per episode, with the in-process policy's seeds. */
  readonly groupSampling?: boolean;
}

export interface TinkerBackend extends TrainerBackend {
  readonly modelId: string;
  readonly contextLength: number;
  /** The base model as a reference scorer (its prompt_logprobs): LoRA starts at zero, so this is the initial policy (KL). */
  baseReference(): Promise<ReferenceScorer>;
}

/** The Adam settings of the in-process AdamW, for a learning rate. */
export function adamParams(learningRate: number): AdamParams {
  const adam = defaultAdamW;
  return {
    learning_rate: learningRate,
    beta1: adam.beta1,
    beta2: adam.beta2,
    eps: adam.eps,
    weight_decay: adam.weightDecay,
    grad_clip_norm: adam.clipNorm,
  };
}

/** The policy that samples with the current weights: each request on the current weights' sampling session. */
function samplingPolicy(session: TinkerSession, options: TinkerBackendOptions): TrainablePolicy {
  const { renderer } = session;
  const replies = (prompt: readonly number[], seed: number, count: number) =>
    session.limiter.run(async () => {
      const sampled = await sampleReplies(session.client, {
        samplingSessionId: await session.currentSampler(),
        seqId: session.nextSample(),
        prompt,
        params: replyParams(renderer.stopTokens, options.maxNewTokens, seed, options.temperature),
        count,
      });
      session.counts.tokens += prompt.length + sampled.reduce((sum, reply) => sum + reply.tokens.length, 0);
      return sampled;
    });
  return createTinkerPolicy(`tinker:${options.baseModel}`, renderer, replies, {
    groupSampling: options.groupSampling ?? DEFAULT_GROUP_SAMPLING,
  });
}

/** One optimiser step; the sampler of the old weights is dropped. */
async function optimiserStep(session: TinkerSession, learningRate: number): Promise<StepStats> {
  const metrics = await api.optimStep(session.client, session.modelId, session.nextTrain(), adamParams(learningRate));
  session.weightsChanged();
  const gradNorm = Object.entries(metrics).find(([key]) => /grad_norm/.test(key))?.[1] ?? Number.NaN;
  return { gradNorm, learningRate };
}

/** Saves the state and the sampler weights on the server, and their paths in `dir`'s manifest. */
async function saveCheckpoint(
  session: TinkerSession,
  options: TinkerBackendOptions,
  optimizerSteps: number,
  dir: string,
): Promise<void> {
  const { client, modelId } = session;
  const name = `budgetrl-${basename(dir).replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const statePath = await api.saveWeights(client, modelId, session.nextTrain(), name);
  const samplerPath = await api.saveSamplerWeights(client, modelId, session.nextTrain(), `${name}-sampler`);
  await writeTinkerCheckpoint(dir, {
    format: TINKER_CHECKPOINT_FORMAT,
    server: client.baseUrl,
    baseModel: options.baseModel,
    loraRank: options.loraRank,
    modelId,
    statePath,
    samplerPath,
    optimizerSteps,
    contextLength: session.contextLength,
    maxNewTokens: options.maxNewTokens,
    history: HISTORY,
    renderer: session.renderer.name,
  });
}

export async function openTinkerBackend(options: TinkerBackendOptions): Promise<TinkerBackend> {
  const session = await openTinkerSession(options);
  const { client, modelId } = session;
  const requestTokens = options.requestTokens ?? 8192;
  const logprobs = logprobSource(session, requestTokens);
  const policy = samplingPolicy(session, options);
  let optimizerSteps = options.resumeFrom?.optimizerSteps ?? 0;
  let references = 0;
  return {
    name: "tinker",
    modelId,
    contextLength: session.contextLength,
    policy: () => policy,
    logprobs: (batch) => logprobs.current(batch),
    accumulate: (batch, coefficientsFor, normaliser) =>
      accumulateCoefficients(session, logprobs, requestTokens, batch, coefficientsFor, normaliser),
    accumulateLoss: (batch, inputs, loss, normaliser) =>
      accumulateServerLoss(session, logprobs, requestTokens, batch, inputs, loss, normaliser),
    async step(learningRate) {
      const stats = await optimiserStep(session, learningRate);
      optimizerSteps++;
      return stats;
    },
    reference: async () =>
      logprobs.frozen({
        modelPath: await api.saveSamplerWeights(
          client,
          modelId,
          session.nextTrain(),
          `budgetrl-reference-${++references}`,
        ),
      }),
    baseReference: () => logprobs.frozen({ baseModel: options.baseModel }),
    save: (dir) => saveCheckpoint(session, options, optimizerSteps, dir),
    weightsDigest: () =>
      createHash("sha256").update(`tinker\u0000${client.baseUrl}\u0000${modelId}\u0000${optimizerSteps}`).digest("hex"),
    processedTokens: () => session.counts.tokens,
    dispose: () => session.close(),
  };
}
