// The HTTP and WebSocket side of `budgetrl env-server` (node:http, and the `ws` library for WebSockets), answering as
// OpenEnv's HTTPEnvServer (src/openenv/core/env_server/http_server.py) answers:
//
//   GET  /health                {"status": "healthy"}
//   GET  /metadata, /schema     the env's name and summary; the JSON Schemas of action, observation and state
//   GET  /state                 a fresh session's state
//   POST /reset, /step          stateless, as OpenEnv's: each on a fresh session (a step resets it first), then closed
//   POST /mcp                   JSON-RPC: tools/list, tools/call, openenv/session/create and close (mcp.ts)
//   WS   /ws                    one session per connection: reset, step, state, close, mcp (client-session.ts)
//   WS   /mcp                   JSON-RPC over a WebSocket, one session per connection
//
// Sessions (WebSocket connections and HTTP MCP sessions) are at most --max-sessions: one more is told
// CAPACITY_REACHED and closed. A session idle for --idle-timeout seconds is closed (close code 4000). With an API key
// every path but /health needs `Authorization: Bearer KEY` (401; a WebSocket upgrade without it is refused with 401).
// close() stops accepting, closes every socket, and waits for the episodes being stored.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { thrownMessage } from "../../core/errors.js";
import { wsError, type WsServerMessage } from "../../envs/openenv/wire.js";
import { apiKeyChecker } from "../api-key.js";
import { parseJsonBody, readBody } from "../http-body.js";
import { openClientSession, type ClientSession, type SessionHost } from "./client-session.js";
import { answerMcp, type McpScope } from "./mcp.js";
import { answerWsMessage } from "./ws-messages.js";
import { actionJsonSchema, observationJsonSchema, stateJsonSchema } from "./actions.js";

export interface EnvServerOptions {
  readonly host: string;
  readonly port: number;
  readonly maxSessions: number;
  /** Seconds a session may stay idle before it is closed (0: never). */
  readonly idleTimeout: number;
  readonly apiKey?: string;
  readonly summary: string;
  readonly version: string;
  readonly log?: (line: string) => void;
}

export interface EnvServerStats {
  readonly sessions: number;
  readonly peakSessions: number;
  readonly steps: number;
  readonly refused: number;
}

export interface RunningEnvServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  stats(): EnvServerStats;
  close(): Promise<void>;
}

interface Live {
  readonly session: ClientSession;
  lastActive: number;
  readonly end: () => void;
}

const IDLE_CLOSE = 4000;

/** A {"type": "close"} message (however it is spaced). */
function isCloseMessage(text: string): boolean {
  if (text.length > 64 || !text.includes("close")) return false;
  try {
    return (JSON.parse(text) as { type?: unknown } | null)?.type === "close";
  } catch {
    return false;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startEnvServer(host: SessionHost, options: EnvServerOptions): Promise<RunningEnvServer> {
  const live = new Map<string, Live>();
  const counts = { peak: 0, steps: 0, refused: 0 };
  const withTools = host.env.actions.message !== undefined;
  const authorized = options.apiKey === undefined ? undefined : apiKeyChecker(options.apiKey);
  const allowed = (request: IncomingMessage, path: string): boolean =>
    authorized === undefined || path === "/health" || authorized(request.headers.authorization);
  const admit = (session: ClientSession, end: () => void): string | null => {
    if (live.size >= options.maxSessions) {
      counts.refused++;
      return null;
    }
    const id = randomUUID();
    live.set(id, { session, lastActive: Date.now(), end });
    counts.peak = Math.max(counts.peak, live.size);
    return id;
  };
  const release = (id: string): void => {
    live.get(id)?.session.close();
    live.delete(id);
  };
  const touch = (id: string): void => {
    const entry = live.get(id);
    if (entry !== undefined) entry.lastActive = Date.now();
  };
  const httpScope = async (body: unknown): Promise<McpScope> => {
    const params = (body as { params?: { session_id?: unknown } } | null)?.params;
    const temporary = typeof params?.session_id === "string" ? undefined : openClientSession(host);
    if (temporary !== undefined && withTools) await temporary.reset({});
    return {
      session: temporary,
      withTools,
      create: async () => {
        const session = openClientSession(host);
        await session.reset({});
        const id = admit(session, () => undefined);
        if (id === null) session.close();
        return id;
      },
      find: (id) => {
        touch(id);
        return live.get(id)?.session;
      },
      close: (id) => {
        const known = live.has(id);
        release(id);
        return known;
      },
    };
  };
  const answerHttp = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<void> => {
    const method = request.method ?? "GET";
    if (method === "GET" && path === "/health") return sendJson(response, 200, { status: "healthy" });
    if (method === "GET" && path === "/metadata")
      return sendJson(response, 200, {
        name: `budgetrl-${host.env.spec.name}`,
        description: options.summary,
        readme_content: null,
        version: options.version,
        author: "budgetrl",
        documentation_url: null,
      });
    if (method === "GET" && path === "/schema")
      return sendJson(response, 200, {
        action: actionJsonSchema(withTools),
        observation: observationJsonSchema(),
        state: stateJsonSchema(),
      });
    if (method === "GET" && path === "/state") return sendJson(response, 200, openClientSession(host).state());
    if (method !== "POST" || !["/reset", "/step", "/mcp"].includes(path))
      return sendJson(response, 404, { detail: "Not Found" });
    const bytes = await readBody(request, 16 * 1024 * 1024);
    const body = bytes.length === 0 ? {} : parseJsonBody(bytes);
    if (path === "/mcp") {
      const scope = await httpScope(body);
      try {
        return sendJson(response, 200, await answerMcp(body, scope));
      } finally {
        scope.session?.close();
      }
    }
    const session = openClientSession(host);
    try {
      const data = (body ?? {}) as Record<string, unknown>;
      if (path === "/reset") return sendJson(response, 200, await session.reset(data));
      await session.reset({});
      counts.steps++;
      return sendJson(response, 200, await session.step(data["action"]));
    } finally {
      session.close();
    }
  };
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!.replace(/(.)\/$/, "$1");
    if (!allowed(request, path)) return sendJson(response, 401, { detail: "missing or wrong API key" });
    answerHttp(request, response, path).catch((error: unknown) => {
      const problem = error as { code?: string; status?: number };
      const status = problem.code === "VALIDATION_ERROR" || problem.status === 400 ? 422 : 500;
      if (!response.headersSent) sendJson(response, status, { detail: thrownMessage(error) });
      else response.end();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 100 * 1024 * 1024 });
  const serveSocket = (socket: WebSocket, kind: "ws" | "mcp"): void => {
    const session = openClientSession(host);
    const id = admit(session, () => socket.close(IDLE_CLOSE, "idle timeout"));
    const send = (message: unknown): void => socket.send(JSON.stringify(message));
    if (id === null) {
      send(
        kind === "ws"
          ? wsError("CAPACITY_REACHED", `the server is at its ${options.maxSessions} sessions (--max-sessions)`, {
              active_sessions: live.size,
              max_sessions: options.maxSessions,
            })
          : { jsonrpc: "2.0", id: null, error: { code: -32000, message: "the server is at its --max-sessions" } },
      );
      socket.close();
      return;
    }
    let queue = Promise.resolve();
    socket.on("message", (raw) => {
      touch(id);
      // A close message frees the slot at once, before the socket's close handshake: a client that waits for its
      // socket to close may connect again at once without finding the server full.
      if (kind === "ws" && isCloseMessage(raw.toString())) release(id);
      queue = queue.then(async () => {
        const text = raw.toString();
        if (kind === "mcp") {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
          }
          return send(await answerMcp(body, { session, withTools }));
        }
        const reply: WsServerMessage | "close" = await answerWsMessage(text, session, withTools, () => counts.steps++);
        if (reply === "close") socket.close();
        else if (socket.readyState === socket.OPEN) send(reply);
        touch(id);
      });
    });
    socket.on("close", () => release(id));
  };
  server.on("upgrade", (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    const path = (request.url ?? "/").split("?")[0]!;
    if (!allowed(request, path)) {
      stream.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    if (path !== "/ws" && path !== "/mcp") {
      stream.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(request, stream, head, (socket) => serveSocket(socket, path === "/ws" ? "ws" : "mcp"));
  });
  const reaper =
    options.idleTimeout > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const [id, entry] of live)
              if (now - entry.lastActive > options.idleTimeout * 1000) {
                entry.end();
                release(id);
              }
          },
          Math.max(20, Math.min(5000, (options.idleTimeout * 1000) / 4)),
        ).unref()
      : undefined;
  const address = await listen(server, options.port, options.host);
  const hostText = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostText}:${address.port}`,
    host: address.address,
    port: address.port,
    stats: () => ({ sessions: live.size, peakSessions: counts.peak, steps: counts.steps, refused: counts.refused }),
    async close() {
      if (reaper !== undefined) clearInterval(reaper);
      for (const socket of sockets.clients) socket.terminate();
      for (const id of [...live.keys()]) release(id);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
