// From a chat-completions response (untrusted JSON) to what the policy returns, one record per choice (pure).
// Nothing here throws on what a server sends: garbage becomes an observation for the agent, as upstream BFCL
// does. Missing choices give an empty reply; content null gives ""; a tool call keeps its name and arguments
// text as written (unknown names and invalid JSON reach the env, which answers them); arguments sent as an
// object are written back as JSON text; a missing id gets a stable one from the turn and position.
//
// Token data, where the server returns it:
//   OpenAI   choices[i].logprobs.content[j] = { token, logprob }            -> log-probs and token texts
//   vLLM     return_tokens_as_token_ids: token = "token_id:123"              -> token ids
//            return_token_ids: choices[i].token_ids, prompt_token_ids (top level or per choice)
//   SGLang   choices[i].token_ids / output_token_ids, prompt_token_ids
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

const isObject = (value: unknown): value is Loose => value !== null && typeof value === "object" && !Array.isArray(value);
const asArray = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

function integerList(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || !value.every((item) => Number.isInteger(item))) return undefined;
  return value as number[];
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

/** The choices of a response in index order (a choice's `index` field places it; otherwise its position). */
export function readChoices(body: unknown, idPrefix: string): (SampledChoice | undefined)[] {
  const response = isObject(body) ? body : {};
  const out: (SampledChoice | undefined)[] = [];
  asArray(response["choices"]).forEach((raw, position) => {
    const index = isObject(raw) && Number.isInteger(raw["index"]) && (raw["index"] as number) >= 0 && (raw["index"] as number) < 1024 ? (raw["index"] as number) : position;
    out[index] ??= choiceOf(raw, response, idPrefix);
  });
  return out;
}

/** The reply a choice that is missing (empty choices) gives the agent: an empty message. */
export const EMPTY_CHOICE: SampledChoice = { message: { role: "assistant", content: "" }, finishReason: "missing" };
