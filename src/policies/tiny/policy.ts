// The in-process transformer as a `Policy` for the rollout engine. The prompt is the conversation rendered
// with special tokens (render.ts); the answer is sampled up to end-of-turn (or maxNewTokens) and returned
// with its tokens and their log-probs under the model (temperature 1), which RL needs.
//
// Batching: the rollout engine runs many episodes concurrently; act() calls made while the model is busy,
// or in the same tick, are sampled together in one batched call (up to maxBatch). Each call's randomness is
// its own seed, deriveSeed(context.seed, "tiny-policy", context.turn), and the model never mixes rows, so
// an answer does not depend on which batch it landed in or how the rollouts were scheduled.
import type { Act, Policy, PolicyContext } from "../../core/policy.js";
import type { Message } from "../../core/message.js";
import { ConfigError } from "../../core/errors.js";
import { deriveSeed } from "../../core/rng.js";
import type { TinyModel } from "../../nn/model.js";
import type { Generated } from "../../nn/generate.js";
import { decodeTokens, END } from "../../nn/tokenizer.js";
import { renderPrompt } from "./render.js";

export interface TinyPolicyOptions {
  readonly model: TinyModel;
  readonly name?: string;
  /** Longest answer in tokens (bytes); default 48. */
  readonly maxNewTokens?: number;
  /** Default 1 (the distribution RL trains); 0 is greedy. */
  readonly temperature?: number;
  readonly topP?: number;
  /** Most prompts sampled in one call; default 64. */
  readonly maxBatch?: number;
}

export interface TinyPolicy extends Policy {
  /** Prompt tokens the policy would use for this conversation (RL rebuilds sequences with it). */
  promptTokens(conversation: readonly Message[]): number[];
}

interface Request {
  readonly prompt: number[];
  readonly seed: number;
  readonly resolve: (generated: Generated) => void;
  readonly reject: (error: unknown) => void;
}

export function policySeed(context: Pick<PolicyContext, "seed" | "turn">): number {
  return deriveSeed(context.seed, "tiny-policy", context.turn);
}

export function createTinyPolicy(options: TinyPolicyOptions): TinyPolicy {
  const { model } = options;
  const maxNewTokens = options.maxNewTokens ?? 48;
  const maxBatch = options.maxBatch ?? 64;
  const T = model.config.contextLength;
  if (!(Number.isInteger(maxNewTokens) && maxNewTokens >= 1 && maxNewTokens <= T - 3)) throw new ConfigError("policy.maxNewTokens", `must be an integer in [1, ${T - 3}], got ${maxNewTokens}`);
  if (!(Number.isInteger(maxBatch) && maxBatch >= 1)) throw new ConfigError("policy.maxBatch", `must be a positive integer, got ${maxBatch}`);
  // Room kept for the answer: all of maxNewTokens, but never more than half the context.
  const budget = T - Math.min(maxNewTokens, Math.floor(T / 2));
  const sampleOptions = { maxNewTokens, temperature: options.temperature ?? 1, topP: options.topP ?? 1, stopTokens: [END] };
  const queue: Request[] = [];
  let running = false;

  const drain = async (): Promise<void> => {
    running = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await model.sample(batch.map((r) => r.prompt), { ...sampleOptions, seeds: batch.map((r) => r.seed) });
        batch.forEach((r, i) => r.resolve(results[i]!));
      } catch (error: unknown) {
        for (const r of batch) r.reject(error);
      }
    }
    running = false;
  };

  const promptTokens = (conversation: readonly Message[]): number[] => renderPrompt(conversation, budget);

  return {
    name: options.name ?? "tiny",
    promptTokens,
    act(conversation, context): Promise<Act> {
      const prompt = promptTokens(conversation);
      return new Promise<Generated>((resolve, reject) => {
        queue.push({ prompt, seed: policySeed(context), resolve, reject });
        // Let every act() issued in this tick join the batch before sampling starts.
        if (!running) setImmediate(() => void (running ? undefined : drain()));
      }).then((generated) => {
        const text = generated.tokens.filter((t) => t !== END);
        return { message: { role: "assistant", content: decodeTokens(text) }, tokens: generated.tokens, logprobs: generated.logprobs };
      });
    },
  };
}
