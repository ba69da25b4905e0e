// The HTTP endpoints of `budgetrl env-server`, as OpenEnv's HTTPEnvServer answers them: GET /health, /metadata,
// /schema, /state; POST /reset and /step, stateless (each on a fresh session, a step resetting it first); POST /mcp,
// JSON-RPC (mcp.ts) in a session of its own (openenv/session/create) or in a fresh one reset to the defaults. Other
// paths are 404 ({"detail": "Not Found"}, as FastAPI says it).
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJsonBody, readBody } from "../http-body.js";
import { actionJsonSchema, observationJsonSchema, stateJsonSchema } from "./actions.js";
import { openClientSession, type SessionHost } from "./client-session.js";
import { answerMcp, type McpScope } from "./mcp.js";
import type { SessionTable } from "./session-table.js";

/** What /metadata says of the server. */
export interface ServerFacts {
  readonly summary: string;
  readonly version: string;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** Where a POST /mcp request is answered: the session it names, or a fresh one reset to the server's defaults. */
async function httpScope(host: SessionHost, table: SessionTable, body: unknown): Promise<McpScope> {
  const withTools = host.env.actions.message !== undefined;
  const params = (body as { params?: { session_id?: unknown } } | null)?.params;
  const temporary = typeof params?.session_id === "string" ? undefined : openClientSession(host);
  if (temporary !== undefined && withTools) await temporary.reset({});
  return {
    session: temporary,
    withTools,
    create: async () => {
      const session = openClientSession(host);
      await session.reset({});
      const id = table.admit(session, () => undefined);
      if (id === null) session.close();
      return id;
    },
    find: (id) => table.find(id),
    close: (id) => table.release(id),
  };
}

function answerGet(host: SessionHost, facts: ServerFacts, response: ServerResponse, path: string): boolean {
  const withTools = host.env.actions.message !== undefined;
  if (path === "/health") sendJson(response, 200, { status: "healthy" });
  else if (path === "/metadata")
    sendJson(response, 200, {
      name: `budgetrl-${host.env.spec.name}`,
      description: facts.summary,
      readme_content: null,
      version: facts.version,
      author: "budgetrl",
      documentation_url: null,
    });
  else if (path === "/schema")
    sendJson(response, 200, {
      action: actionJsonSchema(withTools),
      observation: observationJsonSchema(),
      state: stateJsonSchema(),
    });
  else if (path === "/state") sendJson(response, 200, openClientSession(host).state());
  else return false;
  return true;
}

/** One HTTP request; `stepped` counts the steps played. */
export async function answerHttp(
  host: SessionHost,
  facts: ServerFacts,
  table: SessionTable,
  stepped: () => void,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
): Promise<void> {
  const method = request.method ?? "GET";
  if (method === "GET" && answerGet(host, facts, response, path)) return;
  if (method !== "POST" || !["/reset", "/step", "/mcp"].includes(path))
    return sendJson(response, 404, { detail: "Not Found" });
  const bytes = await readBody(request, MAX_BODY_BYTES);
  const body = bytes.length === 0 ? {} : parseJsonBody(bytes);
  if (path === "/mcp") {
    const scope = await httpScope(host, table, body);
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
    stepped();
    return sendJson(response, 200, await session.step(data["action"]));
  } finally {
    session.close();
  }
}
