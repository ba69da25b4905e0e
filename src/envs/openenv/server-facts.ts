// What the openenv env reads of a server before its first episode: GET /health (is anything there), GET /schema (the
// action's JSON Schema: action-schema.ts) and GET /metadata (whose env it is; budgetrl env-server names itself). A URL
// that serves no OpenEnv env is refused here, in one line, before any work.
import { DataError, thrownMessage, thrownWithCause } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { readActionSchema, type ActionSchema } from "./action-schema.js";
import { metadataSchema, schemaResponseSchema } from "./wire.js";

export interface ServerFacts {
  readonly name: string;
  readonly action: ActionSchema;
  /** The server is `budgetrl env-server` (it takes budgetrl's reset fields). */
  readonly budgetrl: boolean;
}

async function getJson(url: string, options: { timeoutMs: number; headers: Record<string, string> }): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: options.headers, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    throw new DataError(
      `cannot reach the OpenEnv server at ${url}: ${thrownWithCause(error)}`,
      "check the URL and that the server runs",
    );
  }
  if (response.status === 401)
    throw new DataError(`${url} wants an API key (401)`, "set BUDGETRL_API_KEY, or --env-opt apiKeyEnv=VARIABLE");
  if (!response.ok) throw new DataError(`${url} is not an OpenEnv server: GET answered HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new DataError(`${url} is not an OpenEnv server: it did not answer JSON`);
  }
}

export async function reachServer(
  base: string,
  options: { readonly timeoutMs: number; readonly headers: Record<string, string> },
): Promise<ServerFacts> {
  const request = { timeoutMs: options.timeoutMs, headers: { ...options.headers } };
  await getJson(`${base}/health`, request);
  const schemas = schemaResponseSchema.safeParse(await getJson(`${base}/schema`, request));
  if (!schemas.success)
    throw new DataError(`${base} is not an OpenEnv server: GET /schema gave no action, observation and state schemas`);
  const metadata = metadataSchema.safeParse(await getJson(`${base}/metadata`, request).catch(() => null));
  const name = metadata.success ? metadata.data.name : "openenv";
  let action: ActionSchema;
  try {
    action = readActionSchema(schemas.data.action as JsonObject);
  } catch (error) {
    throw new DataError(`${base}: cannot read the action's JSON Schema: ${thrownMessage(error)}`);
  }
  return { name, action, budgetrl: metadata.success && metadata.data["author"] === "budgetrl" };
}
