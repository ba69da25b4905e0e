// A model on a Tinker service as an evaluation policy, with no training client: a sampling session on the base model
// itself, on the sampler weights a training checkpoint saved (the tinker:// path in its budgetrl.json), or on a
// tinker:// sampler path given as it is, and the same policy the RL loop samples with (policy.ts: prompts and replies
// through the renderer, one asample per turn). Each request is seeded as the in-process tiny policy seeds a turn (no
// group requests: an evaluation's episodes are sampled alone), so a run asks the same things again and, on the same
// weights with the bytes renderer, a Tinker model answers what `tiny:CKPT` would.
// The session opens on the first turn, not before (the context length, the session and the sampling session are
// asked of the service then): a service that is down makes that turn fail, as any request that fails after the
// client's deadline does, and the episode ends in a policy error that a resumed run plays again; the next turn
// tries to open it again. With a response cache (the openai policy's SQLite file, cache.ts), a request asked before
// (same sampler, prompt tokens, sampling parameters and seed) is answered from disk: its tokens and log-probs.
// What `budgetrl eval --policy tinker:...` (policy-kind.ts) and the study evaluate Tinker models with.
import { createHash } from "node:crypto";
import { ConfigError } from "../core/errors.js";
import { canonicalJson } from "../core/json.js";
import type { Policy } from "../core/policy.js";
import type { ResponseCache } from "../policies/openai/cache.js";
import { createRequestLimiter, realSleep } from "../policies/openai/limiter.js";
import type { TinkerCheckpoint } from "./checkpoint.js";
import type { TinkerClient } from "./client.js";
import * as api from "./operations.js";
import { createTinkerPolicy, type SampledReply, type SampleReplies } from "./policy.js";
import type { Renderer } from "../policies/renderers/renderer.js";
import { modelInput, TinkerProtocolError, type SamplingParams } from "./wire.js";

/** What is sampled: the base model, a training checkpoint's sampler weights, or sampler weights by their path. */
export type TinkerSamplerSource =
  | { readonly baseModel: string }
  | { readonly checkpoint: TinkerCheckpoint }
  | { readonly samplerPath: string; readonly baseModel: string };

export interface TinkerSamplerOptions {
  readonly client: TinkerClient;
  readonly source: TinkerSamplerSource;
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
  /** Answers of requests asked before (cache.ts); none: every request goes to the service. */
  readonly cache?: ResponseCache;
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

/** The base model of a source, and what a sampling session is created on. */
function sessionTarget(source: TinkerSamplerSource): {
  readonly baseModel: string;
  readonly target: { readonly baseModel: string } | { readonly modelPath: string };
} {
  if ("checkpoint" in source)
    return { baseModel: source.checkpoint.baseModel, target: { modelPath: source.checkpoint.samplerPath } };
  if ("samplerPath" in source) return { baseModel: source.baseModel, target: { modelPath: source.samplerPath } };
  return { baseModel: source.baseModel, target: { baseModel: source.baseModel } };
}

/** An open sampling session: its id, its renderer, and the heartbeat to stop. */
interface OpenSession {
  readonly samplingSessionId: string;
  readonly renderer: Renderer;
  readonly heartbeat: NodeJS.Timeout | undefined;
  seqId: number;
}

async function openSession(options: TinkerSamplerOptions): Promise<OpenSession> {
  const { client, source } = options;
  const { baseModel, target } = sessionTarget(source);
  const checkpoint = "checkpoint" in source ? source.checkpoint : undefined;
  const contextLength = await contextOf(client, baseModel, options.contextLength ?? checkpoint?.contextLength);
  const renderer = options.renderer(contextLength);
  const sessionId = await api.createSession(client, ["budgetrl", "eval"]);
  const samplingSessionId = await api.createSamplingSession(client, sessionId, 0, target);
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => void api.heartbeat(client, sessionId).catch(() => undefined), heartbeatMs)
      : undefined;
  heartbeat?.unref();
  return { samplingSessionId, renderer, heartbeat, seqId: 0 };
}

/** The cache's key of sample `index` of a request (the sampler, not the server, is part of it: as the openai cache,
 * which leaves out the base URL). */
function cacheKey(
  source: TinkerSamplerSource,
  prompt: readonly number[],
  params: SamplingParams,
  index: number,
): string {
  const { target } = sessionTarget(source);
  return createHash("sha256")
    .update(canonicalJson({ tinker: target, prompt, params, index }))
    .digest("hex");
}

/** Samples through the session, one request for `count` replies, or the cache's answers when it has all of them. */
function sampler(options: TinkerSamplerOptions, session: () => Promise<OpenSession>): SampleReplies {
  const limiter = createRequestLimiter({
    concurrency: options.concurrency ?? 64,
    rpm: 0,
    now: Date.now,
    sleep: realSleep,
  });
  // The cache's model column (`budgetrl cache` lists answers per model): the base model or the sampler weights' path.
  const { target } = sessionTarget(options.source);
  const model = `tinker:${"baseModel" in target ? target.baseModel : target.modelPath}`;
  return (prompt, seed, count) =>
    limiter.run(async () => {
      const open = await session();
      const params = {
        max_tokens: options.maxNewTokens,
        seed,
        stop: [...open.renderer.stopTokens],
        temperature: options.temperature ?? 1,
        top_k: -1,
        top_p: 1,
      };
      const keys = Array.from({ length: count }, (_, j) => cacheKey(options.source, prompt, params, j));
      const cached = keys.map((key) => options.cache?.get(key));
      if (cached.every((choice) => choice?.tokens !== undefined && choice.logprobs !== undefined))
        return cached.map((choice) => ({ tokens: choice?.tokens ?? [], logprobs: choice?.logprobs ?? [] }));
      const replies = await sampleOnce(options.client, open, prompt, params, count);
      replies.forEach((reply, j) =>
        options.cache?.put(keys[j] as string, model, {
          message: { role: "assistant", content: "" },
          tokens: reply.tokens,
          logprobs: reply.logprobs,
        }),
      );
      return replies;
    });
}

async function sampleOnce(
  client: TinkerClient,
  open: OpenSession,
  prompt: readonly number[],
  params: SamplingParams,
  count: number,
): Promise<SampledReply[]> {
  const output = await api.sample(client, {
    samplingSessionId: open.samplingSessionId,
    seqId: open.seqId++,
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
}

/** The policy; its sampling session opens on the first turn. `close()` ends its heartbeat and closes the cache. */
export function openTinkerSamplerPolicy(options: TinkerSamplerOptions): Policy {
  let opening: Promise<OpenSession> | undefined;
  let opened: OpenSession | undefined;
  const session = (): Promise<OpenSession> =>
    (opening ??= openSession(options).then(
      (open) => (opened = open),
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    ));
  const sampleReplies = sampler(options, session);
  // The renderer is the session's (it needs the context length): the policy is made once the session is open.
  let policy: ReturnType<typeof createTinkerPolicy> | undefined;
  const ready = async (): Promise<ReturnType<typeof createTinkerPolicy>> => {
    const open = await session();
    policy ??= createTinkerPolicy(options.name, open.renderer, sampleReplies, { groupSampling: false });
    return policy;
  };
  return {
    name: options.name,
    act: async (conversation, context) => (await ready()).act(conversation, context),
    endEpisode: (episode: object) => policy?.endEpisode?.(episode),
    close: () => {
      if (opened?.heartbeat !== undefined) clearInterval(opened.heartbeat);
      options.cache?.close();
    },
  };
}
