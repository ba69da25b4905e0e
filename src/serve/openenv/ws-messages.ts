// One message of a /ws session of `budgetrl env-server`, answered as OpenEnv's /ws answers it: a reset or step with
// {type: "observation", data: {observation, reward, done}}, state with {type: "state", data}, mcp with {type: "mcp",
// data: JSON-RPC reply}, close by closing; what cannot be read gets {type: "error", data: {message, code}} with
// OpenEnv's codes (INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR, EXECUTION_ERROR), and the session goes on.
import { thrownMessage } from "../../core/errors.js";
import { wsClientMessageSchema, wsError, type WsServerMessage } from "../../envs/openenv/wire.js";
import { SessionProblem, type ClientSession } from "./client-session.js";
import { answerMcp } from "./mcp.js";

const KNOWN_TYPES = new Set(["reset", "step", "state", "close", "mcp"]);

/** The reply to one text frame, or "close" for a close message. */
export async function answerWsMessage(
  text: string,
  session: ClientSession,
  withTools: boolean,
  stepped: () => void,
): Promise<WsServerMessage | "close"> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return wsError("INVALID_JSON", `Invalid JSON: ${thrownMessage(error)}`);
  }
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !KNOWN_TYPES.has(type))
    return wsError("UNKNOWN_TYPE", `Unknown message type: ${String(type ?? "")}`);
  const parsed = wsClientMessageSchema.safeParse(raw);
  if (!parsed.success) return wsError("VALIDATION_ERROR", "Invalid message", { errors: parsed.error.issues });
  const message = parsed.data;
  try {
    switch (message.type) {
      case "reset":
        return { type: "observation", data: await session.reset(message.data) };
      case "step":
        stepped();
        return { type: "observation", data: await session.step(message.data) };
      case "state":
        return { type: "state", data: session.state() };
      case "mcp":
        return { type: "mcp", data: await answerMcp(message.data, { session, withTools }) };
      case "close":
        return "close";
    }
  } catch (error) {
    if (error instanceof SessionProblem) return wsError(error.code, error.message);
    return wsError("EXECUTION_ERROR", thrownMessage(error));
  }
}
