// POST /v1/completions: text completion of raw prompts, as RL harnesses drive vLLM (token ids in, token ids and
// log-probs out). No chat rendering: the prompt's bytes (or token ids) are the model's input as they are.
//
//   prompt                a string, an array of strings, an array of token ids, or an array of arrays of token
//                         ids (ids 0..vocabulary - 1; 256 is <|end|>, 257-259 the role markers); each prompt is
//                         answered with n choices, choice index = prompt * n + j, each prompt's choice j sampled
//                         with choiceSeed(seed, j) (engine.ts)
//   max_tokens            default the checkpoint's answer length, cut to the room the context leaves; a prompt and
//                         max_tokens that do not fit the context together are refused (400, "maximum context
//                         length"), as vLLM refuses them
//   logprobs k (0..20)    per sampled token its log-prob and the k most likely tokens:
//                         {tokens, token_logprobs, top_logprobs: [{text: logprob}] (the sampled token and the k
//                         alternatives), text_offset}
//   echo                  the prompt's text before the completion's; with logprobs 0 its tokens come first in the
//                         log-probs (the first null, the others the model's scoring); echo with logprobs above 0 is
//                         refused (the alternatives of prompt tokens are not computed)
//   the sampling fields   sampling-options.ts (temperature, top_p, n, seed, stop, stop_token_ids, ignore_eos,
//                         min_tokens, include_stop_str_in_output, return_token_ids, stream, stream_options)
// With return_token_ids each choice carries prompt_token_ids and token_ids (vLLM's fields). Streams send
// `text_completion` chunks token by token (stream.ts), then the usage chunk when asked, then [DONE].
import { z } from "zod";
import type { Json, JsonObject } from "../core/json.js";
import type { TinyModel } from "../nn/model.js";
import { decodeTokens, encodeText } from "../nn/tokenizer.js";
import { choiceSeed, type GenerationRequest, type SampledChoice, type SamplingEngine } from "./engine.js";
import { asHttpError, badRequest } from "./errors.js";
import { refuseUnhonoured } from "./fields.js";
import { finiteLogprob, tokenText, usageChunk, usageOf, type ResponseMeta } from "./response.js";
import { samplingFields, samplingRequest, type SamplingRequest } from "./sampling-options.js";
import { createTextReleaser, type EventSink } from "./stream.js";

export interface CompletionPrompt {
  readonly tokens: readonly number[];
  /** The text as sent (a string prompt), for echo. */
  readonly text: string | undefined;
}

export interface CompletionRequest {
  readonly model: string;
  readonly prompts: readonly CompletionPrompt[];
  readonly sampling: SamplingRequest;
  /** Alternatives per token when log-probs are asked; undefined: no log-probs. */
  readonly logprobs: number | undefined;
  readonly echo: boolean;
}

export interface CompletionContext {
  readonly engine: SamplingEngine;
  readonly model: Pick<TinyModel, "config" | "logprobs">;
  readonly defaultMaxTokens: number;
  /** Most sequences (prompts x n) per request. */
  readonly maxQueue: number;
}

const tokenIds = z.array(z.number().int({ error: "expected token ids" }).min(0, { error: "expected token ids" }), {
  error: "expected token ids",
});
const prompt = z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds).min(1)], {
  error: "expected a string, an array of strings, an array of token ids or an array of arrays of token ids",
});

const bodySchema = z.object({
  ...samplingFields,
  model: z.string({ error: "expected the model's name" }),
  prompt,
  logprobs: z
    .number()
    .int({ error: "expected an integer from 0 to 20" })
    .min(0, { error: "expected an integer from 0 to 20" })
    .max(20, { error: "expected an integer from 0 to 20" })
    .nullable()
    .optional(),
  echo: z.boolean().nullable().optional(),
});

function paramOf(path: readonly PropertyKey[]): string {
  return (
    path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("") ||
    "body"
  );
}

function promptsOf(value: z.output<typeof prompt>, vocab: number): CompletionPrompt[] {
  const prompts: CompletionPrompt[] =
    typeof value === "string"
      ? [{ tokens: encodeText(value), text: value }]
      : value.every((item) => typeof item === "string")
        ? (value as string[]).map((text) => ({ tokens: encodeText(text), text }))
        : value.every((item) => typeof item === "number")
          ? [{ tokens: value as number[], text: undefined }]
          : (value as number[][]).map((tokens) => ({ tokens, text: undefined }));
  const single = typeof value === "string" || value.every((item) => typeof item === "number");
  prompts.forEach((one, i) => {
    const at = single ? "prompt" : `prompt[${i}]`;
    if (one.tokens.length === 0) throw badRequest(at, "a prompt needs at least one token");
    const bad = one.tokens.findIndex((token) => token >= vocab);
    if (bad >= 0)
      throw badRequest(at, `token ${one.tokens[bad]} is not a token of this model (its ids are 0..${vocab - 1})`);
  });
  return prompts;
}

export function parseCompletionRequest(raw: unknown, maxN: number, vocab: number): CompletionRequest {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw badRequest(null, "the body must be a JSON object");
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const missing = issue.path.length === 1 && (raw as Record<string, unknown>)[String(issue.path[0])] === undefined;
    throw badRequest(paramOf(issue.path), missing ? "is required" : issue.message);
  }
  const body = parsed.data;
  refuseUnhonoured(raw as Record<string, unknown>, "completions");
  const logprobs = body.logprobs ?? undefined;
  const echo = body.echo ?? false;
  if (echo && (logprobs ?? 0) > 0)
    throw badRequest(
      "echo",
      "with logprobs above 0 is not supported: the alternatives of prompt tokens are not computed (logprobs 0 gives each prompt token's log-prob)",
    );
  return {
    model: body.model,
    prompts: promptsOf(body.prompt, vocab),
    sampling: samplingRequest(body, maxN, vocab),
    logprobs,
    echo,
  };
}

/** A prompt's answer length: max_tokens, checked against the context, or the default cut to the room left. */
function answerLength(
  context: CompletionContext,
  request: CompletionRequest,
  promptTokens: number,
  at: string,
): number {
  const contextLength = context.model.config.contextLength;
  const asked = request.sampling.maxTokens;
  if (promptTokens >= contextLength || (asked !== undefined && promptTokens + asked > contextLength)) {
    throw badRequest(
      at,
      `This model's maximum context length is ${contextLength} tokens. However, you requested ${promptTokens + (asked ?? 1)} tokens (${promptTokens} in the prompt, ${asked ?? 1} in the completion). Please reduce the length of the prompt or completion.`,
      "context_length_exceeded",
    );
  }
  return asked ?? Math.min(context.defaultMaxTokens, contextLength - promptTokens);
}

interface PreparedPrompt {
  readonly prompt: CompletionPrompt;
  readonly generation: GenerationRequest;
}

function prepare(context: CompletionContext, request: CompletionRequest, stream: boolean): PreparedPrompt[] {
  const { sampling } = request;
  const sequences = request.prompts.length * sampling.n;
  if (sequences > context.maxQueue)
    throw badRequest(
      "prompt",
      `${request.prompts.length} prompts x n ${sampling.n} = ${sequences} sequences, more than the server queues at once (budgetrl serve --max-queue ${context.maxQueue})`,
    );
  const prepared = request.prompts.map((one, i) => ({
    prompt: one,
    generation: {
      prompt: one.tokens,
      keepSessions: false,
      seeds: Array.from({ length: sampling.n }, (_, j) => choiceSeed(sampling.seed, j)),
      maxTokens: answerLength(
        context,
        request,
        one.tokens.length,
        request.prompts.length === 1 ? "prompt" : `prompt[${i}]`,
      ),
      temperature: sampling.temperature,
      topP: sampling.topP,
      topLogprobs: request.logprobs ?? 0,
      stop: sampling.stop,
      stepwise: stream,
    },
  }));
  context.engine.checkRoom(sequences);
  return prepared;
}

/** The log-probs object of tokens, their text offsets from `offset` (characters) on. */
interface LogprobRows {
  readonly tokens: string[];
  readonly token_logprobs: (number | null)[];
  readonly top_logprobs: (JsonObject | null)[];
  readonly text_offset: number[];
}

const emptyRows = (): LogprobRows => ({ tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] });

/** Character offsets of tokens in a text, token by token: each token's offset is the text decoded before it. */
function offsetCounter(start: number): (token: number) => number {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let length = start;
  return (token) => {
    const at = length;
    if (token < 256) length += decoder.decode(Uint8Array.of(token), { stream: true }).length;
    return at;
  };
}

/** Character offsets of each token's text within the text of `tokens`, from `start` on. */
function textOffsets(tokens: readonly number[], start: number): number[] {
  return tokens.map(offsetCounter(start));
}

function completionRows(choice: SampledChoice, asIds: boolean, offsets: readonly number[]): LogprobRows {
  const flags = { tokensAsIds: asIds };
  const rows = emptyRows();
  choice.tokens.forEach((token, i) => {
    rows.tokens.push(tokenText(token, flags));
    rows.token_logprobs.push(finiteLogprob(choice.logprobs[i]!));
    const top: Record<string, number> = { [tokenText(token, flags)]: finiteLogprob(choice.logprobs[i]!) };
    for (const alt of choice.alternatives?.[i] ?? []) top[tokenText(alt.token, flags)] ??= finiteLogprob(alt.logprob);
    rows.top_logprobs.push(top);
    rows.text_offset.push(offsets[i]!);
  });
  return rows;
}

/** The log-prob rows of an echoed prompt: its first token has none, the others the model's scoring. */
async function promptRows(context: CompletionContext, tokens: readonly number[], asIds: boolean): Promise<LogprobRows> {
  const [scored] = await context.model.logprobs([tokens]);
  const rows = emptyRows();
  const offsets = textOffsets(tokens, 0);
  tokens.forEach((token, i) => {
    const text = tokenText(token, { tokensAsIds: asIds });
    const logprob = i === 0 ? null : finiteLogprob(scored![i - 1]!);
    rows.tokens.push(text);
    rows.token_logprobs.push(logprob);
    rows.top_logprobs.push(logprob === null ? null : { [text]: logprob });
    rows.text_offset.push(offsets[i]!);
  });
  return rows;
}

const joinRows = (a: LogprobRows, b: LogprobRows): LogprobRows => ({
  tokens: [...a.tokens, ...b.tokens],
  token_logprobs: [...a.token_logprobs, ...b.token_logprobs],
  top_logprobs: [...a.top_logprobs, ...b.top_logprobs],
  text_offset: [...a.text_offset, ...b.text_offset],
});

const promptText = (one: CompletionPrompt): string => one.text ?? decodeTokens(one.tokens);
const choiceText = (choice: SampledChoice): string =>
  decodeTokens(choice.tokens.slice(0, choice.stop?.textTokens ?? choice.tokens.length));

export async function answerCompletions(
  context: CompletionContext,
  request: CompletionRequest,
  meta: ResponseMeta,
): Promise<JsonObject> {
  const prepared = prepare(context, request, false);
  const { sampling } = request;
  const sampled = await Promise.all(prepared.map((one) => context.engine.generate(one.generation)));
  const echoRows =
    request.echo && request.logprobs !== undefined
      ? await Promise.all(prepared.map((one) => promptRows(context, one.prompt.tokens, sampling.tokensAsIds)))
      : undefined;
  const choices: Json[] = [];
  sampled.forEach((perPrompt, i) => {
    const one = prepared[i]!.prompt;
    const head = request.echo ? promptText(one) : "";
    for (const choice of perPrompt) {
      const rows =
        request.logprobs === undefined
          ? null
          : completionRows(choice, sampling.tokensAsIds, textOffsets(choice.tokens, head.length));
      choices.push({
        index: i * sampling.n + choice.index,
        text: head + choiceText(choice),
        logprobs:
          rows === null
            ? null
            : ((echoRows === undefined ? rows : joinRows(echoRows[i]!, rows)) as unknown as JsonObject),
        finish_reason: choice.finish,
        stop_reason: choice.stop?.reason ?? null,
        ...(sampling.returnTokenIds ? { prompt_token_ids: [...one.tokens], token_ids: [...choice.tokens] } : {}),
      });
    }
  });
  const promptTokens = request.prompts.reduce((sum, one) => sum + one.tokens.length, 0);
  const completionTokens = sampled.flat().reduce((sum, choice) => sum + choice.tokens.length, 0);
  return {
    id: meta.id,
    object: "text_completion",
    created: meta.created,
    model: meta.model,
    choices,
    usage: usageOf(promptTokens, completionTokens),
  };
}

/** The completion streamed: per token its text (and log-probs), per choice a last chunk with its finish reason. */
export async function streamCompletions(
  context: CompletionContext,
  request: CompletionRequest,
  meta: ResponseMeta,
  sink: EventSink,
): Promise<void> {
  const prepared = prepare(context, request, true);
  const { sampling } = request;
  const n = sampling.n;
  const counts = new Array<number>(prepared.length * n).fill(0);
  const promptTokens = request.prompts.reduce((sum, one) => sum + one.tokens.length, 0);
  const usage = (): JsonObject => {
    if (sampling.continuousUsage)
      return {
        usage: usageOf(
          promptTokens,
          counts.reduce((a, b) => a + b, 0),
        ),
      };
    return sampling.includeUsage ? { usage: null } : {};
  };
  const chunk = (choice: JsonObject): JsonObject => ({
    id: meta.id,
    object: "text_completion",
    created: meta.created,
    model: meta.model,
    choices: [choice],
    ...usage(),
  });
  const echoRows =
    request.echo && request.logprobs !== undefined
      ? await Promise.all(prepared.map((one) => promptRows(context, one.prompt.tokens, sampling.tokensAsIds)))
      : undefined;
  prepared.forEach((one, i) => {
    for (let j = 0; j < n; j++) {
      const index = i * n + j;
      const ids: JsonObject = sampling.returnTokenIds ? { prompt_token_ids: [...one.prompt.tokens] } : {};
      if (request.echo)
        sink.send(
          chunk({
            index,
            text: promptText(one.prompt),
            logprobs: (echoRows?.[i] ?? null) as unknown as JsonObject | null,
            finish_reason: null,
            ...ids,
          }),
        );
      else if (sampling.returnTokenIds)
        sink.send(chunk({ index, text: "", logprobs: null, finish_reason: null, ...ids }));
    }
  });
  try {
    await Promise.all(
      prepared.map((one, i) => {
        const releasers = Array.from({ length: n }, () => createTextReleaser(sampling.stop));
        const offsets = Array.from({ length: n }, () =>
          offsetCounter(request.echo ? promptText(one.prompt).length : 0),
        );
        const textChunk = (
          index: number,
          j: number,
          text: string,
          token: number,
          logprob: number,
          alternatives: SampledChoice["alternatives"],
        ): void => {
          const rows =
            request.logprobs === undefined
              ? null
              : completionRows(
                  {
                    index: j,
                    tokens: [token],
                    logprobs: [logprob],
                    alternatives: alternatives === undefined ? undefined : [alternatives[0] ?? []],
                    finish: "length",
                    stop: undefined,
                  },
                  sampling.tokensAsIds,
                  [offsets[j]!(token)],
                );
          if (text === "" && rows === null && !sampling.returnTokenIds) return;
          sink.send(
            chunk({
              index,
              text,
              logprobs: rows as unknown as JsonObject | null,
              finish_reason: null,
              ...(sampling.returnTokenIds ? { token_ids: [token] } : {}),
            }),
          );
        };
        return context.engine.generate({ ...one.generation, cancelled: sink.closed }, (j, sampled, ended) => {
          const index = i * n + j;
          counts[index]!++;
          const alternatives = sampled.alternatives === undefined ? undefined : [sampled.alternatives];
          if (ended === undefined) {
            textChunk(index, j, releasers[j]!.push(sampled.token), sampled.token, sampled.logprob, alternatives);
            return;
          }
          const { rest } = releasers[j]!.finish(ended.tokens, ended.stop?.textTokens ?? ended.tokens.length);
          textChunk(index, j, rest, sampled.token, sampled.logprob, alternatives);
          sink.send(
            chunk({
              index,
              text: "",
              logprobs: null,
              finish_reason: ended.finish,
              stop_reason: ended.stop?.reason ?? null,
            }),
          );
        });
      }),
    );
  } catch (error) {
    sink.fail(asHttpError(error));
    return;
  }
  if (sampling.includeUsage) sink.send(usageChunk(meta, "text_completion", promptTokens, counts));
  sink.end();
}
