// A model on a Tinker service as an evaluation policy, with no training client: a sampling session on the base model
// itself, or on the sampler weights a training checkpoint saved (the tinker:// path in its budgetrl.json), and the
// same policy the RL loop samples with (policy.ts: prompts and replies through the renderer, one asample per turn).
// Each request is seeded as the in-process tiny policy seeds a turn (no group requests: an evaluation's episodes are
// sampled alone), so a run asks the same things again and, on the same weights with the bytes renderer, a Tinker
// model answers what `tiny:CKPT` would. What the study evaluates its Tinker-trained models with.
import { ConfigError } from "../../core/errors.js";
import type { Policy } from "../../core/policy.js";
import { createRequestLimiter, realSleep } from "../../policies/openai/limiter.js";
import type { TinkerCheckpoint } from "./checkpoint.js";
import type { TinkerClient } from "./client.js";
import * as api from "./operations.js";
import { createTinkerPolicy, type SampledReply } from "./policy.js";
import type { Renderer } from "./renderer.js";
import { modelInput, TinkerProtocolError } from "./wire.js";

export interface TinkerSamplerOptions {
  readonly client: TinkerClient;
  /** The base model as it is, or a training checkpoint's saved sampler weights. */
  readonly source: { readonly baseModel: string } | { readonly checkpoint: TinkerCheckpoint };
  /** The policy's name (what an evaluation run stores as its policy). */
  readonly name: string;
  /** The renderer for the model's context (renderer.ts: openRenderer). */
  readonly renderer: (contextLength: number) => Renderer;
  readonly maxNewTokens: number;
  /** The model's context in tokens; default: the checkpoint's, else the server's max_context_length. */
  readonly contextLength?: number;
  readonly temperature?: number;
  /** Sampling requests in flight. Default 64. */
  readonly concurrency?: number;
  /** Session heartbeat period; 0: none. Default 10000. */
  readonly heartbeatMs?: number;
}

async function contextOf(client: TinkerClient, baseModel: string, given: number | undefined): Promise<number> {
  if (given !== undefined) return given;
  const models = await api.serverModels(client);
  const served = models.find((model) => model.name === baseModel);
  if (models.length > 0 && served === undefined)
    throw new ConfigError(
      "baseModel",
      `${client.baseUrl} does not serve ${baseModel}`,
      `it serves: ${models.map((model) => model.name).join(", ")}`,
    );
  if (served?.maxContextLength === undefined)
    throw new ConfigError(
      "contextLength",
      `the server does not say the context length of ${baseModel}`,
      "give it with --context-length",
    );
  return served.maxContextLength;
}

/** The policy, once its sampling session is open; `close()` ends its heartbeat. */
export async function openTinkerSamplerPolicy(options: TinkerSamplerOptions): Promise<Policy> {
  const { client, source } = options;
  const checkpoint = "checkpoint" in source ? source.checkpoint : undefined;
  const baseModel = checkpoint?.baseModel ?? (source as { readonly baseModel: string }).baseModel;
  const contextLength = await contextOf(client, baseModel, options.contextLength ?? checkpoint?.contextLength);
  const renderer = options.renderer(contextLength);
  const sessionId = await api.createSession(client, ["budgetrl", "eval"]);
  const samplingSessionId = await api.createSamplingSession(
    client,
    sessionId,
    0,
    checkpoint === undefined ? { baseModel } : { modelPath: checkpoint.samplerPath },
  );
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => void api.heartbeat(client, sessionId).catch(() => undefined), heartbeatMs)
      : undefined;
  heartbeat?.unref();
  const limiter = createRequestLimiter({
    concurrency: options.concurrency ?? 64,
    rpm: 0,
    now: Date.now,
    sleep: realSleep,
  });
  let seqId = 0;
  const sampleReplies = (prompt: readonly number[], seed: number, count: number): Promise<SampledReply[]> =>
    limiter.run(async () => {
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
        seqId: seqId++,
        prompt: modelInput(prompt),
        params,
        numSamples: count,
      });
      if (output.sequences.length !== count)
        throw new TinkerProtocolError(`asample returned ${output.sequences.length} sequences for num_samples ${count}`);
      return output.sequences.map((sequence) => {
        if (
          sequence.logprobs === undefined ||
          sequence.logprobs === null ||
          sequence.logprobs.length !== sequence.tokens.length
        )
          throw new TinkerProtocolError("asample returned a sequence without one log-prob per token");
        return { tokens: sequence.tokens, logprobs: sequence.logprobs };
      });
    });
  const policy = createTinkerPolicy(options.name, renderer, sampleReplies, { groupSampling: false });
  return {
    name: options.name,
    act: (conversation, context) => policy.act(conversation, context),
    ...(policy.endEpisode === undefined ? {} : { endEpisode: (episode: object) => policy.endEpisode?.(episode) }),
    close: () => {
      if (heartbeat !== undefined) clearInterval(heartbeat);
    },
  };
}
