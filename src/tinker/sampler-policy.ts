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
import { canonicalJson } from "../core/json.js";
import type { Policy } from "../core/policy.js";
import type { ResponseCache } from "../policies/openai/cache.js";
import { createRequestLimiter, realSleep } from "../policies/openai/limiter.js";
import type { TinkerCheckpoint } from "./checkpoint.js";
import type { TinkerClient } from "./client.js";
import * as api from "./operations.js";
import { startHeartbeat } from "./heartbeat.js";
import { createTinkerPolicy, type SampleReplies } from "./policy.js";
import type { Renderer } from "../policies/renderers/renderer.js";
import { replyParams, sampleReplies } from "./sample.js";
import { contextLengthOf, servedModel } from "./served-model.js";
import type { SamplingParams } from "./wire.js";

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

/** The context length given, else the server's (only then is the server asked). */
async function contextOf(client: TinkerClient, baseModel: string, given: number | undefined): Promise<number> {
  return given ?? contextLengthOf(baseModel, undefined, await servedModel(client, baseModel));
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

/** An open sampling session: its id, its renderer, and its heartbeat's stop. */
interface OpenSession {
  readonly samplingSessionId: string;
  readonly renderer: Renderer;
  readonly stopHeartbeat: () => void;
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
  return {
    samplingSessionId,
    renderer,
    stopHeartbeat: startHeartbeat(client, sessionId, options.heartbeatMs),
    seqId: 0,
  };
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
      const params = replyParams(open.renderer.stopTokens, options.maxNewTokens, seed, options.temperature);
      const keys = Array.from({ length: count }, (_, j) => cacheKey(options.source, prompt, params, j));
      const cached = keys.map((key) => options.cache?.get(key));
      if (cached.every((choice) => choice?.tokens !== undefined && choice.logprobs !== undefined))
        return cached.map((choice) => ({ tokens: choice?.tokens ?? [], logprobs: choice?.logprobs ?? [] }));
      const replies = await sampleReplies(options.client, {
        samplingSessionId: open.samplingSessionId,
        seqId: open.seqId++,
        prompt,
        params,
        count,
      });
      replies.forEach((reply, j) =>
        options.cache?.put(keys[j]!, model, {
          message: { role: "assistant", content: "" },
          tokens: reply.tokens,
          logprobs: reply.logprobs,
        }),
      );
      return replies;
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
      opened?.stopHeartbeat();
      options.cache?.close();
    },
  };
}
