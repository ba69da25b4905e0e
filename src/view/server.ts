// The view's HTTP server (node:http): GET and HEAD only (it never writes), on loopback unless told otherwise. Every
// answer carries a Content-Security-Policy that lets the page load only the view's own stylesheet and script (no inline
// script, no other origin, no framing), so even text that escaped escaping could not run. A server on loopback answers
// only requests addressed to a loopback name (a web page elsewhere cannot reach it through DNS rebinding); with an API
// key (key-gate.ts) every request must carry it. A failure of the store is a 500 page with its message, and a line to
// `log`.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { ConfigError, thrownMessage } from "../core/errors.js";
import { isLoopbackAddress } from "../serve/api-key.js";
import { keyGate } from "./key-gate.js";
import { errorPage } from "./layout.js";
import { createRunMemo } from "./run-data.js";
import { respond, type ViewContext } from "./routes.js";
import type { ViewSource } from "./source.js";

export const DEFAULT_VIEW_PORT = 8400;

export const VIEW_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

export interface ViewServerOptions {
  /** What is viewed (source.ts). */
  readonly source: ViewSource;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 8400; 0 picks a free port. */
  readonly port?: number;
  readonly apiKey?: string;
  /** One line per failed request. */
  readonly log?: (line: string) => void;
}

export interface ViewServer {
  /** The address of the runs list, e.g. http://127.0.0.1:8400/ */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** True when a Host header names this machine (localhost, a loopback address), whatever the port. */
function loopbackHost(header: string | undefined): boolean {
  if (header === undefined) return false;
  const name = header
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "")
    .toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || (isIP(name) !== 0 && isLoopbackAddress(name));
}

function send(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
  head: boolean,
): void {
  response.writeHead(status, { ...VIEW_SECURITY_HEADERS, ...headers, "content-length": Buffer.byteLength(body) });
  response.end(head ? undefined : body);
}

async function handle(
  options: ViewServerOptions & ViewContext,
  gate: ReturnType<typeof keyGate> | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const head = request.method === "HEAD";
  const page = (status: number, message: string, headers: Record<string, string> = {}): void =>
    send(
      response,
      status,
      { "content-type": "text/html; charset=utf-8", ...headers },
      errorPage(options.frame, status, message),
      head,
    );
  if (request.method !== "GET" && !head) return page(405, "the view only reads: GET and HEAD", { allow: "GET, HEAD" });
  if (isLoopbackAddress(request.socket.localAddress ?? "") && !loopbackHost(request.headers.host))
    return page(403, "this view answers only requests addressed to localhost or a loopback address");
  const url = new URL(request.url ?? "/", "http://view.invalid");
  if (gate !== undefined) {
    const verdict = gate(request.headers, url);
    if (verdict.kind === "remember")
      return send(response, 303, { location: verdict.location, "set-cookie": verdict.cookie }, "", head);
    if (verdict.kind === "denied")
      return page(
        401,
        "this view needs its API key: open its address with ?key=KEY once (or send Authorization: Bearer KEY)",
      );
  }
  try {
    const answer = await respond(options, url);
    send(response, answer.status, { "content-type": answer.contentType }, answer.body, head);
  } catch (error) {
    options.log?.(`${request.method} ${url.pathname}${url.search}: ${thrownMessage(error)}`);
    page(500, `the store could not answer: ${thrownMessage(error)}`);
  }
}

/** Start the view; it serves until closed. */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const gate = options.apiKey === undefined ? undefined : keyGate(options.apiKey);
  const { source } = options;
  const context = {
    ...options,
    store: source.store,
    groups: source.groups,
    frame: { source: source.label },
    memo: createRunMemo(),
  };
  const server = createServer((request, response) => {
    handle(context, gate, request, response).catch((error: unknown) => {
      options.log?.(`answering ${request.url ?? "?"} failed: ${thrownMessage(error)}`);
      response.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  const wanted = options.port ?? DEFAULT_VIEW_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(wanted, host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    // A port taken or an address this machine does not have: the flag that names it, in one line.
    const port = error.code === "EADDRINUSE";
    throw new ConfigError(
      port ? "port" : "host",
      `cannot listen on ${host}:${wanted}: ${error.message}`,
      port ? "pick another --port, or 0 for a free one" : undefined,
    );
  });
  const { port } = server.address() as AddressInfo;
  const shown = isIP(host) === 6 ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
