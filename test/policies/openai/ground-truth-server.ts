// A loopback server that plays BFCL's ground truth as an OpenAI-compatible model: each user turn is answered
// with its ground-truth calls (native `tool_calls` in tools mode, call text in prompting mode), then a closing
// text. It tells entries apart by the request's seed (the openai policy's documented per-call seed of (run seed,
// entry, sample, turn)): entries of different categories may share their questions but not their ground truth.
// Used by the 800-entry test and the fault-injection test.
import type { Message } from "../../../src/core/message.js";
import { episodeSeed } from "../../../src/agent/run-episodes.js";
import { bfcl } from "../../../src/envs/bfcl/index.js";
import { parseSamplingOptions, planRequest } from "../../../src/policies/openai/index.js";
import {
  completion,
  startFakeServer,
  type FakeReply,
  type FakeRequest,
  type FakeServer,
  type Responder,
} from "./fake-server.js";

/** Most steps an entry can take here: two per user turn (calls, closing text). */
const MAX_STEPS = 40;

interface RequestMessage {
  readonly role?: string;
  readonly content?: unknown;
}

/** What identifies a request: the entry, the user messages so far, the offered tool names, and whether the model
 * already answered since the last user message (tools mode: the calls' results are tool messages). */
function turnKey(
  entry: string,
  userContents: readonly string[],
  toolNames: readonly string[],
  answered: boolean,
): string {
  return JSON.stringify([entry, userContents, [...toolNames].sort(), answered]);
}

/** The entries of every request seed the policy can send in this run (32-bit seeds may rarely coincide). */
function seedTable(entries: readonly string[], runSeed: number, samples: number): Map<number, string[]> {
  const sampling = parseSamplingOptions({});
  const table = new Map<number, string[]>();
  for (const entry of entries) {
    for (let sample = 0; sample < samples; sample++) {
      const seed = episodeSeed(runSeed, entry, sample);
      for (let turn = 1; turn <= MAX_STEPS; turn++) {
        const requestSeed = planRequest(sampling, { seed, sample, turn, taskId: entry }, runSeed).seed;
        const known = table.get(requestSeed);
        if (known === undefined) table.set(requestSeed, [entry]);
        else if (!known.includes(entry)) known.push(entry);
      }
    }
  }
  return table;
}

/** The reply to every request of every entry, keyed by turnKey: the turn's ground-truth calls, then the closing
 * text. Built by walking each entry's ground truth through the env's public API (actionMessage gives the message
 * of a call list: tool calls or call text). */
function groundTruthTable(dataDir: string, categories: string, mode: "tools" | "prompting"): Map<string, Message> {
  const env = bfcl({ dataDir, categories, mode });
  const table = new Map<string, Message>();
  const usersOf = (messages: readonly Message[]): string[] =>
    messages.filter((message) => message.role === "user").map((message) => message.content);
  for (const entry of env.tasks.list()) {
    const start = env.reset(entry, { seed: 0 });
    let state = start.state;
    let tools = start.tools ?? [];
    const users = usersOf(start.observation);
    for (let turn = 0; turn < entry.groundTruth.length; turn++) {
      const texts = (entry.groundTruth[turn] ?? []).map((call) => call.text);
      let answered = false;
      if (texts.length > 0) {
        const calls = env.actions.message(state, `[${texts.join(", ")}]`);
        table.set(
          turnKey(
            entry.id,
            users,
            tools.map((tool) => tool.name),
            answered,
          ),
          calls,
        );
        const results = env.step(state, calls);
        state = results.state;
        users.push(...usersOf(results.observation));
        answered = results.observation.every((message) => message.role !== "user");
      }
      const closing = env.actions.message(state, "[]");
      table.set(
        turnKey(
          entry.id,
          users,
          tools.map((tool) => tool.name),
          answered,
        ),
        closing,
      );
      const next = env.step(state, closing);
      state = next.state;
      if (next.tools !== undefined) tools = next.tools;
      users.push(...usersOf(next.observation));
    }
  }
  return table;
}

/** The server's answer: the recorded reply of this request, as a chat completion. */
function answer(
  table: ReadonlyMap<string, Message>,
  entries: ReadonlyMap<number, readonly string[]>,
  request: FakeRequest,
): FakeReply {
  const messages = (request.body["messages"] ?? []) as RequestMessage[];
  const tools = ((request.body["tools"] ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
  const users = messages.filter((message) => message.role === "user").map((message) => String(message.content));
  const lastUser = messages.map((message) => message.role).lastIndexOf("user");
  const answered = messages.slice(lastUser + 1).some((message) => message.role === "assistant");
  const candidates = entries.get(request.body["seed"] as number) ?? [];
  const reply = candidates
    .map((entry) => table.get(turnKey(entry, users, tools, answered)))
    .find((found) => found !== undefined);
  if (reply === undefined) return { kind: "json", status: 404, body: { error: { message: "unknown turn" } } };
  return {
    kind: "json",
    body: completion([
      reply.toolCalls === undefined ? { content: reply.content } : { content: null, toolCalls: reply.toolCalls },
    ]),
  };
}

/** The ground-truth answers for the entries of `categories` in a run with seed `runSeed` and `samples` samples (n = 1). */
export function groundTruthResponder(
  dataDir: string,
  categories: string,
  runSeed: number,
  samples = 1,
  mode: "tools" | "prompting" = "tools",
): Responder {
  const table = groundTruthTable(dataDir, categories, mode);
  const ids = bfcl({ dataDir, categories })
    .tasks.list()
    .map((entry) => entry.id);
  const entries = seedTable(ids, runSeed, samples);
  return (request) => answer(table, entries, request);
}

export function startGroundTruthServer(
  dataDir: string,
  categories: string,
  runSeed: number,
  mode: "tools" | "prompting" = "tools",
): Promise<FakeServer> {
  return startFakeServer(groundTruthResponder(dataDir, categories, runSeed, 1, mode));
}
