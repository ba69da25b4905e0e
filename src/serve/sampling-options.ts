// The sampling fields chat and text completions share, as zod schemas (checked with the rest of a body) and
// their reading into SamplingRequest, with OpenAI's and vLLM's defaults:
//
//   temperature 1, top_p 1       0 <= temperature <= 2 (0: greedy), 0 < top_p <= 1
//   top_k -1, min_p 0            top_k -1 or 0 (off) or >= 1; 0 <= min_p <= 1 (nn/sampler.ts: min-p, top-k, then top-p)
//   repetition_penalty 1         0 < r <= 2; presence_penalty, frequency_penalty 0 (-2..2); logit_bias {} (token id ->
//                                -100..100); nn/penalties.ts applies them before temperature, as vLLM does
//   allowed_token_ids            the only tokens a reply may have (a mask on every token, stop tokens included)
//   bad_words                    words a reply never writes (as vLLM: the last token of a word is masked after the
//                                others, the word and " word" as the tokenizer writes them)
//   truncate_prompt_tokens       keep the prompt's last k tokens (-1: the context's)
//   prompt_logprobs              per prompt token its log-prob and the k most likely (prompt-logprobs.ts); -1: all
//   echo false                   completions: the prompt before the completion; chat: the last message's text before
//                                the reply when it is the assistant's (continue_final_message)
//   n 1                          1..--max-n choices
//   max_tokens                   >= 1; unset: the checkpoint's answer length (the endpoint checks it against the context)
//   seed                         a safe integer: the same request and seed give the same answer, bit for bit; unset:
//                                a fresh random seed per request (as vLLM and OpenAI sample afresh)
//   stop                         a string or up to 64 strings (vLLM takes any number; OpenAI 4), each non-empty
//   stop_token_ids               token ids (0..vocabulary - 1) that end a reply
//   ignore_eos false             the end token does not end a reply
//   min_tokens 0                 no stop before this many tokens (stop.ts)
//   include_stop_str_in_output   the stop string (or stop token's byte) stays in the text
//   return_token_ids, return_tokens_as_token_ids   vLLM's token-id fields
//   stream false, stream_options.include_usage, stream_options.continuous_usage_stats   Server-Sent Events (stream.ts)
import { randomInt } from "node:crypto";
import { z } from "zod";
import { NO_PENALTIES, type Penalties } from "../nn/penalties.js";
import { badRequest } from "./errors.js";
import { stopRule, type StopRule } from "./stop.js";
import type { Vocabulary } from "./vocabulary.js";

export const MAX_STOP_STRINGS = 64;
const positive = { error: "expected an integer >= 1" };
const between = (low: number, high: number) =>
  z
    .number()
    .min(low, { error: `expected a number from ${low} to ${high}` })
    .max(high, { error: `expected a number from ${low} to ${high}` })
    .nullable()
    .optional();
const tokenId = z.number().int({ error: "expected token ids" }).min(0, { error: "expected token ids" });

export const samplingFields = {
  temperature: z
    .number()
    .min(0, { error: "expected a number from 0 to 2" })
    .max(2, { error: "expected a number from 0 to 2" })
    .nullable()
    .optional(),
  top_p: z
    .number()
    .gt(0, { error: "expected a number in (0, 1]" })
    .max(1, { error: "expected a number in (0, 1]" })
    .nullable()
    .optional(),
  top_k: z
    .number()
    .int({ error: "expected -1, 0 (off) or an integer >= 1" })
    .min(-1, { error: "expected -1, 0 (off) or an integer >= 1" })
    .nullable()
    .optional(),
  min_p: between(0, 1),
  repetition_penalty: z
    .number()
    .gt(0, { error: "expected a number in (0, 2]" })
    .max(2, { error: "expected a number in (0, 2]" })
    .nullable()
    .optional(),
  presence_penalty: between(-2, 2),
  frequency_penalty: between(-2, 2),
  logit_bias: z
    .record(z.string(), z.number({ error: "expected a number from -100 to 100" }), {
      error: 'expected an object of token ids and biases, e.g. {"65": -100}',
    })
    .nullable()
    .optional(),
  allowed_token_ids: z
    .array(tokenId, { error: "expected an array of token ids" })
    .min(1, { error: "expected at least one token id" })
    .nullable()
    .optional(),
  bad_words: z.array(z.string(), { error: "expected an array of strings" }).nullable().optional(),
  truncate_prompt_tokens: z
    .number()
    .int({ error: "expected -1 or an integer >= 1" })
    .min(-1, { error: "expected -1 or an integer >= 1" })
    .refine((value) => value !== 0, { error: "expected -1 or an integer >= 1" })
    .nullable()
    .optional(),
  prompt_logprobs: z
    .number()
    .int({ error: "expected -1 (all) or an integer >= 0" })
    .min(-1, { error: "expected -1 (all) or an integer >= 0" })
    .nullable()
    .optional(),
  echo: z.boolean().nullable().optional(),
  n: z.number().int(positive).min(1, positive).nullable().optional(),
  max_tokens: z.number().int(positive).min(1, positive).nullable().optional(),
  // zod's int() is a safe integer.
  seed: z.number().int({ error: "expected a safe integer" }).nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string(), { error: "expected a string or an array of strings" })], {
      error: "expected a string or an array of strings",
    })
    .nullable()
    .optional(),
  stop_token_ids: z
    .array(z.number().int({ error: "expected token ids" }).min(0, { error: "expected token ids" }), {
      error: "expected an array of token ids",
    })
    .nullable()
    .optional(),
  ignore_eos: z.boolean().nullable().optional(),
  min_tokens: z
    .number()
    .int({ error: "expected an integer >= 0" })
    .min(0, { error: "expected an integer >= 0" })
    .nullable()
    .optional(),
  include_stop_str_in_output: z.boolean().nullable().optional(),
  return_token_ids: z.boolean().nullable().optional(),
  return_tokens_as_token_ids: z.boolean().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z
    .object({
      include_usage: z.boolean().nullable().optional(),
      continuous_usage_stats: z.boolean().nullable().optional(),
    })
    .nullable()
    .optional(),
};

type SamplingBody = { [K in keyof typeof samplingFields]?: z.output<(typeof samplingFields)[K]> };

export interface SamplingRequest {
  readonly temperature: number;
  readonly topP: number;
  /** 0: off. */
  readonly topK: number;
  readonly minP: number;
  readonly penalties: Penalties;
  /** The only tokens a reply may have (undefined: any). */
  readonly allowedTokens: readonly number[] | undefined;
  readonly badWords: readonly string[];
  /** Keep the prompt's last this many tokens (undefined: all; the endpoint resolves -1). */
  readonly truncatePromptTokens: number | undefined;
  /** Alternatives per prompt token (0: its own log-prob only; undefined: none asked). */
  readonly promptLogprobs: number | undefined;
  readonly echo: boolean;
  readonly n: number;
  /** Unset: the checkpoint's default answer length. */
  readonly maxTokens: number | undefined;
  readonly seed: number;
  /** False when the seed was drawn for this request (no `seed` field). */
  readonly seeded: boolean;
  readonly stop: StopRule;
  readonly returnTokenIds: boolean;
  readonly tokensAsIds: boolean;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** Usage on every chunk of a stream (vLLM's continuous_usage_stats). */
  readonly continuousUsage: boolean;
}

/** A seed for a request that gave none. */
export function freshSeed(): number {
  return randomInt(0, 2 ** 48 - 1);
}

/** The token id of a logit_bias key, checked. */
function biasToken(key: string, vocab: number): number {
  const token = /^\d+$/.test(key) ? Number(key) : NaN;
  if (!Number.isSafeInteger(token) || token >= vocab)
    throw badRequest(`logit_bias.${key}`, `not a token of this model (its ids are 0..${vocab - 1})`);
  return token;
}

/** The biases and penalties of a body (the biases clamped to -100..100, as vLLM clamps them). */
function penaltiesOf(body: SamplingBody, vocab: number): Penalties {
  const bias = Object.entries(body.logit_bias ?? {}).map(
    ([key, value]) => [biasToken(key, vocab), Math.max(-100, Math.min(100, value))] as const,
  );
  const penalties = {
    repetition: body.repetition_penalty ?? 1,
    presence: body.presence_penalty ?? 0,
    frequency: body.frequency_penalty ?? 0,
    logitBias: bias.filter(([, value]) => value !== 0),
  };
  return penalties.repetition === 1 &&
    penalties.presence === 0 &&
    penalties.frequency === 0 &&
    penalties.logitBias.length === 0
    ? NO_PENALTIES
    : penalties;
}

/** The sampling fields of a checked body; `maxN` bounds n, the vocabulary the token ids and stop strings. */
export function samplingRequest(body: SamplingBody, maxN: number, vocabulary: Vocabulary): SamplingRequest {
  const vocab = vocabulary.size;
  const n = body.n ?? 1;
  if (n > maxN) throw badRequest("n", `at most ${maxN} choices per request (budgetrl serve --max-n)`);
  const stop = typeof body.stop === "string" ? [body.stop] : (body.stop ?? []);
  if (stop.length > MAX_STOP_STRINGS)
    throw badRequest("stop", `at most ${MAX_STOP_STRINGS} stop strings, got ${stop.length}`);
  const empty = stop.findIndex((text) => text === "");
  if (empty >= 0) throw badRequest(`stop[${empty}]`, "a stop string cannot be empty");
  const badToken = (body.stop_token_ids ?? []).findIndex((token) => token >= vocab);
  if (badToken >= 0)
    throw badRequest(`stop_token_ids[${badToken}]`, `not a token of this model (its ids are 0..${vocab - 1})`);
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true)
    throw badRequest("stream_options", "is only allowed with stream: true");
  const badAllowed = (body.allowed_token_ids ?? []).findIndex((token) => token >= vocab);
  if (badAllowed >= 0)
    throw badRequest(`allowed_token_ids[${badAllowed}]`, `not a token of this model (its ids are 0..${vocab - 1})`);
  const seeded = body.seed !== undefined && body.seed !== null;
  const promptLogprobs = body.prompt_logprobs ?? undefined;
  return {
    temperature: body.temperature ?? 1,
    topP: body.top_p ?? 1,
    topK: Math.max(0, body.top_k ?? 0),
    minP: body.min_p ?? 0,
    penalties: penaltiesOf(body, vocab),
    allowedTokens: body.allowed_token_ids ?? undefined,
    badWords: body.bad_words ?? [],
    truncatePromptTokens: body.truncate_prompt_tokens ?? undefined,
    promptLogprobs: promptLogprobs === -1 ? vocab : promptLogprobs,
    echo: body.echo ?? false,
    n,
    maxTokens: body.max_tokens ?? undefined,
    seed: seeded ? body.seed! : freshSeed(),
    seeded,
    stop: stopRule(
      {
        stop,
        stopTokenIds: body.stop_token_ids ?? [],
        ignoreEos: body.ignore_eos ?? false,
        minTokens: body.min_tokens ?? 0,
        includeStopStrInOutput: body.include_stop_str_in_output ?? false,
      },
      vocabulary,
    ),
    returnTokenIds: body.return_token_ids ?? false,
    tokensAsIds: body.return_tokens_as_token_ids ?? false,
    stream: body.stream ?? false,
    includeUsage: body.stream_options?.include_usage ?? false,
    continuousUsage: body.stream_options?.continuous_usage_stats ?? false,
  };
}
