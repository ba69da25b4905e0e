// The Tinker backend's session on the server, opened first (backend.ts builds the interface on it): the context
// length (checked against what the server serves), the renderer for it, one session and one LoRA model created on
// the base model (its saved state loaded when resuming), the heartbeat, and what every later request shares:
//   seq ids     training requests numbered 1, 2, ... on the model (the server runs them in order), sampling
//               requests and sampling sessions numbered apart
//   sampler     one sampling session on the current weights (save_weights_for_sampler), shared by every request
//               until the weights change; a failed save is tried again by the next request
//   limiter     sampling requests in flight, at most `sampleConcurrency`
//   tokens      the tokens sent and sampled so far (processedTokens)
import type { RequestLimiter } from "../../../policies/openai/limiter.js";
import { createRequestLimiter, realSleep } from "../../../policies/openai/limiter.js";
import type { Renderer } from "../../../policies/renderers/renderer-contract.js";
import { byteRenderer } from "../../../policies/renderers/renderer.js";
import type { TinkerCheckpoint } from "../../../tinker/checkpoint.js";
import type { TinkerClient } from "../../../tinker/client.js";
import { startHeartbeat } from "../../../tinker/heartbeat.js";
import * as api from "../../../tinker/operations.js";
import { contextLengthOf, servedModel } from "../../../tinker/served-model.js";

/** What opening a session reads of the backend's options (TinkerBackendOptions adds the training steps'). */
export interface SessionOptions {
  readonly client: TinkerClient;
  /** The base model, as the server names it. */
  readonly baseModel: string;
  readonly loraRank: number;
  /** Seed of the LoRA initialisation. */
  readonly seed: number;
  readonly maxNewTokens: number;
  /** The model's context in tokens; default: the server's max_context_length for the base model. */
  readonly contextLength?: number;
  /** Default: the byte renderer for the context (policies/renderers/renderer.ts). */
  readonly renderer?: (contextLength: number) => Renderer;
  /** Sampling requests in flight. Default 64. */
  readonly sampleConcurrency?: number;
  /** Continue from a saved checkpoint (its state and optimiser are loaded into the new model). */
  readonly resumeFrom?: TinkerCheckpoint;
  /** Session heartbeat period; 0: none. Default 10000 (the SDK's). */
  readonly heartbeatMs?: number;
}

export interface TinkerSession {
  readonly client: TinkerClient;
  readonly sessionId: string;
  readonly modelId: string;
  readonly contextLength: number;
  readonly renderer: Renderer;
  readonly limiter: RequestLimiter;
  /** Tokens sent and sampled so far. */
  readonly counts: { tokens: number };
  /** The seq_id of the next training request on the model. */
  nextTrain(): number;
  /** The seq id of the next sampling request. */
  nextSample(): number;
  /** The seq id of the next sampling session. */
  nextSampler(): number;
  /** The sampling session on the current weights, saved for sampling on first use. */
  currentSampler(): Promise<string>;
  /** The weights changed (an optimiser step): the next request saves a new sampler. */
  weightsChanged(): void;
  /** Stops the heartbeat. */
  close(): void;
}

/** Opens the session and the model on the server (loaded with `resumeFrom`'s state when given). */
export async function openTinkerSession(options: SessionOptions): Promise<TinkerSession> {
  const { client } = options;
  const contextLength = contextLengthOf(
    options.baseModel,
    options.contextLength,
    await servedModel(client, options.baseModel),
  );
  const renderer = (options.renderer ?? ((context: number) => byteRenderer(context, options.maxNewTokens)))(
    contextLength,
  );
  const sessionId = await api.createSession(client, ["budgetrl"]);
  const modelId = await api.createModel(client, {
    sessionId,
    modelSeqId: 0,
    baseModel: options.baseModel,
    loraRank: options.loraRank,
    seed: options.seed,
  });
  const numbering = { train: 0, sampler: 0, sample: 0 };
  const nextTrain = (): number => ++numbering.train;
  if (options.resumeFrom !== undefined)
    await api.loadWeights(client, modelId, nextTrain(), options.resumeFrom.statePath);
  let sampler: Promise<string> | undefined;
  const nextSampler = (): number => numbering.sampler++;
  return {
    client,
    sessionId,
    modelId,
    contextLength,
    renderer,
    limiter: createRequestLimiter({
      concurrency: options.sampleConcurrency ?? 64,
      rpm: 0,
      now: Date.now,
      sleep: realSleep,
    }),
    counts: { tokens: 0 },
    nextTrain,
    nextSample: () => numbering.sample++,
    nextSampler,
    currentSampler: () =>
      (sampler ??= api.samplerForCurrentWeights(client, modelId, nextTrain(), nextSampler()).catch((error: unknown) => {
        sampler = undefined;
        throw error;
      })),
    weightsChanged: () => {
      sampler = undefined;
    },
    close: startHeartbeat(client, sessionId, options.heartbeatMs),
  };
}
