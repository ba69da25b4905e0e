// POST /v1/completions: text completion of raw prompts, as RL harnesses drive vLLM (token ids in, token ids and
// log-probs out). No chat rendering: the prompt's tokens (text encoded by the vocabulary, or token ids as sent)
// are the model's input as they are.
//
//   prompt                a string, an array of strings, an array of token ids, or an array of arrays of token
//                         ids (ids 0..vocabulary - 1); each prompt is answered with n choices, choice index =
//                         prompt * n + j, each prompt's choice j sampled with choiceSeed(seed, j) (engine.ts)
//   max_tokens            default the rest of the context (at most the server's default answer length when it has
//                         one); a prompt and max_tokens that do not fit the context together are refused (400,
//                         "maximum context length"), as vLLM refuses them
//   logprobs k (0..20)    per token its log-prob and the k most likely tokens (completion-logprobs.ts)
//   echo                  the prompt's text before the completion's; with logprobs its tokens first in the
//                         log-probs (the first null, the others the model's scoring, with their k most likely)
//   prompt_logprobs k     per choice, vLLM's prompt_logprobs (prompt-logprobs.ts)
//   structured outputs    response_format, structured_outputs, guided_json, guided_choice (structured-output.ts)
//   the sampling fields   sampling-options.ts
// With return_token_ids each choice carries prompt_token_ids and token_ids (vLLM's fields). Streams:
// completions-stream.ts.
import { z } from "zod";
import type { Json, JsonObject } from "../core/json.js";
import type { ContextRuleName } from "./chat.js";
import { completionRows, joinRows, promptRows, textOffsets, type LogprobRows } from "./completion-logprobs.js";
import { replyConstraints } from "./constraints.js";
import { choiceSeed, type GenerationRequest, type SampledChoice, type SamplingEngine } from "./engine.js";
import { badRequest } from "./errors.js";
import { checkFields } from "./fields.js";
import { promptLogprobsJson, scorePrompt, type PromptPosition, type PromptScorer } from "./prompt-logprobs.js";
import { usageOf, type ResponseMeta } from "./response.js";
import { samplingFields, samplingRequest, type SamplingRequest } from "./sampling-options.js";
import { structuredOutput, type StructuredOutput } from "./structured-output.js";
import { tokensText, type Vocabulary } from "./vocabulary.js";

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
  readonly structured: StructuredOutput | undefined;
  /** Fields the body has that serve does not know, ignored (sorted). */
  readonly ignoredFields: readonly string[];
}

export interface CompletionContext {
  readonly engine: SamplingEngine;
  readonly model: PromptScorer;
  readonly vocabulary: Vocabulary;
  readonly contextRule: ContextRuleName;
  /** The default answer length's cap (undefined: the rest of the context). */
  readonly defaultMaxTokens: number | undefined;
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
});

function paramOf(path: readonly PropertyKey[]): string {
  return (
    path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)).join("") ||
    "body"
  );
}

function promptsOf(value: z.output<typeof prompt>, vocabulary: Vocabulary): CompletionPrompt[] {
  const vocab = vocabulary.size;
  const prompts: CompletionPrompt[] =
    typeof value === "string"
      ? [{ tokens: vocabulary.encode(value), text: value }]
      : value.every((item) => typeof item === "string")
        ? (value as string[]).map((text) => ({ tokens: vocabulary.encode(text), text }))
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

/** The typed request, or a 400 naming the first bad field; unknown fields ignored unless `strict`. */
export function parseCompletionRequest(
  raw: unknown,
  maxN: number,
  vocabulary: Vocabulary,
  strict = false,
): CompletionRequest {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw badRequest(null, "the body must be a JSON object", "invalid_type");
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const missing = issue.path.length === 1 && (raw as Record<string, unknown>)[String(issue.path[0])] === undefined;
    throw badRequest(
      paramOf(issue.path),
      missing ? "is required" : issue.message,
      missing ? "missing_required_parameter" : issue.code === "invalid_type" ? "invalid_type" : "invalid_value",
    );
  }
  const body = parsed.data;
  const ignoredFields = checkFields(raw as Record<string, unknown>, "completions", strict);
  const sampling = samplingRequest(body, maxN, vocabulary);
  return {
    model: body.model,
    prompts: promptsOf(body.prompt, vocabulary),
    sampling,
    logprobs: body.logprobs ?? undefined,
    echo: sampling.echo,
    structured: structuredOutput(raw as Record<string, unknown>),
    ignoredFields,
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
  return asked ?? Math.min(context.defaultMaxTokens ?? Infinity, contextLength - promptTokens);
}

export interface PreparedPrompt {
  readonly prompt: CompletionPrompt;
  readonly generation: GenerationRequest;
}

/** The prompt's last tokens (truncate_prompt_tokens). */
function truncatedPrompt(one: CompletionPrompt, keep: number | undefined, contextLength: number): CompletionPrompt {
  const limit = keep === -1 ? contextLength : keep;
  if (limit === undefined || one.tokens.length <= limit) return one;
  return { tokens: one.tokens.slice(one.tokens.length - limit), text: undefined };
}

export function prepareCompletions(
  context: CompletionContext,
  request: CompletionRequest,
  stream: boolean,
): PreparedPrompt[] {
  const { sampling } = request;
  const sequences = request.prompts.length * sampling.n;
  if (sequences > context.maxQueue)
    throw badRequest(
      "prompt",
      `${request.prompts.length} prompts x n ${sampling.n} = ${sequences} sequences, more than the server queues at once (budgetrl serve --max-queue ${context.maxQueue})`,
    );
  const contextLength = context.model.config.contextLength;
  const structured = request.structured;
  const shape =
    structured === undefined
      ? undefined
      : { form: structured.form, what: `a value of ${structured.field}`, fields: structured.field };
  const prepared = request.prompts.map((sent, i) => {
    const one = truncatedPrompt(sent, sampling.truncatePromptTokens, contextLength);
    const maxTokens = answerLength(
      context,
      request,
      one.tokens.length,
      request.prompts.length === 1 ? "prompt" : `prompt[${i}]`,
    );
    const constraints = replyConstraints(shape, sampling, context.vocabulary);
    const generation: GenerationRequest = {
      prompt: one.tokens,
      keepSessions: false,
      seeds: Array.from({ length: sampling.n }, (_, j) => choiceSeed(sampling.seed, j)),
      maxTokens,
      temperature: sampling.temperature,
      topP: sampling.topP,
      topK: sampling.topK,
      minP: sampling.minP,
      penalties: sampling.penalties,
      topLogprobs: request.logprobs ?? 0,
      stop: sampling.stop,
      stepwise: stream || constraints !== undefined,
      ...(constraints === undefined ? {} : { constraints }),
    };
    return { prompt: one, generation };
  });
  context.engine.checkRoom(sequences);
  return prepared;
}

export const promptText = (one: CompletionPrompt, vocabulary: Vocabulary): string =>
  one.text ?? tokensText(vocabulary, one.tokens);
const choiceText = (choice: SampledChoice, vocabulary: Vocabulary): string =>
  tokensText(vocabulary, choice.tokens.slice(0, choice.stop?.textTokens ?? choice.tokens.length));

/** Per prompt, its scored positions, when echo with logprobs or prompt_logprobs asks for them. */
export async function scoredPrompts(
  context: CompletionContext,
  request: CompletionRequest,
  prepared: readonly PreparedPrompt[],
): Promise<PromptPosition[][] | undefined> {
  const echoed = request.echo && request.logprobs !== undefined;
  const asked = request.sampling.promptLogprobs;
  if (!echoed && asked === undefined) return undefined;
  const k = Math.max(echoed ? request.logprobs! : 0, asked ?? 0);
  return Promise.all(prepared.map((one) => scorePrompt(context.model, one.prompt.tokens, k)));
}

/** The log-prob rows of an echoed prompt (its k best, k the request's logprobs). */
export function echoRows(
  context: CompletionContext,
  request: CompletionRequest,
  one: PreparedPrompt,
  positions: readonly PromptPosition[],
): LogprobRows {
  const k = request.logprobs ?? 0;
  const trimmed = positions.map((position) => ({ ...position, best: position.best.slice(0, k) }));
  return promptRows(one.prompt.tokens, trimmed, {
    tokensAsIds: request.sampling.tokensAsIds,
    vocabulary: context.vocabulary,
  });
}

/** vLLM's prompt_logprobs of a prompt (its k best, k the request's prompt_logprobs). */
export function promptLogprobsOf(
  context: CompletionContext,
  request: CompletionRequest,
  positions: readonly PromptPosition[],
): Json[] {
  const k = request.sampling.promptLogprobs ?? 0;
  return promptLogprobsJson(
    positions.map((position) => ({ ...position, best: position.best.slice(0, k) })),
    context.vocabulary,
  );
}

export async function answerCompletions(
  context: CompletionContext,
  request: CompletionRequest,
  meta: ResponseMeta,
): Promise<JsonObject> {
  const prepared = prepareCompletions(context, request, false);
  const { sampling } = request;
  const flags = { tokensAsIds: sampling.tokensAsIds, vocabulary: context.vocabulary };
  const sampled = await Promise.all(prepared.map((one) => context.engine.generate(one.generation)));
  const scored = await scoredPrompts(context, request, prepared);
  const choices: Json[] = [];
  sampled.forEach((perPrompt, i) => {
    const one = prepared[i]!;
    const head = request.echo ? promptText(one.prompt, context.vocabulary) : "";
    const echoed = request.echo && scored !== undefined ? echoRows(context, request, one, scored[i]!) : undefined;
    for (const choice of perPrompt) {
      const rows =
        request.logprobs === undefined
          ? null
          : completionRows(choice, flags, textOffsets(choice.tokens, head.length, context.vocabulary));
      choices.push({
        index: i * sampling.n + choice.index,
        text: head + choiceText(choice, context.vocabulary),
        logprobs: rows === null ? null : echoed === undefined ? rows : joinRows(echoed, rows),
        finish_reason: choice.finish,
        stop_reason: choice.stop?.reason ?? null,
        ...(sampling.returnTokenIds ? { prompt_token_ids: [...one.prompt.tokens], token_ids: [...choice.tokens] } : {}),
        ...(sampling.promptLogprobs === undefined || scored === undefined
          ? {}
          : { prompt_logprobs: promptLogprobsOf(context, request, scored[i]!) }),
      });
    }
  });
  const promptTokens = prepared.reduce((sum, one) => sum + one.prompt.tokens.length, 0);
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
