// One OpenEnv session of the openenv env: a WebSocket to the server's /ws (the `ws` library), one request at a time,
// each answered within the timeout. What goes wrong on the server's side is thrown as an OpenEnvFault, which the
// rollout engine turns into an error episode: a refused connection, a timeout, the socket closed mid-episode, a
// reply that is not OpenEnv's, an error reply (CAPACITY_REACHED, EXECUTION_ERROR, ...). An action the server refuses
// (VALIDATION_ERROR) is a RefusedAction instead: the agent's turn, spent; a server at capacity (CAPACITY_REACHED) is a
// CapacityReached, which the env asks again for a while (index.ts).
import WebSocket from "ws";
import { wsServerMessageSchema, type StepPayload, type WsServerMessage } from "./wire.js";

/** A fault of the server or the connection (an error episode). */
export class OpenEnvFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OpenEnvFault";
  }
}

/** The server is at its most sessions (OpenEnv's CAPACITY_REACHED): asked again a while before it is a fault. */
export class CapacityReached extends OpenEnvFault {
  constructor(message: string) {
    super(message);
    this.name = "CapacityReached";
  }
}

/** The server refused the action as invalid (OpenEnv's VALIDATION_ERROR). */
export class RefusedAction extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RefusedAction";
  }
}

export interface OpenEnvSession {
  reset(data: Readonly<Record<string, unknown>>): Promise<StepPayload>;
  step(action: unknown): Promise<StepPayload>;
  /** A JSON-RPC request over the session ({type: "mcp"}): its reply's result. */
  mcp(method: string, params: Readonly<Record<string, unknown>>): Promise<unknown>;
  /** Close the session; resolves once the server has closed its side (its slot is free again). */
  close(): Promise<void>;
}

export interface SessionOptions {
  /** Milliseconds to wait for the connection and for each reply. */
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The /ws URL of a server's base URL. */
export function wsUrl(base: string): string {
  return `${base.replace(/^http/, "ws")}/ws`;
}

/** The frames a socket receives, read one at a time: each within the timeout, or the socket's end as an error. */
function inbox(socket: WebSocket, url: string, timeoutMs: number): () => Promise<string> {
  let waiting: { resolve(text: string): void; reject(error: Error): void } | undefined;
  let ended: Error | undefined;
  const early: string[] = [];
  socket.on("message", (raw) => {
    const text = raw.toString();
    if (waiting === undefined) early.push(text);
    else {
      const { resolve } = waiting;
      waiting = undefined;
      resolve(text);
    }
  });
  const end = (error: Error): void => {
    ended ??= error;
    waiting?.reject(ended);
    waiting = undefined;
  };
  socket.on("close", (code, reason) =>
    end(
      new OpenEnvFault(
        `the server closed the session (code ${code}${reason.length > 0 ? `: ${reason.toString()}` : ""})`,
      ),
    ),
  );
  socket.on("error", (error) => end(new OpenEnvFault(`${url}: ${error.message}`)));
  return () => {
    const first = early.shift();
    if (first !== undefined) return Promise.resolve(first);
    if (ended !== undefined) return Promise.reject(ended);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = undefined;
        reject(new OpenEnvFault(`no reply from ${url} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      waiting = {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  };
}

/** The socket to `url` opened (or an OpenEnvFault saying why not). */
async function opened(socket: WebSocket, url: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", (error) => reject(new OpenEnvFault(`cannot reach ${url}: ${error.message}`)));
    socket.once("unexpected-response", (_request, response) =>
      reject(new OpenEnvFault(`${url} answered HTTP ${response.statusCode}, not a WebSocket`)),
    );
  });
}

/** A server's reply read: the message, or the fault or refusal an error reply stands for. */
function readServerReply(url: string, text: string): WsServerMessage {
  let parsed;
  try {
    parsed = wsServerMessageSchema.safeParse(JSON.parse(text));
  } catch {
    throw new OpenEnvFault(`${url} sent a reply that is not JSON: ${text.slice(0, 120)}`);
  }
  if (!parsed.success) throw new OpenEnvFault(`${url} sent a reply that is not OpenEnv's: ${text.slice(0, 120)}`);
  const reply = parsed.data;
  if (reply.type === "error") {
    const { code, message: said } = reply.data;
    if (code === "VALIDATION_ERROR") throw new RefusedAction(said);
    if (code === "CAPACITY_REACHED") throw new CapacityReached(`the server answered ${code}: ${said}`);
    throw new OpenEnvFault(`the server answered ${code}: ${said}`);
  }
  return reply;
}

export async function openSession(base: string, options: SessionOptions): Promise<OpenEnvSession> {
  const url = wsUrl(base);
  const socket = new WebSocket(url, { headers: { ...options.headers }, handshakeTimeout: options.timeoutMs });
  // Listening before the socket opens: a server at capacity says so as soon as it accepts.
  const receive = inbox(socket, url, options.timeoutMs);
  await opened(socket, url);
  const request = async (message: unknown): Promise<WsServerMessage> => {
    if (socket.readyState !== WebSocket.OPEN) return readServerReply(url, await receive());
    socket.send(JSON.stringify(message));
    return readServerReply(url, await receive());
  };
  const observation = async (message: unknown): Promise<StepPayload> => {
    const reply = await request(message);
    if (reply.type !== "observation") throw new OpenEnvFault(`expected an observation, the server sent ${reply.type}`);
    return reply.data;
  };
  return {
    reset: (data) => observation({ type: "reset", data }),
    step: (action) => observation({ type: "step", data: action }),
    async mcp(method, params) {
      const reply = await request({ type: "mcp", data: { jsonrpc: "2.0", method, params, id: 1 } });
      if (reply.type !== "mcp") throw new OpenEnvFault(`expected an mcp reply, the server sent ${reply.type}`);
      const error = reply.data["error"] as { message?: string } | null | undefined;
      if (error !== null && error !== undefined) throw new OpenEnvFault(`${method}: ${error.message ?? "error"}`);
      return reply.data["result"];
    },
    close() {
      if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      if (socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: "close" }));
        socket.close();
      } else socket.terminate();
      return closed;
    },
  };
}
