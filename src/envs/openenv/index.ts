// Any OpenEnv server as a budgetrl env: `--env openenv:URL` for eval, train and report.
//
// Description: an env served over OpenEnv's protocol (meta-pytorch/OpenEnv: reset/step/state over a WebSocket, MCP
//   for tool envs), whoever serves it: OpenEnv's own envs (text games, BrowserGym, coding envs) or `budgetrl
//   env-server`. Each episode opens its own session (/ws) and closes it when the episode ends.
// Actions: one reply per step, parsed as JSON and validated against the action's JSON Schema from GET /schema (zod's
//   reading of it); a reply that is not JSON fills the action's one text field when it has one (budgetrl's
//   {"message"}); an invalid reply costs the turn and is marked invalid, and the server never sees it. An MCP env's
//   tools (tools/list) are the policy's tools: a tool call is OpenEnv's CallToolAction (several calls in one reply
//   when the server takes tool_calls, as budgetrl env-server does). actions.valid: the schema's finite actions
//   (enums, consts, booleans), or the valid_actions budgetrl env-server sends; `--policy random` draws from them.
// Observation: the observation's text: the field --env-opt observation=FIELD names, else the messages budgetrl
//   env-server sends, else the observation without reward, done and metadata as JSON; the first one is preceded by
//   the action's JSON Schema (unless a plain reply is an action, or the env is MCP).
// Rewards: the server's reward per step.
// Episode end: the server's done. Success: done with a reward of at least --env-opt success (default: reward > 0);
//   budgetrl env-server's own verdict (metadata.success, stop_reason) when it sends one. The turn budget is
//   budgetrl's turn clock, as for every env (announced, remaining, hidden: the sentence appended to the observation);
//   a budgetrl env-server is asked for a hidden budget of 10000 turns, so that only the client's counts.
// Info: progress 0 (no oracle); stateKey: a hash of the observation; segment: budgetrl env-server's (bfcl's user turn).
// Oracle: none: analyses that need one say "no oracle for this env".
// Reference budget: --env-opt reference (default 20 turns) for every task.
// Distinct tasks: --env-opt tasks (default 1000): task i is reset(seed=i), or with --env-opt task=FIELD a reset
//   naming task i in FIELD, the episode's seed beside it.
// Faults: a server that cannot be reached, times out, refuses for capacity or drops the socket makes that episode an
//   error (not a failure), which --resume plays again; a URL that serves no OpenEnv env is refused before the run.
// Arguments: see config.ts (url, task, tasks, observation, success, reference, timeout, apiKeyEnv).
import type { RemoteEnv, StepInfo, StepResult, StopReason } from "../../core/env.js";
import { hashHex } from "../../core/hash.js";
import { canonicalJson, type JsonObject } from "../../core/json.js";
import type { Message, ToolSpec } from "../../core/message.js";
import { parseOptions } from "../../core/options.js";
import type { TaskSource } from "../../core/task-source.js";
import { DataError } from "../../core/errors.js";
import type { ActionSchema } from "./action-schema.js";
import { openEnvConfigSchema, type OpenEnvConfig } from "./config.js";
import { readReply } from "./replies.js";
import { reachServer, type ServerFacts } from "./server-facts.js";
import { CapacityReached, openSession, RefusedAction, type OpenEnvSession } from "./session.js";
import { mcpToolSchema, type StepPayload } from "./wire.js";

export { openEnvConfigSchema, type OpenEnvConfig } from "./config.js";

export interface OpenEnvTask {
  readonly index: number;
}

export interface OpenEnvState {
  readonly session: OpenEnvSession;
  readonly observation: JsonObject;
  readonly key: string;
  readonly segment: number;
  readonly valid: readonly string[];
  readonly done: boolean;
}

const isMessageList = (value: unknown): value is { role: string; content: string; tool_call_id?: string }[] =>
  Array.isArray(value) &&
  value.every((item) => typeof item === "object" && item !== null && typeof item.content === "string");

/** What the agent reads of an observation. */
function observationMessages(observation: JsonObject, config: OpenEnvConfig): Message[] {
  if (config.observation !== undefined) {
    const value = observation[config.observation];
    return [{ role: "user", content: typeof value === "string" ? value : canonicalJson(value ?? null) }];
  }
  const listed = observation["messages"];
  if (isMessageList(listed))
    return listed.map((message) => ({
      role: message.role === "system" || message.role === "tool" ? message.role : "user",
      content: message.content,
      ...(typeof message.tool_call_id === "string" ? { toolCallId: message.tool_call_id } : {}),
    }));
  const { metadata: _metadata, ...rest } = observation;
  return [{ role: "user", content: JSON.stringify(rest) }];
}

const metadataOf = (observation: JsonObject): JsonObject => {
  const metadata = observation["metadata"];
  return typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) ? (metadata as JsonObject) : {};
};

function stateFrom(session: OpenEnvSession, payload: StepPayload, segment: number): OpenEnvState {
  const observation = payload.observation as JsonObject;
  const offered = observation["valid_actions"];
  return {
    session,
    observation,
    key: hashHex(canonicalJson(observation)),
    segment:
      typeof metadataOf(observation)["segment"] === "number" ? (metadataOf(observation)["segment"] as number) : segment,
    valid: Array.isArray(offered) && offered.every((item) => typeof item === "string") ? offered : [],
    done: payload.done,
  };
}

/** How a done step ended: budgetrl env-server's verdict, else the reward against the threshold. */
function ending(payload: StepPayload, config: OpenEnvConfig): StopReason {
  const metadata = metadataOf(payload.observation as JsonObject);
  const said = metadata["stop_reason"];
  if (typeof said === "string" && (said === "success" || said === "failure" || said === "force_terminated"))
    return said as StopReason;
  if (typeof metadata["success"] === "boolean") return metadata["success"] ? "success" : "failure";
  const reward = Number(payload.reward ?? 0);
  const succeeded = config.success === undefined ? reward > 0 : reward >= config.success;
  return succeeded ? "success" : "failure";
}

function info(state: OpenEnvState, parsed: string | null, invalid: boolean, stopReason?: StopReason): StepInfo {
  return {
    progress: 0,
    stateKey: state.key,
    invalid,
    parsedAction: parsed,
    segment: state.segment,
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}

function taskSource(config: OpenEnvConfig): TaskSource<OpenEnvTask> {
  const all = Array.from({ length: config.tasks }, (_, index) => ({ index }));
  return {
    generate: (seed) => ({ index: seed % config.tasks }),
    id: (task) => `task-${task.index}`,
    encode: (task) => ({ index: task.index }),
    decode: (json) => ({ index: Number((json as { index?: unknown }).index) }),
    parse: (text) =>
      text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
        .map((line, number) => {
          const index = Number(line);
          if (!Number.isInteger(index) || index < 0)
            throw new DataError(`task file line ${number + 1}: expected a task index (0, 1, ...), got "${line}"`);
          return { index };
        }),
    list: () => all,
    distinctTasks: () => config.tasks,
    structure: "the task index (the server's reset seed or task field)",
    structureKey: (task) => String(task.index),
    referenceBudget: () => config.reference,
  };
}

export interface OpenEnvEnv extends RemoteEnv<OpenEnvTask, OpenEnvState> {
  /** What GET /schema and /metadata said (after open()). */
  readonly facts: () => ServerFacts;
}

/** Whether an env is an OpenEnv server's. */
export const isOpenEnv = (env: { readonly spec: { readonly name: string } }): env is OpenEnvEnv =>
  env.spec.name === "openenv" && "facts" in env;

/** Whether a random policy has actions to draw from on an opened OpenEnv env: the schema's finite actions, or the
 * valid actions budgetrl env-server sends with every observation. */
export const listsActions = (env: OpenEnvEnv): boolean => env.facts().budgetrl || env.facts().action.finite.length > 0;

export function openenv(options: Record<string, unknown>): OpenEnvEnv {
  const config = parseOptions("openenv", openEnvConfigSchema, options);
  let facts: ServerFacts | undefined;
  const sessions = new Set<OpenEnvSession>();
  const known = (): ServerFacts => {
    if (facts === undefined) throw new Error("openenv: open() the env before playing it");
    return facts;
  };
  const apiKey = process.env[config.apiKeyEnv];
  const headers: Record<string, string> =
    apiKey === undefined || apiKey === "" ? {} : { authorization: `Bearer ${apiKey}` };
  const resetData = (task: OpenEnvTask, seed: number): Record<string, unknown> => ({
    ...(config.task === undefined ? { seed: task.index } : { [config.task]: task.index, seed }),
    ...(known().budgetrl ? { budget: "10000", budget_mode: "hidden" } : {}),
  });
  const firstMessages = (schema: ActionSchema, observation: JsonObject): Message[] => {
    const said = observationMessages(observation, config);
    if (schema.textField !== undefined || schema.mcp) return said;
    const rule = `Reply with one action: a JSON object that matches this JSON Schema.\n${JSON.stringify(schema.json)}`;
    return [{ role: "system", content: rule }, ...said];
  };
  return {
    remote: true,
    spec: { name: "openenv", config: { ...config } as unknown as JsonObject },
    tasks: taskSource(config),
    actions: {
      valid: (state) => (state.valid.length > 0 ? state.valid : known().action.finite),
      stateKey: (state) => state.key,
    },
    async open() {
      facts ??= await reachServer(config.url, { timeoutMs: config.timeout * 1000, headers });
    },
    async reset(task, { seed }) {
      const { action } = known();
      const { session, payload } = await startSession(config, headers, resetData(task, seed));
      sessions.add(session);
      try {
        const state = stateFrom(session, payload, 0);
        const tools: ToolSpec[] = action.mcp ? await listTools(session) : [];
        return {
          state,
          observation: firstMessages(action, state.observation),
          info: info(state, null, false),
          ...(tools.length === 0 ? {} : { tools }),
        };
      } catch (error) {
        sessions.delete(session);
        await session.close();
        throw error;
      }
    },
    step: (state, message) => stepRemote(state, message, known().action, config),
    async release(state) {
      sessions.delete(state.session);
      await state.session.close();
    },
    async close() {
      await Promise.all([...sessions].map((session) => session.close()));
      sessions.clear();
    },
    facts: known,
  };
}

/** A turn's step: the reply read as an action (an invalid one costs the turn, the server never sees it), played by
 * the server (an action it refuses costs the turn too). */
async function stepRemote(
  state: OpenEnvState,
  message: Message,
  action: ActionSchema,
  config: OpenEnvConfig,
): Promise<StepResult<OpenEnvState>> {
  const spent = (content: string, parsed: string | null): StepResult<OpenEnvState> => ({
    state,
    observation: [{ role: "user", content }],
    reward: 0,
    terminated: false,
    info: info(state, parsed, true),
  });
  const reply = readReply(message, action);
  if (!reply.ok) return spent(`Your reply is not a valid action: ${reply.problem}`, null);
  let payload: StepPayload;
  try {
    payload = await state.session.step(reply.action);
  } catch (error) {
    if (!(error instanceof RefusedAction)) throw error;
    return spent(`The server refused the action: ${error.message}`, reply.parsed);
  }
  const next = stateFrom(state.session, payload, state.segment);
  const metadata = metadataOf(next.observation);
  const parsed = typeof metadata["parsed_action"] === "string" ? metadata["parsed_action"] : reply.parsed;
  return {
    state: next,
    observation: observationMessages(next.observation, config),
    reward: Number(payload.reward ?? 0),
    terminated: payload.done,
    info: info(next, parsed, metadata["invalid"] === true, payload.done ? ending(payload, config) : undefined),
  };
}

/** A session reset for an episode. A server at capacity is asked again, waiting longer each time (10 ms, doubled, at
 * most 1 s), until --env-opt timeout has passed: then the refusal is the episode's fault. */
async function startSession(
  config: OpenEnvConfig,
  headers: Record<string, string>,
  data: Record<string, unknown>,
): Promise<{ session: OpenEnvSession; payload: StepPayload }> {
  const deadline = Date.now() + config.timeout * 1000;
  for (let wait = 10; ; wait = Math.min(1000, wait * 2)) {
    const session = await openSession(config.url, { timeoutMs: config.timeout * 1000, headers });
    try {
      return { session, payload: await session.reset(data) };
    } catch (error) {
      await session.close();
      if (!(error instanceof CapacityReached) || Date.now() + wait > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The MCP env's tools (tools/list over the session). */
async function listTools(session: OpenEnvSession): Promise<ToolSpec[]> {
  const result = (await session.mcp("tools/list", {})) as { tools?: unknown } | null;
  const tools = Array.isArray(result?.tools) ? result.tools : [];
  return tools.flatMap((tool) => {
    const parsed = mcpToolSchema.safeParse(tool);
    return parsed.success ? [parsed.data as ToolSpec] : [];
  });
}
