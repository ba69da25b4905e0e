// A model behind an OpenAI-compatible server as a `Policy`: each turn is one chat-completions request (native
// tool calls when the env offers tools, plain chat otherwise), answered from the response cache when it can be.
//
// Seeds. Every request carries a seed derived from what identifies the call, so that the same run asks the
// same things again (and hits the cache):
//   one request per sample (n = 1, or any turn after the first):  deriveSeed(seed option, "openai", episode seed, turn)
//   n > 1, first turn: samples s of a task go in blocks b = floor(s / n) sharing one request of n choices (their
//   first prompts are equal), choice j answering sample b*n + j:  deriveSeed(seed option, "openai-n", run seed, task, b)
//   seedScheme "tiny" (n = 1):                                     deriveSeed(episode seed, "tiny-policy", turn), the
//   in-process tiny policy's own seed (tiny/policy.ts), so that `budgetrl serve` (which samples a request's first
//   choice with the request's seed) answers as --policy tiny:CKPT does
// The cache key holds (model, request without seed and n, sample index, seed), so every choice of a block is
// stored under its own sample, and the samples stay independent. Concurrent callers of one block share the
// request in flight; choices not yet claimed wait in memory for their sample (so --no-cache sends a block once).
//
// Only chat completions reach this file: the transport refuses any other 2xx body as a policy error
// (MalformedResponseError, response.ts), so what is cached is always a choice the model wrote.
//
// Token data: log-probs, token ids and prompt token ids where the server gives them, with the sampling
// temperature and top-p (`Act.sampling`), which the store keeps per turn.
import type { JsonObject } from "../../core/json.js";
import type { Act, Policy, PolicyContext, SamplingRecord } from "../../core/policy.js";
import { deriveSeed } from "../../core/rng.js";
import { policySeed } from "../tiny/policy.js";
import { cacheKey, requestIdentity, type RequestIdentity, type ResponseCache } from "./cache.js";
import type { SamplingOptions } from "./options.js";
import { chatRequest } from "./request.js";
import { readChoices, type SampledChoice } from "./response.js";
import type { ChatTransport } from "./transport.js";

export interface OpenaiPolicyOptions {
  readonly model: string;
  readonly sampling: SamplingOptions;
  readonly transport: ChatTransport;
  /** The response cache, or none (--no-cache). */
  readonly cache?: ResponseCache;
  /** The run's seed (blocks of n choices derive their seed from it). */
  readonly runSeed?: number;
}

export interface OpenaiPolicyStats {
  readonly cacheHits: number;
  readonly transport: ReturnType<ChatTransport["stats"]>;
}

export interface OpenaiPolicy extends Policy {
  stats(): OpenaiPolicyStats;
}

/** One request plan: the body's seed and n, and which sample index each choice answers. */
interface Plan {
  readonly seed: number;
  readonly n: number;
  /** Sample index of choice 0 (choice j answers firstSample + j). */
  readonly firstSample: number;
}

export function planRequest(
  sampling: Pick<SamplingOptions, "n" | "seed" | "seedScheme">,
  context: Pick<PolicyContext, "seed" | "sample" | "turn" | "taskId">,
  runSeed: number,
): Plan {
  if (sampling.seedScheme === "tiny") return { seed: policySeed(context), n: 1, firstSample: context.sample };
  if (sampling.n > 1 && context.turn === 1) {
    const block = Math.floor(context.sample / sampling.n);
    return {
      seed: deriveSeed(sampling.seed, "openai-n", runSeed, context.taskId, block),
      n: sampling.n,
      firstSample: block * sampling.n,
    };
  }
  return { seed: deriveSeed(sampling.seed, "openai", context.seed, context.turn), n: 1, firstSample: context.sample };
}

export function samplingRecord(
  choice: SampledChoice,
  sampling: Pick<SamplingOptions, "temperature" | "topP">,
): SamplingRecord {
  return {
    temperature: sampling.temperature,
    topP: sampling.topP,
    ...(choice.tokenTexts === undefined ? {} : { tokenTexts: choice.tokenTexts }),
    ...(choice.promptTokens === undefined ? {} : { promptTokens: choice.promptTokens }),
    ...(choice.finishReason === undefined ? {} : { finishReason: choice.finishReason }),
    ...(choice.model === undefined ? {} : { model: choice.model }),
  };
}

function actOf(choice: SampledChoice, sampling: SamplingOptions): Act {
  return {
    message: choice.message,
    ...(choice.tokens === undefined ? {} : { tokens: choice.tokens }),
    ...(choice.logprobs === undefined ? {} : { logprobs: choice.logprobs }),
    sampling: samplingRecord(choice, sampling),
  };
}

export function createOpenaiPolicy(options: OpenaiPolicyOptions): OpenaiPolicy {
  const { model, sampling, transport, cache } = options;
  const runSeed = options.runSeed ?? 0;
  const inFlight = new Map<string, Promise<(SampledChoice | undefined)[]>>();
  /** Choices of n-blocks not yet claimed by their sample, by cache key. */
  const unclaimed = new Map<string, SampledChoice>();
  let cacheHits = 0;

  /** Send one planned request (shared by the callers of its block) and cache every choice it returned. */
  const fetchChoices = (
    request: JsonObject,
    identity: RequestIdentity | undefined,
    plan: Plan,
    turn: number,
    signal?: AbortSignal,
  ): Promise<(SampledChoice | undefined)[]> => {
    const flightKey = identity === undefined ? undefined : cacheKey(identity, plan.firstSample, plan.seed);
    let pending = flightKey === undefined ? undefined : inFlight.get(flightKey);
    if (pending === undefined) {
      const body: JsonObject = { ...request, seed: plan.seed, ...(plan.n > 1 ? { n: plan.n } : {}) };
      pending = transport.complete(body, plan.seed, signal).then((response) => {
        const choices = readChoices(response, `call_t${turn}`).slice(0, plan.n);
        if (identity !== undefined) {
          choices.forEach((choice, j) => {
            if (choice === undefined) return;
            const key = cacheKey(identity, plan.firstSample + j, plan.seed);
            cache?.put(key, model, choice);
            if (plan.n > 1) unclaimed.set(key, choice);
          });
        }
        return choices;
      });
      if (flightKey !== undefined) {
        const settled = pending.finally(() => inFlight.delete(flightKey));
        settled.catch(() => undefined);
        inFlight.set(flightKey, pending);
      }
    }
    return pending;
  };

  return {
    name: `openai:${model}`,
    async act(conversation, context) {
      const request = chatRequest(model, conversation, context.tools, sampling);
      const plan = planRequest(sampling, context, runSeed);
      // Keys are needed to read or fill the cache, and to share blocks of n choices; without either, no hashing.
      const identity = cache !== undefined || plan.n > 1 ? requestIdentity(model, request) : undefined;
      const key = identity === undefined ? undefined : cacheKey(identity, context.sample, plan.seed);
      if (key !== undefined) {
        const waiting = unclaimed.get(key);
        if (waiting !== undefined) {
          unclaimed.delete(key);
          return actOf(waiting, sampling);
        }
        const cached = cache?.get(key);
        if (cached !== undefined) {
          cacheHits++;
          return actOf(cached, sampling);
        }
      }
      const choices = await fetchChoices(request, identity, plan, context.turn, context.signal);
      if (key !== undefined) unclaimed.delete(key);
      const choice = choices[context.sample - plan.firstSample];
      // The transport returns only chat completions with every choice asked for (response.ts, responseProblem).
      if (choice === undefined)
        throw new Error(
          `the transport returned no choice ${context.sample - plan.firstSample} of ${plan.n}: it must check responses with responseProblem`,
        );
      return actOf(choice, sampling);
    },
    stats: () => ({ cacheHits, transport: transport.stats() }),
    close: () => cache?.close(),
  };
}
