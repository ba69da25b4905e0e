// The HTTP side of `budgetrl serve` (node:http, no framework): routes, limits, errors in OpenAI's shape, and a
// clean stop. Requests go to the sampling engine (engine.ts), which batches concurrent ones into the model.
//
//   GET  /v1/models, /v1/models/{name}     the served model (max_model_len: its context)
//   POST /v1/chat/completions              request.ts, chat.ts, response.ts; `stream: true`: chat-stream.ts
//   POST /v1/completions                   completions.ts (text or token-id prompts); streams completions-stream.ts
//   POST /tokenize, /detokenize            tokenize.ts (vLLM's shapes)
//   GET  /health                           200 while serving, with counters: requests, in flight (now, most at
//                                          once), sequences waiting, model calls and the sequences they sampled,
//                                          KV-cache sessions reused, opened and idle
//   GET  /metrics                          Prometheus' text format (metrics.ts)
//   GET  /version                          {"version": budgetrl's version}
//   other paths 404, other methods 405 (Allow), bodies over maxBodyBytes 413 (http-body.ts: decided from
//   Content-Length before 100 Continue, the rest of an upload read and dropped so that clients read the answer),
//   an Expect other than 100-continue 417, an unknown model 404
//   (model_not_found), a full queue 429 and a stopping server 503 (both with Retry-After). With an API key, a /v1
//   path without `Authorization: Bearer KEY` is a 401 before anything else (api-key.ts).
//
// Stopping: close() refuses new requests (503), lets those in flight finish, then closes every connection.
// Response and tool-call ids are random (crypto; an injected generator in tests), times from an injected clock.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonObject } from "../core/json.js";
import { apiKeyChecker, needsApiKey, unauthorized } from "./api-key.js";
import { asHttpError, errorBody, HttpError } from "./errors.js";
import { bodyWithheld, continueOrRefuse, expectationFailed } from "./http-body.js";
import { createServeMetrics, type ServeMetrics } from "./metrics.js";
import {
  chatRoute,
  completionsRoute,
  sendJson,
  tokenizeRoute,
  unknownModel,
  VERSION,
  type RouteOptions,
} from "./routes.js";

export interface ServerOptions extends Omit<RouteOptions, "clock" | "newId" | "warn"> {
  readonly contextLength: number;
  readonly host: string;
  /** 0: a free port. */
  readonly port: number;
  /** When given, every /v1 path needs `Authorization: Bearer KEY` (401 without it). */
  readonly apiKey?: string;
  /** Milliseconds since the epoch (default Date.now): `created` fields. */
  readonly clock?: () => number;
  /** Random ids (default: 16 random bytes as hex, from node:crypto). */
  readonly newId?: () => string;
  /** One line per request (method, path, status, sequences), when given. */
  readonly log?: (line: string) => void;
  /** One warning line (ignored fields); default: the log. */
  readonly warn?: (line: string) => void;
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

const ROUTES: readonly { readonly pattern: RegExp; readonly method: string }[] = [
  { pattern: /^\/v1\/chat\/completions$/, method: "POST" },
  { pattern: /^\/v1\/completions$/, method: "POST" },
  { pattern: /^\/(tokenize|detokenize)$/, method: "POST" },
  { pattern: /^\/v1\/models(\/.+)?$/, method: "GET" },
  { pattern: /^\/(health|metrics|version)$/, method: "GET" },
];

/** The route's path, or an HttpError for an unknown path (404) or method (405). */
function route(method: string, path: string): string {
  const found = ROUTES.find((candidate) => candidate.pattern.test(path));
  if (found === undefined)
    throw new HttpError(
      404,
      `no such path: ${path} (budgetrl serve answers /v1/chat/completions, /v1/completions, /v1/models, /tokenize, /detokenize, /health, /metrics and /version)`,
    );
  if (method !== found.method)
    throw new HttpError(405, `${path} takes ${found.method}, not ${method}`, { headers: { allow: found.method } });
  return path;
}

function modelCard(options: ServerOptions): JsonObject {
  return { id: options.name, object: "model", created: 0, owned_by: "budgetrl", max_model_len: options.contextLength };
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

/** The GET endpoints. */
async function answerGet(
  options: ServerOptions,
  stats: () => ServerStats,
  metrics: ServeMetrics,
  path: string,
  response: ServerResponse,
): Promise<void> {
  if (path === "/health") sendJson(response, 200, healthBody(stats()));
  else if (path === "/version") sendJson(response, 200, { version: VERSION });
  else if (path === "/metrics") {
    const { text, contentType } = await metrics.exposition();
    response.writeHead(200, { "content-type": contentType });
    response.end(text);
  } else if (path === "/v1/models") sendJson(response, 200, { object: "list", data: [modelCard(options)] });
  else {
    const name = decodeURIComponent(path.slice("/v1/models/".length));
    if (name !== options.name) throw unknownModel(name, options.name, null);
    sendJson(response, 200, modelCard(options));
  }
}

/** One request, routed; resolves with the choices sampled (0 for other paths), rejects with what to answer. */
async function answer(
  routes: RouteOptions,
  options: ServerOptions & { readonly authorized: ((header: string | undefined) => boolean) | undefined },
  stats: () => ServerStats,
  metrics: ServeMetrics,
  closing: boolean,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<number> {
  if (options.authorized !== undefined && needsApiKey(path) && !options.authorized(request.headers.authorization))
    throw unauthorized(request.headers.authorization);
  route(request.method ?? "GET", path);
  if (closing) throw new HttpError(503, "the server is stopping", { headers: { "retry-after": "1" } });
  if (path === "/v1/chat/completions") return chatRoute(routes, request, response);
  if (path === "/v1/completions") return completionsRoute(routes, request, response);
  if (path === "/tokenize" || path === "/detokenize") await tokenizeRoute(routes, path, request, response);
  else await answerGet(options, stats, metrics, path, response);
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

const randomId = (): string => randomBytes(16).toString("hex");

/** An error answer written now and ended once its `settled` settles (a refused body read while it still comes):
 * the client reads it after its upload, whether or not it asked to close the connection. */
function sendWhenSettled(
  response: ServerResponse,
  failure: HttpError,
  headers: Readonly<Record<string, string>>,
): void {
  const text = JSON.stringify(errorBody(failure));
  response.writeHead(failure.status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  response.write(text);
  void failure.settled?.then(() => response.end());
}

/** Counts a request in the metrics when its answer is sent: its route (a model's name left out), status, seconds. */
function timed(metrics: ServeMetrics, path: string, response: ServerResponse): void {
  const started = process.hrtime.bigint();
  const known = ROUTES.some((candidate) => candidate.pattern.test(path));
  const label = known ? path.replace(/^\/v1\/models\/.+$/, "/v1/models/{name}") : "other";
  response.on("finish", () =>
    metrics.answered(label, response.statusCode, Number(process.hrtime.bigint() - started) / 1e9),
  );
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const counts = { requests: 0, inFlight: 0, peak: 0 };
  let closing = false;
  let idle: (() => void) | undefined;
  const metrics = createServeMetrics({ model: options.name, engine: options.engine });
  const log = options.log;
  const guarded = {
    ...options,
    authorized: options.apiKey === undefined ? undefined : apiKeyChecker(options.apiKey),
  };
  const routes: RouteOptions = {
    ...options,
    engine: metrics.count(options.engine),
    clock: options.clock ?? Date.now,
    newId: options.newId ?? randomId,
    warn: options.warn ?? log ?? (() => undefined),
  };
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
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    counts.requests++;
    counts.peak = Math.max(counts.peak, ++counts.inFlight);
    const path = (request.url ?? "/").split("?")[0]!.replace(/(.)\/$/, "$1");
    timed(metrics, path, response);
    void answer(routes, guarded, stats, metrics, closing, path, request, response)
      .then((sequences) => log?.(`${request.method} ${request.url} 200${sequences > 0 ? ` n=${sequences}` : ""}`))
      .catch((error: unknown) => {
        const failure = asHttpError(error);
        log?.(`${request.method} ${request.url} ${failure.status} ${failure.message}`);
        const headers = bodyWithheld(request) ? { ...failure.headers, connection: "close" } : failure.headers;
        if (response.headersSent) response.end();
        else if (failure.settled === undefined) sendJson(response, failure.status, errorBody(failure), headers);
        else sendWhenSettled(response, failure, headers);
      })
      .finally(() => {
        if (--counts.inFlight === 0) idle?.();
      });
  };
  const server = createServer(handle);
  // Expect: 100-continue is decided from Content-Length before the body is sent; other expectations are a 417.
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    continueOrRefuse(request, response, options.maxBodyBytes);
    handle(request, response);
  });
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    const failure = expectationFailed(request);
    timed(metrics, "other", response);
    sendJson(response, failure.status, errorBody(failure), failure.headers);
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
