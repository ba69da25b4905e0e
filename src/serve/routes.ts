// The endpoints' answers (server.ts routes requests here): each reads its body, checks the model's name, and
// answers JSON or a stream. Unknown fields of a body are ignored with one warning line and named in the response
// header x-ignored-fields (with --strict they are a 400 instead: fields.ts).
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonObject } from "../core/json.js";
import type { TinyModel } from "../nn/model.js";
import { answerChat, type ChatContext, type ChatSettings } from "./chat.js";
import { streamChat } from "./chat-stream.js";
import { answerCompletions, parseCompletionRequest, type CompletionContext } from "./completions.js";
import { streamCompletions } from "./completions-stream.js";
import type { SamplingEngine } from "./engine.js";
import { HttpError } from "./errors.js";
import { parseJsonBody, readBody } from "./http-body.js";
import { promptLogprobsJson, scorePrompt } from "./prompt-logprobs.js";
import type { ChatRenderer } from "./renderer.js";
import { parseChatRequest } from "./request.js";
import { chatCompletionBody, type ResponseMeta } from "./response.js";
import { eventSink } from "./stream.js";
import { detokenizeBody, tokenizeBody, type TokenizeContext } from "./tokenize.js";

export interface RouteOptions {
  readonly engine: SamplingEngine;
  readonly model: Pick<TinyModel, "config" | "logprobs" | "sample" | "openSession">;
  readonly chat: ChatSettings;
  readonly renderer: ChatRenderer;
  /** Most sequences waiting for the model (a text completion of more prompts x n is refused). */
  readonly maxQueue: number;
  /** The name clients ask for (`model`). */
  readonly name: string;
  readonly maxBodyBytes: number;
  readonly maxN: number;
  /** Refuse unknown fields (400) instead of ignoring them. */
  readonly strict: boolean;
  /** Milliseconds since the epoch: `created` fields. */
  readonly clock: () => number;
  /** A fresh random id (hex) for responses and tool calls. */
  readonly newId: () => string;
  /** One warning line (ignored fields). */
  readonly warn: (line: string) => void;
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: JsonObject,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

export function unknownModel(name: string, served: string, param: string | null): HttpError {
  return new HttpError(404, `The model \`${name}\` does not exist: this server serves \`${served}\``, {
    param,
    code: "model_not_found",
  });
}

function metaOf(options: RouteOptions, prefix: string): ResponseMeta {
  return { id: `${prefix}-${options.newId()}`, created: Math.floor(options.clock() / 1000), model: options.name };
}

/** vLLM's warning line for fields it ignores, and the header naming them. */
function reportIgnored(options: RouteOptions, response: ServerResponse, fields: readonly string[]): void {
  if (fields.length === 0) return;
  options.warn(
    `The following fields were present in the request but ignored: {${fields.map((f) => `'${f}'`).join(", ")}}`,
  );
  response.setHeader("x-ignored-fields", fields.join(", "));
}

/** POST /v1/chat/completions; resolves with the number of choices sampled. */
export async function chatRoute(
  options: RouteOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<number> {
  const parsed = parseChatRequest(
    parseJsonBody(await readBody(request, options.maxBodyBytes)),
    options.maxN,
    options.model.config.vocabSize,
    { vocabulary: options.renderer.vocabulary, strict: options.strict },
  );
  if (parsed.model !== options.name) throw unknownModel(parsed.model, options.name, "model");
  reportIgnored(options, response, parsed.ignoredFields);
  const meta = metaOf(options, "chatcmpl");
  const context: ChatContext = {
    engine: options.engine,
    model: options.model,
    settings: options.chat,
    renderer: options.renderer,
  };
  const k = parsed.sampling.promptLogprobs;
  const scored =
    k === undefined
      ? undefined
      : async (prompt: readonly number[]) =>
          promptLogprobsJson(await scorePrompt(options.model, prompt, k), options.renderer.vocabulary);
  const flags = {
    logprobs: parsed.logprobs,
    returnTokenIds: parsed.sampling.returnTokenIds,
    tokensAsIds: parsed.sampling.tokensAsIds,
    vocabulary: options.renderer.vocabulary,
  };
  if (parsed.sampling.stream) await streamChat(context, parsed, meta, eventSink(response), options.newId, scored);
  else {
    const answer = await answerChat(context, parsed, options.newId);
    const promptLogprobs = scored === undefined ? undefined : await scored(answer.promptTokens);
    sendJson(
      response,
      200,
      chatCompletionBody(promptLogprobs === undefined ? answer : { ...answer, promptLogprobs }, flags, meta),
    );
  }
  return parsed.sampling.n;
}

/** POST /v1/completions; resolves with the number of sequences sampled. */
export async function completionsRoute(
  options: RouteOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<number> {
  const parsed = parseCompletionRequest(
    parseJsonBody(await readBody(request, options.maxBodyBytes)),
    options.maxN,
    options.renderer.vocabulary,
    options.strict,
  );
  if (parsed.model !== options.name) throw unknownModel(parsed.model, options.name, "model");
  reportIgnored(options, response, parsed.ignoredFields);
  const meta = metaOf(options, "cmpl");
  const context: CompletionContext = {
    engine: options.engine,
    model: options.model,
    vocabulary: options.renderer.vocabulary,
    contextRule: options.chat.contextRule,
    defaultMaxTokens: options.chat.defaultMaxTokens,
    maxQueue: options.maxQueue,
  };
  if (parsed.sampling.stream) await streamCompletions(context, parsed, meta, eventSink(response));
  else sendJson(response, 200, await answerCompletions(context, parsed, meta));
  return parsed.prompts.length * parsed.sampling.n;
}

/** POST /tokenize, /detokenize. */
export async function tokenizeRoute(
  options: RouteOptions,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const raw = parseJsonBody(await readBody(request, options.maxBodyBytes));
  const context: TokenizeContext = {
    model: options.model,
    settings: options.chat,
    renderer: options.renderer,
    name: options.name,
  };
  const checkModel = (name: string | null | undefined): void => {
    if (name !== undefined && name !== null && name !== options.name) throw unknownModel(name, options.name, "model");
  };
  sendJson(
    response,
    200,
    path === "/tokenize" ? tokenizeBody(context, raw, checkModel) : detokenizeBody(context, raw, checkModel),
  );
}

/** budgetrl's version (GET /version), read from its package.json. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
