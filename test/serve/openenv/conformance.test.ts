// `budgetrl env-server` against OpenEnv's own types: every reply over HTTP, the WebSocket and MCP validates against
// the JSON Schema of the OpenEnv type it stands for (test/envs/openenv/fixtures: from OpenEnv's pydantic types).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveEnv, type EnvServing } from "../../../src/serve/openenv/serve-env.js";
import { problemsAs } from "../../envs/openenv/fixtures.js";
import { connect } from "./socket.js";

let vault: EnvServing;
let bfcl: EnvServing;

beforeAll(async () => {
  vault = await serveEnv({ env: "vault", port: 0, tasks: 5 });
  bfcl = await serveEnv({ env: "bfcl", envOptions: { categories: "base" }, port: 0, tasks: 5 });
});
afterAll(async () => {
  await vault?.close();
  await bfcl?.close();
});

const get = async (server: EnvServing, path: string) => (await fetch(`${server.url}${path}`)).json();
const post = async (server: EnvServing, path: string, body: unknown) => {
  const response = await fetch(`${server.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("env-server over HTTP", () => {
  it("answers /health, /metadata, /schema and /state as OpenEnv's types", async () => {
    expect(problemsAs("HealthResponse", await get(vault, "/health"))).toBe("");
    const metadata = await get(vault, "/metadata");
    expect(problemsAs("EnvironmentMetadata", metadata)).toBe("");
    expect(metadata).toMatchObject({ name: "budgetrl-vault", author: "budgetrl" });
    expect(problemsAs("SchemaResponse", await get(vault, "/schema"))).toBe("");
    expect(problemsAs("State", await get(vault, "/state"))).toBe("");
  });

  it("resets and steps statelessly, as OpenEnv's HTTP endpoints do", async () => {
    const reset = await post(vault, "/reset", { seed: 2, budget: "4", budget_mode: "remaining" });
    expect(reset.status).toBe(200);
    expect(problemsAs("ResetResponse", reset.body)).toBe("");
    expect(reset.body).toMatchObject({ done: false, observation: { turn: 1, turns_left: 4 } });
    const step = await post(vault, "/step", { action: { message: "<answer>check</answer>" } });
    expect(problemsAs("StepResponse", step.body)).toBe("");
    expect(step.body).toMatchObject({ observation: { metadata: { parsed_action: "check" } } });
    expect((await post(vault, "/step", { action: { text: "check" } })).status).toBe(422);
  });

  it("answers JSON-RPC on /mcp: bfcl's tools, and 'does not support MCP' for a text env", async () => {
    const listed = await post(bfcl, "/mcp", { jsonrpc: "2.0", method: "tools/list", params: {}, id: 1 });
    expect(problemsAs("JsonRpcResponse", listed.body)).toBe("");
    const tools = (listed.body["result"] as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools.length).toBeGreaterThan(0);
    expect(tools[0]!.inputSchema).toBeTypeOf("object");
    const text = await post(vault, "/mcp", { jsonrpc: "2.0", method: "tools/list", params: {}, id: 2 });
    expect(text.body).toMatchObject({ id: 2, error: { code: -32603, message: "Environment does not support MCP" } });
    const unknown = await post(bfcl, "/mcp", { jsonrpc: "2.0", method: "prompts/list", id: 3 });
    expect(unknown.body).toMatchObject({ error: { code: -32601 } });
  });

  it("opens an MCP session over HTTP, calls a tool in it, and closes it", async () => {
    const created = await post(bfcl, "/mcp", { jsonrpc: "2.0", method: "openenv/session/create", params: {}, id: 1 });
    const session = (created.body["result"] as { session_id: string }).session_id;
    const listed = await post(bfcl, "/mcp", { jsonrpc: "2.0", method: "tools/list", params: { session_id: session } });
    const name = (listed.body["result"] as { tools: { name: string }[] }).tools[0]!.name;
    const called = await post(bfcl, "/mcp", {
      jsonrpc: "2.0",
      method: "tools/call",
      params: { session_id: session, name, arguments: {} },
      id: 4,
    });
    expect(problemsAs("JsonRpcResponse", called.body)).toBe("");
    expect(called.body["result"]).toMatchObject({ observation: { tool_name: name, turn: 2 } });
    const closed = await post(bfcl, "/mcp", {
      jsonrpc: "2.0",
      method: "openenv/session/close",
      params: { session_id: session },
    });
    expect(closed.body["result"]).toEqual({ session_id: session, closed: true });
  });
});

describe("env-server over the WebSocket", () => {
  it("plays an episode with a budget set through reset, every reply one of OpenEnv's", async () => {
    const socket = await connect(vault.url);
    const reset = await socket.send({ type: "reset", data: { task: 1, seed: 9, budget: "3", episode_id: "e1" } });
    expect(problemsAs("WSObservationResponse", reset)).toBe("");
    expect(reset).toMatchObject({ data: { done: false, observation: { turn: 1, turns_left: 3 } } });
    const text = (reset["data"] as { observation: { text: string } }).observation.text;
    expect(text).toMatch(/Turn 1 of 3: 3 turns left\.$/);
    let last: Record<string, unknown> = reset;
    for (let turn = 1; turn <= 3; turn++) {
      last = await socket.send({ type: "step", data: { message: "<answer>check</answer>" } });
      expect(problemsAs("WSObservationResponse", last)).toBe("");
    }
    expect(last).toMatchObject({ data: { done: true, observation: { metadata: { stop_reason: "max_turns" } } } });
    const state = await socket.send({ type: "state" });
    expect(problemsAs("WSStateResponse", state)).toBe("");
    expect(state["data"]).toMatchObject({ episode_id: "e1", step_count: 3, budget: "3", done: true });
    const after = await socket.send({ type: "step", data: { message: "1" } });
    expect(after).toMatchObject({ type: "error", data: { code: "EXECUTION_ERROR" } });
    socket.close();
  });

  it("answers what it cannot read with OpenEnv's error codes, and goes on", async () => {
    const socket = await connect(vault.url);
    const cases: [string, string][] = [
      ["{not json", "INVALID_JSON"],
      [JSON.stringify({ type: "jump" }), "UNKNOWN_TYPE"],
      [JSON.stringify({ type: "step" }), "VALIDATION_ERROR"],
      [JSON.stringify({ type: "step", data: { message: "1" } }), "EXECUTION_ERROR"],
      [JSON.stringify({ type: "reset", data: { budget: "lots" } }), "VALIDATION_ERROR"],
      [JSON.stringify({ type: "reset", data: { task: 99 } }), "VALIDATION_ERROR"],
      [JSON.stringify({ type: "reset", data: { budget_mode: "loud" } }), "VALIDATION_ERROR"],
    ];
    for (const [text, code] of cases) {
      const reply = await socket.sendText(text);
      expect(problemsAs("WSErrorResponse", reply), text).toBe("");
      expect(reply, text).toMatchObject({ type: "error", data: { code } });
    }
    const reset = await socket.send({ type: "reset", data: {} });
    expect(reset).toMatchObject({ type: "observation" });
    const malformed = await socket.send({ type: "step", data: { msg: "1" } });
    expect(malformed).toMatchObject({ type: "error", data: { code: "VALIDATION_ERROR" } });
    const state = await socket.send({ type: "state" });
    expect(state["data"]).toMatchObject({ step_count: 0 });
    socket.close();
  });

  it("hides the turns left under a hidden budget, and adds the process reward and the optimal flag", async () => {
    const served = await serveEnv({ env: "vault", port: 0, tasks: 3, reward: "process", budgetMode: "hidden" });
    try {
      const socket = await connect(served.url);
      const reset = await socket.send({ type: "reset", data: { task: 0, budget: "1.5x" } });
      expect(reset).toMatchObject({
        data: { observation: { turns_left: null, budget: { mode: "hidden", label: "1.5x" } } },
      });
      const step = await socket.send({ type: "step", data: { message: "<answer>check</answer>" } });
      const { reward, observation } = step["data"] as {
        reward: number;
        observation: { metadata: Record<string, unknown> };
      };
      const { success_reward, process_reward, optimal } = observation.metadata;
      expect(typeof process_reward).toBe("number");
      expect(typeof optimal).toBe("boolean");
      expect(reward).toBeCloseTo((success_reward as number) + (process_reward as number), 12);
      socket.close();
    } finally {
      await served.close();
    }
  });

  it("plays bfcl as OpenEnv's MCP env: list_tools costs no turn, call_tool answers as CallToolObservation", async () => {
    const socket = await connect(bfcl.url);
    await socket.send({ type: "reset", data: { task: 0 } });
    const listed = await socket.send({ type: "step", data: { type: "list_tools" } });
    const observation = (listed["data"] as { observation: { tools: { name: string }[] } }).observation;
    expect(problemsAs("ListToolsObservation", { ...observation, done: false })).toBe("");
    const name = observation.tools[0]!.name;
    const mcp = await socket.send({ type: "mcp", data: { jsonrpc: "2.0", method: "tools/list", params: {}, id: 7 } });
    expect(problemsAs("WSMCPResponse", mcp)).toBe("");
    const called = await socket.send({ type: "step", data: { type: "call_tool", tool_name: name, arguments: {} } });
    const answer = (called["data"] as { observation: Record<string, unknown> }).observation;
    expect(answer).toMatchObject({ tool_name: name, error: null, turn: 2 });
    expect(answer["result"]).toMatchObject({ data: expect.any(String) });
    socket.close();
  });
});

describe("env-server's sessions", () => {
  it("refuses a session past --max-sessions with CAPACITY_REACHED, and takes one again when a session ends", async () => {
    const served = await serveEnv({ env: "hanoi", port: 0, maxSessions: 1 });
    try {
      const first = await connect(served.url);
      await first.send({ type: "reset", data: {} });
      const second = await connect(served.url);
      const refused = await second.next();
      expect(problemsAs("WSErrorResponse", refused)).toBe("");
      expect(refused).toMatchObject({ data: { code: "CAPACITY_REACHED", max_sessions: 1 } });
      await second.closed;
      first.close();
      await first.closed;
      const third = await connect(served.url);
      expect(await third.send({ type: "reset", data: {} })).toMatchObject({ type: "observation" });
      third.close();
    } finally {
      await served.close();
    }
  });

  it("closes a session idle past --idle-timeout", async () => {
    const served = await serveEnv({ env: "hanoi", port: 0, idleTimeout: 0.05 });
    try {
      const socket = await connect(served.url);
      await socket.send({ type: "reset", data: {} });
      expect(await socket.closed).toEqual({ code: 4000, reason: "idle timeout" });
      expect(served.stats().sessions).toBe(0);
    } finally {
      await served.close();
    }
  });

  it("wants the API key on every path but /health, WebSocket upgrades included", async () => {
    const served = await serveEnv({ env: "hanoi", port: 0, apiKey: "sesame" });
    try {
      expect((await fetch(`${served.url}/health`)).status).toBe(200);
      expect((await fetch(`${served.url}/schema`)).status).toBe(401);
      const keyed = await fetch(`${served.url}/schema`, { headers: { authorization: "Bearer sesame" } });
      expect(keyed.status).toBe(200);
      await expect(connect(served.url)).rejects.toThrow(/401/);
      const socket = await connect(served.url, "/ws", { authorization: "Bearer sesame" });
      expect(await socket.send({ type: "reset", data: {} })).toMatchObject({ type: "observation" });
      socket.close();
    } finally {
      await served.close();
    }
  });
});
