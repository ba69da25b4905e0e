// The HTTP side of `budgetrl serve` (node:http, no framework): routes, limits, errors in OpenAI's shape, and a
// clean stop. Requests go to the sampling engine (engine.ts), which batches concurrent ones into the model.
//
//   GET  /v1/models, /v1/models/{name}     the served model (max_model_len: its context)
//   POST /v1/chat/completions              request.ts, chat.ts, response.ts; `stream: true`: chat-stream.ts
//   POST /v1/completions                   completions.ts (text or token-id prompts)
//   POST /tokenize, /detokenize            tokenize.ts (vLLM's shapes)
//   GET  /health                           200 while serving, with counters: requests, in flight (now, most at
//                                          once), sequences waiting, model calls and the sequences they sampled,
//                                          KV-cache sessions reused, opened and idle
//   other paths 404, other methods 405 (Allow), bodies over maxBodyBytes 413, an unknown model 404
//   (model_not_found), a full queue 429 and a stopping server 503 (both with Retry-After).
//
// Stopping: close() refuses new requests (503), lets those in flight finish, then closes every connection.
// Ids and times of responses come from an injected counter and clock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonObject } from "../core/json.js";
import type { TinyModel } from "../nn/model.js";
import { answerChat, type ChatSettings } from "./chat.js";
import { streamChat } from "./chat-stream.js";
import { answerCompletions, parseCompletionRequest, streamCompletions } from "./completions.js";
import type { SamplingEngine } from "./engine.js";
import { asHttpError, errorBody, HttpError } from "./errors.js";
import { parseJsonBody, readBody } from "./http-body.js";
import type { ReplyMemo } from "./reply-memo.js";
import { parseChatRequest } from "./request.js";
import { chatCompletionBody, type ResponseMeta } from "./response.js";
import { eventSink } from "./stream.js";
import { detokenizeBody, tokenizeBody, type TokenizeContext } from "./tokenize.js";

export interface ServerOptions {
  readonly engine: SamplingEngine;
  readonly model: Pick<TinyModel, "config" | "logprobs">;
  readonly chat: ChatSettings;
  readonly memo: ReplyMemo;
  /** Most sequences waiting for the model (a text completion of more prompts x n is refused). */
  readonly maxQueue: number;
  /** The name clients ask for (`model`). */
  readonly name: string;
  readonly contextLength: number;
  readonly host: string;
  /** 0: a free port. */
  readonly port: number;
  readonly maxBodyBytes: number;
  readonly maxN: number;
  /** Milliseconds since the epoch (default Date.now): `created` fields. */
  readonly clock?: () => number;
  /** One line per request (method, path, status, sequences), when given. */
  readonly log?: (line: string) => void;
}

export interface ServerStats {
  readonly requests: number;
  /** Requests being answered now, and the most at once. */
  readonly inFlight: number;
  readonly peakInFlight: number;
  /** Sequences waiting for the model. */
  readonly waiting: number;
  /** Model calls so far, and the sequences they sampled (sequences / calls: how much batching there was). */
  readonly modelCalls: number;
  readonly sequences: number;
  /** KV-cache sessions: found for a conversation's next turn, opened anew, kept idle now. */
  readonly sessionsReused: number;
  readonly sessionsOpened: number;
  readonly sessionsIdle: number;
}

export interface RunningServer {
  /** Base URL up to /v1. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  stats(): ServerStats;
  /** Refuse new requests, finish those in flight, close every connection. */
  close(): Promise<void>;
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: JsonObject,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, error: HttpError): void {
  sendJson(response, error.status, errorBody(error), error.headers);
}

const ROUTES: readonly { readonly pattern: RegExp; readonly method: string }[] = [
  { pattern: /^\/v1\/chat\/completions$/, method: "POST" },
  { pattern: /^\/v1\/completions$/, method: "POST" },
  { pattern: /^\/(tokenize|detokenize)$/, method: "POST" },
  { pattern: /^\/v1\/models(\/.+)?$/, method: "GET" },
  { pattern: /^\/health$/, method: "GET" },
];

/** The route's path, or an HttpError for an unknown path (404) or method (405). */
function route(method: string, path: string): string {
  const found = ROUTES.find((candidate) => candidate.pattern.test(path));
  if (found === undefined)
    throw new HttpError(
      404,
      `no such path: ${path} (budgetrl serve answers /v1/chat/completions, /v1/completions, /v1/models, /tokenize, /detokenize and /health)`,
    );
  if (method !== found.method)
    throw new HttpError(405, `${path} takes ${found.method}, not ${method}`, { headers: { allow: found.method } });
  return path;
}

function modelCard(options: ServerOptions): JsonObject {
  return { id: options.name, object: "model", created: 0, owned_by: "budgetrl", max_model_len: options.contextLength };
}

function unknownModel(name: string, served: string, param: string | null): HttpError {
  return new HttpError(404, `The model \`${name}\` does not exist: this server serves \`${served}\``, {
    param,
    code: "model_not_found",
  });
}

function healthBody(now: ServerStats): JsonObject {
  return {
    status: "ok",
    requests: now.requests,
    in_flight: now.inFlight,
    peak_in_flight: now.peakInFlight,
    waiting: now.waiting,
    model_calls: now.modelCalls,
    sequences: now.sequences,
    sessions_reused: now.sessionsReused,
    sessions_opened: now.sessionsOpened,
    sessions_idle: now.sessionsIdle,
  };
}

function metaOf(options: ServerOptions, prefix: string, number: number): ResponseMeta {
  return {
    id: `${prefix}-${number.toString(16).padStart(8, "0")}`,
    created: Math.floor((options.clock ?? Date.now)() / 1000),
    model: options.name,
  };
}

/** POST /v1/chat/completions; resolves with the number of choices sampled. `number` numbers the response's id. */
async function chatRoute(
  options: ServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
  number: number,
): Promise<number> {
  const parsed = parseChatRequest(
    parseJsonBody(await readBody(request, options.maxBodyBytes)),
    options.maxN,
    options.model.config.vocabSize,
  );
  if (parsed.model !== options.name) throw unknownModel(parsed.model, options.name, "model");
  const meta = metaOf(options, "chatcmpl", number);
  const context = { engine: options.engine, model: options.model, settings: options.chat, memo: options.memo };
  if (parsed.sampling.stream) await streamChat(context, parsed, meta, number, eventSink(response));
  else
    sendJson(
      response,
      200,
      chatCompletionBody(
        await answerChat(context, parsed, number),
        {
          logprobs: parsed.logprobs,
          returnTokenIds: parsed.sampling.returnTokenIds,
          tokensAsIds: parsed.sampling.tokensAsIds,
        },
        meta,
      ),
    );
  return parsed.sampling.n;
}

/** POST /v1/completions; resolves with the number of sequences sampled. */
async function completionsRoute(
  options: ServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
  number: number,
): Promise<number> {
  const parsed = parseCompletionRequest(
    parseJsonBody(await readBody(request, options.maxBodyBytes)),
    options.maxN,
    options.model.config.vocabSize,
  );
  if (parsed.model !== options.name) throw unknownModel(parsed.model, options.name, "model");
  const meta = metaOf(options, "cmpl", number);
  const context = {
    engine: options.engine,
    model: options.model,
    defaultMaxTokens: options.chat.defaultMaxTokens,
    maxQueue: options.maxQueue,
  };
  if (parsed.sampling.stream) await streamCompletions(context, parsed, meta, eventSink(response));
  else sendJson(response, 200, await answerCompletions(context, parsed, meta));
  return parsed.prompts.length * parsed.sampling.n;
}

/** POST /tokenize, /detokenize. */
async function tokenizeRoute(
  options: ServerOptions,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const raw = parseJsonBody(await readBody(request, options.maxBodyBytes));
  const context: TokenizeContext = {
    model: options.model,
    settings: options.chat,
    memo: options.memo,
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

/** One request, routed; resolves with the choices sampled (0 for other paths), rejects with what to answer. */
async function answer(
  options: ServerOptions,
  stats: () => ServerStats,
  closing: boolean,
  request: IncomingMessage,
  response: ServerResponse,
  number: number,
): Promise<number> {
  const path = route(request.method ?? "GET", (request.url ?? "/").split("?")[0]!.replace(/(.)\/$/, "$1"));
  if (closing) throw new HttpError(503, "the server is stopping", { headers: { "retry-after": "1" } });
  if (path === "/v1/chat/completions") return chatRoute(options, request, response, number);
  if (path === "/v1/completions") return completionsRoute(options, request, response, number);
  if (path === "/tokenize" || path === "/detokenize") await tokenizeRoute(options, path, request, response);
  else if (path === "/health") sendJson(response, 200, healthBody(stats()));
  else if (path === "/v1/models") sendJson(response, 200, { object: "list", data: [modelCard(options)] });
  else {
    const name = decodeURIComponent(path.slice("/v1/models/".length));
    if (name !== options.name) throw unknownModel(name, options.name, null);
    sendJson(response, 200, modelCard(options));
  }
  return 0;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const counts = { requests: 0, inFlight: 0, peak: 0 };
  let closing = false;
  let idle: (() => void) | undefined;
  const stats = (): ServerStats => {
    const model = options.engine.stats();
    return {
      requests: counts.requests,
      inFlight: counts.inFlight,
      peakInFlight: counts.peak,
      waiting: options.engine.waiting(),
      modelCalls: model.calls,
      sequences: model.rows,
      sessionsReused: model.sessions.reused,
      sessionsOpened: model.sessions.opened,
      sessionsIdle: model.sessions.idle,
    };
  };
  const server = createServer((request, response) => {
    const number = counts.requests++;
    counts.peak = Math.max(counts.peak, ++counts.inFlight);
    void answer(options, stats, closing, request, response, number)
      .then((sequences) =>
        options.log?.(`${request.method} ${request.url} 200${sequences > 0 ? ` n=${sequences}` : ""}`),
      )
      .catch((error: unknown) => {
        const failure = asHttpError(error);
        options.log?.(`${request.method} ${request.url} ${failure.status} ${failure.message}`);
        if (!response.headersSent) sendError(response, failure);
        else response.end();
      })
      .finally(() => {
        if (--counts.inFlight === 0) idle?.();
      });
  });
  const address = await listen(server, options.port, options.host);
  const hostText = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostText}:${address.port}/v1`,
    host: address.address,
    port: address.port,
    stats,
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (counts.inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
