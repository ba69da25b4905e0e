// From a chat-completions response (untrusted JSON) to what the policy returns, one record per choice (pure).
// Two kinds of wrong, kept apart:
//   - the server's: a 2xx body that is not a chat completion (not JSON, not an object, no "choices" list, fewer
//     choices than asked for, a choice or message that is not an object, content that is neither text nor null,
//     tool_calls that are not a list of {function: {name: text}}). `responseProblem` names the first such fault;
//     the transport makes it a policy error (the episode ends with stopReason "error", --resume retries it), so
//     a broken server or gateway is never scored as a weak agent, and nothing of it reaches the cache.
//   - the model's: what it wrote inside a well-formed response. Never an error: content null gives ""; a tool
//     call keeps its name and arguments text as written (unknown names and invalid JSON reach the env, which
//     answers them, as upstream BFCL does); arguments sent as an object are written back as JSON text; a missing
//     id gets a stable one from the turn and position.
//
// Token data, where the server returns it:
//   OpenAI   choices[i].logprobs.content[j] = { token, logprob }            -> log-probs and token texts
//   vLLM     return_tokens_as_token_ids: token = "token_id:123"              -> token ids
//            return_token_ids: choices[i].token_ids, prompt_token_ids (top level or per choice)
//   SGLang   choices[i].token_ids / output_token_ids, prompt_token_ids
import { describeValue } from "../../core/describe-value.js";
import type { Message, ToolCall } from "../../core/message.js";

/** One choice as the policy keeps it (and the cache stores it): JSON only. */
export interface SampledChoice {
  readonly message: Message;
  readonly tokens?: readonly number[];
  readonly logprobs?: readonly number[];
  readonly tokenTexts?: readonly string[];
  readonly promptTokens?: readonly number[];
  readonly finishReason?: string;
  readonly model?: string;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

function integerList(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || !value.every((item): item is number => Number.isInteger(item))) return undefined;
  return value;
}

function toolCallOf(raw: unknown, fallbackId: string): ToolCall {
  const call = isObject(raw) ? raw : {};
  const fn = isObject(call["function"]) ? call["function"] : {};
  const args = fn["arguments"];
  return {
    id: typeof call["id"] === "string" && call["id"] !== "" ? call["id"] : fallbackId,
    name: typeof fn["name"] === "string" ? fn["name"] : "",
    arguments: typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args),
  };
}

export function messageOf(raw: unknown, idPrefix: string): Message {
  const message = isObject(raw) ? raw : {};
  const content = typeof message["content"] === "string" ? message["content"] : "";
  const calls = asArray(message["tool_calls"]).map((call, index) => toolCallOf(call, `${idPrefix}_${index}`));
  return calls.length === 0 ? { role: "assistant", content } : { role: "assistant", content, toolCalls: calls };
}

const TOKEN_ID_TEXT = /^token_id:(\d+)$/;

/** Log-probs, token texts, and token ids when every token is written "token_id:N" (vLLM). */
function logprobsOf(raw: unknown): Pick<SampledChoice, "logprobs" | "tokenTexts" | "tokens"> {
  const entries = isObject(raw) ? asArray(raw["content"]) : [];
  if (entries.length === 0) return {};
  const logprobs: number[] = [];
  const texts: string[] = [];
  for (const entry of entries) {
    const item = isObject(entry) ? entry : {};
    logprobs.push(typeof item["logprob"] === "number" ? item["logprob"] : Number.NaN);
    texts.push(typeof item["token"] === "string" ? item["token"] : "");
  }
  if (logprobs.some((value) => Number.isNaN(value))) return {};
  const ids = texts.map((text) => TOKEN_ID_TEXT.exec(text)?.[1]);
  if (ids.every((id) => id !== undefined)) return { logprobs, tokens: ids.map(Number) };
  return { logprobs, tokenTexts: texts };
}

function choiceOf(raw: unknown, response: Loose, idPrefix: string): SampledChoice {
  const choice = isObject(raw) ? raw : {};
  const fromLogprobs = logprobsOf(choice["logprobs"]);
  const tokens = integerList(choice["token_ids"]) ?? integerList(choice["output_token_ids"]) ?? fromLogprobs.tokens;
  const promptTokens = integerList(choice["prompt_token_ids"]) ?? integerList(response["prompt_token_ids"]);
  return {
    message: messageOf(choice["message"], idPrefix),
    ...(tokens === undefined ? {} : { tokens }),
    ...(fromLogprobs.logprobs === undefined ? {} : { logprobs: fromLogprobs.logprobs }),
    ...(fromLogprobs.tokenTexts === undefined || tokens !== undefined ? {} : { tokenTexts: fromLogprobs.tokenTexts }),
    ...(promptTokens === undefined ? {} : { promptTokens }),
    ...(typeof choice["finish_reason"] === "string" ? { finishReason: choice["finish_reason"] } : {}),
    ...(typeof response["model"] === "string" ? { model: response["model"] } : {}),
  };
}

/** Where each choice of a "choices" list goes: its `index` field when that is an integer in [0, 1024), else its
 * position; the first choice to claim an index keeps it. Returns the position placed at each index. */
function placements(choices: readonly unknown[]): number[] {
  const at: number[] = [];
  choices.forEach((raw, position) => {
    const given = isObject(raw) ? raw["index"] : undefined;
    const index = typeof given === "number" && Number.isInteger(given) && given >= 0 && given < 1024 ? given : position;
    at[index] ??= position;
  });
  return at;
}

/** The choices of a response in index order (read a body that `responseProblem` accepted). */
export function readChoices(body: unknown, idPrefix: string): (SampledChoice | undefined)[] {
  const response = isObject(body) ? body : {};
  const choices = asArray(response["choices"]);
  return placements(choices).map((position) => choiceOf(choices[position], response, idPrefix));
}

/** A short, one-line excerpt of a text body for messages. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}...` : line);
}

/** What is wrong with one tool call's structure (name must be text; arguments are the model's and never wrong). */
function toolCallProblem(raw: unknown, at: string): string | undefined {
  if (!isObject(raw)) return `with ${at} that is ${describeValue(raw)}, not a tool call`;
  const fn = raw["function"];
  if (fn === undefined || fn === null) return `without ${at}.function`;
  if (!isObject(fn)) return `with ${at}.function that is ${describeValue(fn)}, not an object`;
  if (typeof fn["name"] !== "string") return `with ${at}.function.name that is ${describeValue(fn["name"])}, not text`;
  return undefined;
}

/** What is wrong with one choice's structure, `at` naming it ("choices[0]"), or undefined. */
function choiceProblem(raw: unknown, at: string): string | undefined {
  if (!isObject(raw)) return `with ${at} that is ${describeValue(raw)}, not a choice object`;
  const message = raw["message"];
  if (message === undefined || message === null) return `without ${at}.message`;
  if (!isObject(message)) return `with ${at}.message that is ${describeValue(message)}, not a message object`;
  const content = message["content"];
  if (content !== undefined && content !== null && typeof content !== "string")
    return `with ${at}.message.content that is ${describeValue(content)}, not text`;
  const calls = message["tool_calls"];
  if (calls === undefined || calls === null) return undefined;
  if (!Array.isArray(calls)) return `with ${at}.message.tool_calls that is ${describeValue(calls)}, not a list`;
  for (const [index, call] of calls.entries()) {
    const problem = toolCallProblem(call, `${at}.message.tool_calls[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * What makes a 2xx response body not a chat completion with `n` choices, as the end of a sentence ("the server
 * at URL answered 200 " + problem), or undefined when it is one. Only structure is checked, never what the model
 * wrote. `contentType`: the response's Content-Type (a body that was not JSON arrives as text).
 */
export function responseProblem(body: unknown, n: number, contentType?: string): string | undefined {
  const media = contentType?.split(";")[0]?.trim() ?? "";
  // The client parses JSON media types only; any other body arrives as its text.
  if (typeof body === "string" && !/json/i.test(media))
    return `with ${media === "" ? "text" : `a ${media} body`} instead of JSON: ${excerpt(body)}`;
  if (body === undefined || body === null) return "with an empty body instead of a chat completion";
  if (Array.isArray(body))
    return `with a JSON array of ${body.length} item${body.length === 1 ? "" : "s"} instead of a chat completion object`;
  if (!isObject(body)) return `with ${describeValue(body)} instead of a chat completion object`;
  const choices = body["choices"];
  if (choices === undefined || choices === null) return `without a "choices" list`;
  if (!Array.isArray(choices)) return `with "choices" that is ${describeValue(choices)}, not a list`;
  if (choices.length === 0) return `with an empty "choices" list`;
  const at = placements(choices);
  for (let index = 0; index < n; index++) {
    const position = at[index];
    if (position === undefined) return `without a choice of index ${index} (${n} asked for, ${choices.length} given)`;
    const problem = choiceProblem(choices[position], `choices[${position}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
