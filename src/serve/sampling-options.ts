// The sampling fields chat and text completions share, as zod schemas (checked with the rest of a body) and
// their reading into SamplingRequest, with OpenAI's and vLLM's defaults:
//
//   temperature 1, top_p 1       0 <= temperature <= 2 (0: greedy), 0 < top_p <= 1
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
import { badRequest } from "./errors.js";
import { stopRule, type StopRule } from "./stop.js";

export const MAX_STOP_STRINGS = 64;
const positive = { error: "expected an integer >= 1" };

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

/** The sampling fields of a checked body; `maxN` bounds n, `vocab` the stop token ids. */
export function samplingRequest(body: SamplingBody, maxN: number, vocab: number): SamplingRequest {
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
  const seeded = body.seed !== undefined && body.seed !== null;
  return {
    temperature: body.temperature ?? 1,
    topP: body.top_p ?? 1,
    n,
    maxTokens: body.max_tokens ?? undefined,
    seed: seeded ? body.seed! : freshSeed(),
    seeded,
    stop: stopRule({
      stop,
      stopTokenIds: body.stop_token_ids ?? [],
      ignoreEos: body.ignore_eos ?? false,
      minTokens: body.min_tokens ?? 0,
      includeStopStrInOutput: body.include_stop_str_in_output ?? false,
    }),
    returnTokenIds: body.return_token_ids ?? false,
    tokensAsIds: body.return_tokens_as_token_ids ?? false,
    stream: body.stream ?? false,
    includeUsage: body.stream_options?.include_usage ?? false,
    continuousUsage: body.stream_options?.continuous_usage_stats ?? false,
  };
}
