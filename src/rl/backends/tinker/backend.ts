// A model trained on a Tinker server (hosted Tinker, SkyRL's Tinker API, the loopback stand-in) as the RL
// loop's TrainerBackend. One session, one LoRA model created on the base model (or loaded from a checkpoint's
// saved state), and the mapping from the interface to the API:
//
//   policy()        sampling sessions on the current weights (save_weights_for_sampler after every step),
//                   one asample per turn, or per group for an RL group's first turn (num_samples = group,
//                   tinker/policy.ts); prompts and replies through the renderer (policies/renderers/)
//   logprobs        forward_backward with forward_only, cross_entropy with weights 0: the log-probs of the
//                   response tokens (scoring.ts). A service that strips log-probs from the results (the hosted
//                   one may) is noticed, said once, and from then on the current weights' sampling session scores
//                   them (prompt_logprobs, the SDK's compute_logprobs); a backward pass's log-probs are never needed
//   accumulate      forward_only pass (current log-probs) -> the caller's coefficients c_t -> forward_backward
//                   with cross_entropy and weights c_t / N: loss = -sum_t (c_t / N) log p_t, exactly the
//                   interface's objective (KL included); two passes per chunk, the SDK's forward_backward_custom
//                   pattern
//   accumulateLoss  forward_backward with the server's ppo (clip thresholds 1 - clipLow, 1 + clipHigh) or
//                   importance_sampling loss on advantages A_t / N: Tinker's losses are sums over tokens, so
//                   scaling the advantages gives rl/update.ts's token mean; one pass, no KL
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
import { mkdir, rename, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { ConfigError } from "../../../core/errors.js";
import { defaultAdamW } from "../../../nn/optimizer.js";
import { HISTORY } from "../../../policies/tiny/context.js";
import { createRequestLimiter, realSleep } from "../../../policies/openai/limiter.js";
import {
  responseLength,
  type AccumulateStats,
  type LossAccumulateStats,
  type ReferenceScorer,
  type TrainerBackend,
  type TrainSequence,
} from "../../backend.js";
import { tokenChunks } from "../token-chunks.js";
import type { TinkerClient } from "../../../tinker/client.js";
import { crossEntropyDatum, policyLossDatum, responseLogprobs } from "./datum.js";
import { forwardScores, samplerScore } from "./scoring.js";
import { TINKER_CHECKPOINT_FORMAT, type TinkerCheckpoint } from "../../../tinker/checkpoint.js";
import * as api from "../../../tinker/operations.js";
import { createTinkerPolicy, type SampledReply } from "../../../tinker/policy.js";
import { byteRenderer, type Renderer } from "../../../policies/renderers/renderer.js";
import { modelInput, TinkerProtocolError, type AdamParams } from "../../../tinker/wire.js";

export interface TinkerBackendOptions {
  readonly client: TinkerClient;
  /** The base model, as the server names it. */
  readonly baseModel: string;
  readonly loraRank: number;
  /** Seed of the LoRA initialisation. */
  readonly seed: number;
  readonly maxNewTokens: number;
  /** The model's context in tokens; default: the server's max_context_length for the base model. */
  readonly contextLength?: number;
  /** Default: the byte renderer for the context (renderer.ts). */
  readonly renderer?: (contextLength: number) => Renderer;
  readonly temperature?: number;
  /** Most tokens per forward / forward_backward request (a minibatch is sent in such chunks). Default 8192. */
  readonly requestTokens?: number;
  /** Sampling requests in flight. Default 64. */
  readonly sampleConcurrency?: number;
  /** Continue from a saved checkpoint (its state and optimiser are loaded into the new model). */
  readonly resumeFrom?: TinkerCheckpoint;
  /** Session heartbeat period; 0: none. Default 10000 (the SDK's). */
  readonly heartbeatMs?: number;
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

async function resolveContext(client: TinkerClient, options: TinkerBackendOptions): Promise<number> {
  const models = await api.serverModels(client);
  const served = models.find((model) => model.name === options.baseModel);
  if (models.length > 0 && served === undefined)
    throw new ConfigError(
      "baseModel",
      `${client.baseUrl} does not serve ${options.baseModel}`,
      `it serves: ${models.map((model) => model.name).join(", ")}`,
    );
  const contextLength = options.contextLength ?? served?.maxContextLength;
  if (contextLength === undefined)
    throw new ConfigError(
      "contextLength",
      `the server does not say the context length of ${options.baseModel}`,
      "give it with --context-length",
    );
  return contextLength;
}

export async function openTinkerBackend(options: TinkerBackendOptions): Promise<TinkerBackend> {
  const { client } = options;
  const contextLength = await resolveContext(client, options);
  const renderer = (options.renderer ?? ((context: number) => byteRenderer(context, options.maxNewTokens)))(
    contextLength,
  );
  const requestTokens = options.requestTokens ?? 8192;
  const sessionId = await api.createSession(client, ["budgetrl"]);
  const modelId = await api.createModel(client, {
    sessionId,
    modelSeqId: 0,
    baseModel: options.baseModel,
    loraRank: options.loraRank,
    seed: options.seed,
  });
  let trainSeq = 0;
  let samplerSeq = 0;
  let sampleSeq = 0;
  const nextTrain = (): number => ++trainSeq;
  const nextSample = (): number => sampleSeq++;
  if (options.resumeFrom !== undefined)
    await api.loadWeights(client, modelId, nextTrain(), options.resumeFrom.statePath);
  let optimizerSteps = options.resumeFrom?.optimizerSteps ?? 0;
  const counts = { tokens: 0 };
  let sampler: Promise<string> | undefined;
  const currentSampler = (): Promise<string> => {
    // One sampler per set of weights, shared by every request; a failed save is tried again by the next request.
    sampler ??= api.samplerForCurrentWeights(client, modelId, nextTrain(), samplerSeq++).catch((error: unknown) => {
      sampler = undefined;
      throw error;
    });
    return sampler;
  };
  const limiter = createRequestLimiter({
    concurrency: options.sampleConcurrency ?? 64,
    rpm: 0,
    now: Date.now,
    sleep: realSleep,
  });
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => void api.heartbeat(client, sessionId).catch(() => undefined), heartbeatMs)
      : undefined;
  heartbeat?.unref();

  const sampleReplies = (prompt: readonly number[], seed: number, count: number): Promise<SampledReply[]> =>
    limiter.run(async () => {
      const samplingSessionId = await currentSampler();
      const params = {
        max_tokens: options.maxNewTokens,
        seed,
        stop: [...renderer.stopTokens],
        temperature: options.temperature ?? 1,
        top_k: -1,
        top_p: 1,
      };
      const output = await api.sample(client, {
        samplingSessionId,
        seqId: nextSample(),
        prompt: modelInput(prompt),
        params,
        numSamples: count,
      });
      if (output.sequences.length !== count)
        throw new TinkerProtocolError(`asample returned ${output.sequences.length} sequences for num_samples ${count}`);
      counts.tokens += prompt.length;
      return output.sequences.map((sequence) => {
        if (
          sequence.logprobs === undefined ||
          sequence.logprobs === null ||
          sequence.logprobs.length !== sequence.tokens.length
        )
          throw new TinkerProtocolError("asample returned a sequence without one log-prob per token");
        counts.tokens += sequence.tokens.length;
        return { tokens: sequence.tokens, logprobs: sequence.logprobs };
      });
    });
  const policy = createTinkerPolicy(`tinker:${options.baseModel}`, renderer, sampleReplies, {
    groupSampling: options.groupSampling ?? true,
  });

  const trained = (batch: readonly TrainSequence[]): number =>
    batch.reduce((sum, sequence) => sum + sequence.tokens.length, 0);
  /** Scores through a sampling session: one asample with prompt_logprobs per sequence. */
  const scoreOnSampler = (samplingSessionId: string, batch: readonly TrainSequence[]): Promise<Float32Array[]> =>
    Promise.all(
      batch.map((sequence) =>
        limiter.run(async () => {
          counts.tokens += sequence.tokens.length + 1;
          return samplerScore(client, samplingSessionId, nextSample(), sequence);
        }),
      ),
    );
  // The service may strip log-probs from forward_backward results: then the current weights are scored through
  // their sampler instead (said once), and forward passes for log-probs alone are no longer sent.
  let stripped = false;
  const logprobsStripped = (): void => {
    if (stripped) return;
    stripped = true;
    client.notice({
      level: "warning",
      message:
        "tinker: the service returned forward_backward results without log-probs; the log-probs training needs (the loss coefficients, importance ratios and clip statistics) now come from a sampling session on the same weights (asample with prompt_logprobs, as the SDK's compute_logprobs), one request per sequence",
    });
  };
  /** Current log-probs of response tokens: a forward_only pass, or the current weights' sampler once stripped. */
  const currentLogprobs = async (part: readonly TrainSequence[]): Promise<Float32Array[]> => {
    if (!stripped) {
      counts.tokens += trained(part);
      const scored = await forwardScores(client, modelId, nextTrain, part, requestTokens);
      if (scored !== undefined) return scored;
      logprobsStripped();
    }
    return scoreOnSampler(await currentSampler(), part);
  };
  let references = 0;
  /** Frozen weights for the KL term: a sampling session on them, scored with prompt_logprobs. */
  const frozen = async (
    source: { readonly baseModel: string } | { readonly modelPath: string },
  ): Promise<ReferenceScorer> => {
    const samplingSessionId = await api.createSamplingSession(client, sessionId, samplerSeq++, source);
    return { logprobs: (batch) => scoreOnSampler(samplingSessionId, batch), dispose: () => undefined };
  };

  return {
    name: "tinker",
    modelId,
    contextLength,
    policy: () => policy,
    logprobs: (batch) => currentLogprobs(batch),
    async accumulate(batch, coefficientsFor, normaliser): Promise<AccumulateStats> {
      let first = 0;
      let tokens = 0;
      for (const part of tokenChunks(batch, requestTokens)) {
        const coefficients = coefficientsFor(await currentLogprobs(part), first);
        // Float32 division of float32 values: what the in-process kernel computes for c_t / N.
        const data = part.map((sequence, i) =>
          crossEntropyDatum(
            sequence,
            Float32Array.from(coefficients[i] as Float32Array, (value) => Math.fround(value / normaliser)),
          ),
        );
        counts.tokens += trained(part);
        // The backward pass's log-probs are not needed: checked when present, never missed when stripped.
        responseLogprobs(
          await api.forwardBackward(client, modelId, nextTrain(), { data, loss_fn: "cross_entropy" }),
          part,
        );
        tokens += part.reduce((sum, sequence) => sum + responseLength(sequence), 0);
        first += part.length;
      }
      return { entropy: Number.NaN, tokens };
    },
    async accumulateLoss(batch, inputs, loss, normaliser): Promise<LossAccumulateStats> {
      const config =
        loss.name === "ppo"
          ? { loss_fn_config: { clip_low_threshold: 1 - loss.clipLow, clip_high_threshold: 1 + loss.clipHigh } }
          : {};
      const logprobs: Float32Array[] = [];
      let first = 0;
      for (const part of tokenChunks(batch, requestTokens)) {
        const data = part.map((sequence, i) => {
          const { oldLogprobs, advantages } = inputs[first + i] as (typeof inputs)[number];
          return policyLossDatum(
            sequence,
            oldLogprobs,
            Float32Array.from(advantages, (value) => Math.fround(value / normaliser)),
          );
        });
        counts.tokens += trained(part);
        const output = await api.forwardBackward(client, modelId, nextTrain(), { data, loss_fn: loss.name, ...config });
        // The statistics need the log-probs the gradient was taken at: the weights' sampler has them when the
        // results do not (no optim_step in between).
        let scored = responseLogprobs(output, part);
        if (scored === undefined) logprobsStripped();
        scored ??= await scoreOnSampler(await currentSampler(), part);
        logprobs.push(...scored);
        first += part.length;
      }
      return { entropy: Number.NaN, tokens: logprobs.reduce((sum, values) => sum + values.length, 0), logprobs };
    },
    async step(learningRate) {
      const metrics = await api.optimStep(client, modelId, nextTrain(), adamParams(learningRate));
      optimizerSteps++;
      sampler = undefined;
      const gradNorm = Object.entries(metrics).find(([key]) => /grad_norm/.test(key))?.[1] ?? Number.NaN;
      return { gradNorm, learningRate };
    },
    reference: async () =>
      frozen({
        modelPath: await api.saveSamplerWeights(client, modelId, nextTrain(), `budgetrl-reference-${++references}`),
      }),
    baseReference: () => frozen({ baseModel: options.baseModel }),
    async save(dir) {
      const name = `budgetrl-${basename(dir).replace(/[^A-Za-z0-9_-]/g, "-")}`;
      const statePath = await api.saveWeights(client, modelId, nextTrain(), name);
      const samplerPath = await api.saveSamplerWeights(client, modelId, nextTrain(), `${name}-sampler`);
      const manifest: TinkerCheckpoint = {
        format: TINKER_CHECKPOINT_FORMAT,
        server: client.baseUrl,
        baseModel: options.baseModel,
        loraRank: options.loraRank,
        modelId,
        statePath,
        samplerPath,
        optimizerSteps,
        contextLength,
        maxNewTokens: options.maxNewTokens,
        history: HISTORY,
        renderer: renderer.name,
      };
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "budgetrl.json.tmp"), `${JSON.stringify(manifest, null, 2)}\n`);
      await rename(join(dir, "budgetrl.json.tmp"), join(dir, "budgetrl.json"));
    },
    weightsDigest: () =>
      createHash("sha256").update(`tinker\u0000${client.baseUrl}\u0000${modelId}\u0000${optimizerSteps}`).digest("hex"),
    processedTokens: () => counts.tokens,
    dispose: () => {
      if (heartbeat !== undefined) clearInterval(heartbeat);
    },
  };
}
