// A loopback server that plays BFCL's ground truth as an OpenAI-compatible model: each user turn is answered
// with its ground-truth calls as native `tool_calls`, then a closing text. It tells entries apart by the
// request's seed (the openai policy's documented per-call seed of (run seed, entry, sample 0, turn)): entries of
// different categories may share their questions but not their ground truth. Used by the 800-entry test.
import type { ToolCall } from "../../../src/core/message.js";
import { episodeSeed } from "../../../src/agent/run-episodes.js";
import { bfcl } from "../../../src/envs/bfcl/index.js";
import { parseSamplingOptions, planRequest } from "../../../src/policies/openai/index.js";
import { completion, startFakeServer, type FakeReply, type FakeRequest, type FakeServer, type Responder } from "./fake-server.js";

/** Most steps an entry can take here: two per user turn (calls, closing text). */
const MAX_STEPS = 40;

interface RequestMessage {
  readonly role?: string;
  readonly content?: unknown;
}

/** What identifies a user turn in a request: the entry, the user messages so far and the offered tool names. */
function turnKey(entry: string, userContents: readonly string[], toolNames: readonly string[]): string {
  return JSON.stringify([entry, userContents, [...toolNames].sort()]);
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

/** The ground-truth calls of every user turn of every entry, as tool calls, keyed by turnKey. Built by walking each
 * entry's ground truth through the env's public API (actionMessage gives the tool calls of a call list). */
function groundTruthTable(dataDir: string, categories: string): Map<string, readonly ToolCall[]> {
  const env = bfcl({ dataDir, categories, mode: "tools" });
  const table = new Map<string, readonly ToolCall[]>();
  for (const entry of env.listTasks()) {
    const start = env.reset(entry, { seed: 0 });
    let state = start.state;
    let tools = start.tools ?? [];
    const users = start.observation.filter((message) => message.role === "user").map((message) => message.content);
    for (let turn = 0; turn < entry.groundTruth.length; turn++) {
      const texts = (entry.groundTruth[turn] ?? []).map((call) => call.text);
      const calls = texts.length === 0 ? [] : (env.actionMessage(state, `[${texts.join(", ")}]`).toolCalls ?? []);
      table.set(turnKey(entry.id, users, tools.map((tool) => tool.name)), calls);
      if (calls.length > 0) state = env.step(state, { role: "assistant", content: "", toolCalls: calls }).state;
      const closed = env.step(state, env.actionMessage(state, "[]"));
      state = closed.state;
      if (closed.tools !== undefined) tools = closed.tools;
      for (const message of closed.observation) if (message.role === "user") users.push(message.content);
    }
  }
  return table;
}

/** The server's answer: the turn's ground-truth calls when no reply followed the last user message, else a closing text. */
function answer(table: ReadonlyMap<string, readonly ToolCall[]>, entries: ReadonlyMap<number, readonly string[]>, request: FakeRequest): FakeReply {
  const messages = (request.body["messages"] ?? []) as RequestMessage[];
  const tools = ((request.body["tools"] ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
  const users = messages.filter((message) => message.role === "user").map((message) => String(message.content));
  const lastUser = messages.map((message) => message.role).lastIndexOf("user");
  const answered = messages.slice(lastUser + 1).some((message) => message.role === "assistant");
  const candidates = entries.get(request.body["seed"] as number) ?? [];
  const calls = candidates.map((entry) => table.get(turnKey(entry, users, tools))).find((found) => found !== undefined);
  if (calls === undefined) return { kind: "json", status: 404, body: { error: { message: "unknown turn" } } };
  if (answered || calls.length === 0) return { kind: "json", body: completion([{ content: "Done." }]) };
  return { kind: "json", body: completion([{ content: null, toolCalls: calls }]) };
}

/** The ground-truth answers for the entries of `categories` in a run with seed `runSeed` and `samples` samples (n = 1). */
export function groundTruthResponder(dataDir: string, categories: string, runSeed: number, samples = 1): Responder {
  const table = groundTruthTable(dataDir, categories);
  const ids = bfcl({ dataDir, categories }).listTasks().map((entry) => entry.id);
  const entries = seedTable(ids, runSeed, samples);
  return (request) => answer(table, entries, request);
}

export function startGroundTruthServer(dataDir: string, categories: string, runSeed: number): Promise<FakeServer> {
  return startFakeServer(groundTruthResponder(dataDir, categories, runSeed));
}
