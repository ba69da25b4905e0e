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
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { thrownMessage } from "../../core/errors.js";
import { wsError, type WsServerMessage } from "../../envs/openenv/wire.js";
import { apiKeyChecker } from "../api-key.js";
import { openClientSession, type SessionHost } from "./client-session.js";
import { answerHttp, sendJson } from "./http-routes.js";
import { answerMcp } from "./mcp.js";
import { createSessionTable, type SessionTable } from "./session-table.js";
import { answerWsMessage } from "./ws-messages.js";

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

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** The reply that refuses a socket past --max-sessions. */
function capacityReply(kind: "ws" | "mcp", table: SessionTable, maxSessions: number): unknown {
  return kind === "ws"
    ? wsError("CAPACITY_REACHED", `the server is at its ${maxSessions} sessions (--max-sessions)`, {
        active_sessions: table.size(),
        max_sessions: maxSessions,
      })
    : { jsonrpc: "2.0", id: null, error: { code: -32000, message: "the server is at its --max-sessions" } };
}

/** One WebSocket: a session of its own, its messages answered one at a time, in order. */
function serveSocket(
  host: SessionHost,
  table: SessionTable,
  maxSessions: number,
  stepped: () => void,
  socket: WebSocket,
  kind: "ws" | "mcp",
): void {
  const withTools = host.env.actions.message !== undefined;
  const session = openClientSession(host);
  const id = table.admit(session, () => socket.close(IDLE_CLOSE, "idle timeout"));
  const send = (message: unknown): void => socket.send(JSON.stringify(message));
  if (id === null) {
    send(capacityReply(kind, table, maxSessions));
    socket.close();
    return;
  }
  let queue = Promise.resolve();
  socket.on("message", (raw) => {
    table.touch(id);
    const text = raw.toString();
    // A close message frees the slot at once, before the socket's close handshake: a client that waits for its
    // socket to close may connect again at once without finding the server full.
    if (kind === "ws" && isCloseMessage(text)) table.release(id);
    queue = queue.then(async () => {
      if (kind === "mcp") {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
        }
        return send(await answerMcp(body, { session, withTools }));
      }
      const reply: WsServerMessage | "close" = await answerWsMessage(text, session, withTools, stepped);
      if (reply === "close") socket.close();
      else if (socket.readyState === socket.OPEN) send(reply);
      table.touch(id);
    });
  });
  socket.on("close", () => table.release(id));
}

function refuseUpgrade(stream: Duplex, status: string): void {
  stream.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

export async function startEnvServer(host: SessionHost, options: EnvServerOptions): Promise<RunningEnvServer> {
  const table = createSessionTable(options.maxSessions, options.idleTimeout);
  let steps = 0;
  const stepped = (): void => {
    steps++;
  };
  const authorized = options.apiKey === undefined ? undefined : apiKeyChecker(options.apiKey);
  const allowed = (request: IncomingMessage, path: string): boolean =>
    authorized === undefined || path === "/health" || authorized(request.headers.authorization);
  const facts = { summary: options.summary, version: options.version };
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!.replace(/(.)\/$/, "$1");
    if (!allowed(request, path)) return sendJson(response, 401, { detail: "missing or wrong API key" });
    answerHttp(host, facts, table, stepped, request, response, path).catch((error: unknown) => {
      const problem = error as { code?: string; status?: number };
      const status = problem.code === "VALIDATION_ERROR" || problem.status === 400 ? 422 : 500;
      if (!response.headersSent) sendJson(response, status, { detail: thrownMessage(error) });
      else response.end();
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 100 * 1024 * 1024 });
  server.on("upgrade", (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    const path = (request.url ?? "/").split("?")[0]!;
    if (!allowed(request, path)) return refuseUpgrade(stream, "401 Unauthorized");
    if (path !== "/ws" && path !== "/mcp") return refuseUpgrade(stream, "404 Not Found");
    sockets.handleUpgrade(request, stream, head, (socket) =>
      serveSocket(host, table, options.maxSessions, stepped, socket, path === "/ws" ? "ws" : "mcp"),
    );
  });
  const address = await listen(server, options.port, options.host);
  const hostText = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostText}:${address.port}`,
    host: address.address,
    port: address.port,
    stats: () => ({ sessions: table.size(), peakSessions: table.peak(), steps, refused: table.refused() }),
    async close() {
      for (const socket of sockets.clients) socket.terminate();
      table.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
