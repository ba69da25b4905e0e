import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import type { Budget } from "../../../src/core/budget.js";
import type { Message, ToolSpec } from "../../../src/core/message.js";
import { ContextLengthError, type PolicyContext } from "../../../src/core/policy.js";
import { createRng } from "../../../src/core/rng.js";
import { sokoban } from "../../../src/envs/sokoban/index.js";
import { openaiPolicyFromSpec, type OpenaiSetup } from "../../../src/policies/openai/create.js";
import { storedSamplingOptions } from "../../../src/policies/openai/options.js";
import { cacheSummary } from "../../../src/policies/openai/cache.js";
import { MalformedResponseError, RequestFailedError } from "../../../src/policies/openai/transport.js";
import { policySeed } from "../../../src/policies/tiny/policy.js";
import {
  completion,
  MALFORMED_REPLIES,
  startFakeServer,
  type FakeReply,
  type FakeServer,
  type Responder,
} from "./fake-server.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-openai-policy-"));
let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(responder: Responder): Promise<FakeServer> {
  const server = await startFakeServer(responder);
  servers.push(server);
  return server;
}

function context(overrides: Partial<PolicyContext> = {}): PolicyContext {
  return {
    seed: 11,
    sample: 0,
    turn: 1,
    rng: createRng(0),
    tools: [],
    taskId: "task-a",
    privileged: {
      oracle: () => ({ optimal: [], remaining: 0 }),
      validActions: () => [],
      toMessage: (action) => ({ role: "assistant", content: action }),
    },
    ...overrides,
  };
}

/** The policy with fast retries; waits are recorded instead of slept. */
function policyFor(
  server: FakeServer,
  client: Record<string, unknown> = {},
  options: Record<string, unknown> = {},
  waits: number[] = [],
) {
  const setup: OpenaiSetup = {
    options,
    client: { baseUrl: server.url, cache: false, backoffMs: 1, maxBackoffMs: 5000, ...client },
    runSeed: 1,
    transport: { sleep: async (ms) => void waits.push(ms) },
  };
  return openaiPolicyFromSpec("test-model", setup);
}

const hello: Message[] = [{ role: "user", content: "hello" }];

describe("openai policy", () => {
  it("sends native tools and turns tool_calls into the step's calls, seeded per (episode, turn)", async () => {
    const reply = completion([
      { content: null, toolCalls: [{ id: "c9", name: "cd", arguments: '{"folder": "docs"}' }] },
    ]);
    // A second call without an id and with arguments that are not JSON: kept as written, given a stable id.
    const message = (reply["choices"] as { message: { tool_calls: unknown[] } }[])[0]?.message;
    message?.tool_calls.push({ type: "function", function: { name: "rm", arguments: "{oops" } });
    const server = await serve(() => ({ kind: "json", body: reply }));
    const tools: ToolSpec[] = [
      {
        name: "cd",
        description: "change folder",
        parameters: { type: "object", properties: { folder: { type: "string" } } },
      },
    ];
    const policy = policyFor(server);
    const act = await policy.act(hello, context({ tools, turn: 2 }));
    expect(act.message).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "c9", name: "cd", arguments: '{"folder": "docs"}' },
        { id: "call_t2_1", name: "rm", arguments: "{oops" },
      ],
    });
    expect(act.sampling).toMatchObject({ temperature: 1, topP: 1, finishReason: "tool_calls", model: "fake-model" });
    const body = server.requests[0]?.body ?? {};
    expect(body["tools"]).toEqual([
      { type: "function", function: { name: "cd", description: "change folder", parameters: tools[0]?.parameters } },
    ]);
    expect(body["model"]).toBe("test-model");
    await policy.act(hello, context({ tools, turn: 2 }));
    await policy.act(hello, context({ tools, turn: 3 }));
    await policy.act(hello, context({ tools, turn: 2, seed: 12 }));
    const seeds = server.requests.map((request) => request.body["seed"]);
    expect(seeds[0]).toBe(seeds[1]);
    expect(new Set(seeds).size).toBe(3);
  });

  it("answers repeated requests from the cache, per sample and seed, and never caches errors", async () => {
    let fail = true;
    const server = await serve((request) => {
      if (fail) return { kind: "json", status: 500, body: { error: { message: "boom" } } };
      return { kind: "json", body: completion([{ content: `answer ${String(request.body["seed"])}` }]) };
    });
    const cacheDir = join(dir, "cache-a");
    const first = policyFor(server, { cache: true, cacheDir, retries: 0 });
    await expect(first.act(hello, context())).rejects.toThrow(RequestFailedError);
    fail = false;
    const a0 = await first.act(hello, context());
    const a1 = await first.act(hello, context({ sample: 1, seed: 99 }));
    expect(a0.message.content).not.toBe(a1.message.content);
    expect(server.requests).toHaveLength(3);
    const second = policyFor(server, { cache: true, cacheDir });
    expect((await second.act(hello, context())).message).toEqual(a0.message);
    expect((await second.act(hello, context({ sample: 1, seed: 99 }))).message).toEqual(a1.message);
    expect(server.requests).toHaveLength(3);
    expect(second.stats().cacheHits).toBe(2);
    const uncached = policyFor(server, { cache: false });
    await uncached.act(hello, context());
    expect(server.requests).toHaveLength(4);
  });

  it("asks for the first turn of K samples in blocks of n choices, each choice to its own sample", async () => {
    const server = await serve((request) => {
      const n = typeof request.body["n"] === "number" ? request.body["n"] : 1;
      return { kind: "json", body: completion(Array.from({ length: n }, (_, j) => ({ content: `choice ${j}` }))) };
    });
    const policy = policyFor(server, {}, { n: "4" });
    const acts = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((sample) => policy.act(hello, context({ sample, seed: 100 + sample }))),
    );
    expect(acts.map((act) => act.message.content)).toEqual([
      "choice 0",
      "choice 1",
      "choice 2",
      "choice 3",
      "choice 0",
      "choice 1",
    ]);
    expect(server.requests.map((request) => request.body["n"])).toEqual([4, 4]);
    expect(server.requests[0]?.body["seed"]).not.toBe(server.requests[1]?.body["seed"]);
    // Later turns: one request per sample, no n.
    await policy.act(hello, context({ sample: 0, turn: 2 }));
    expect(server.requests[2]?.body).not.toHaveProperty("n");
  });

  it("sends the tiny policy's turn seed with seedScheme=tiny, and refuses it with n or a seed option", async () => {
    const server = await serve(() => ({ kind: "json", body: completion([{ content: "Up" }]) }));
    const policy = policyFor(server, {}, { seedScheme: "tiny" });
    await policy.act(hello, context({ seed: 11, turn: 3 }));
    await policy.act(hello, context({ seed: 12, turn: 1, sample: 4 }));
    expect(server.requests.map((request) => request.body["seed"])).toEqual([
      policySeed({ seed: 11, turn: 3 }),
      policySeed({ seed: 12, turn: 1 }),
    ]);
    expect(server.requests[1]?.body).not.toHaveProperty("n");
    expect(storedSamplingOptions({})).not.toHaveProperty("seedScheme");
    expect(() => policyFor(server, {}, { seedScheme: "tiny", n: "2" })).toThrow(
      /openai.seedScheme: "tiny" sends the tiny policy's seed .* \(got n = 2, seed = 0\)/,
    );
    expect(() => policyFor(server, {}, { seedScheme: "tiny", seed: "5" })).toThrow(/openai.seedScheme/);
    expect(() => policyFor(server, {}, { seedScheme: "vllm" })).toThrow(
      /openai.seedScheme: expected one of openai, tiny/,
    );
  });

  it("retries 429 after Retry-After, 5xx, dropped connections, timeouts and unreadable bodies, bounded", async () => {
    const script: FakeReply[] = [
      { kind: "json", status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "2" } },
      { kind: "json", status: 503, body: { error: { message: "busy" } } },
      { kind: "drop" },
      { kind: "hang" },
      { kind: "raw", text: "<html>bad gateway</html>" },
      { kind: "json", body: completion([{ content: "finally" }]) },
    ];
    const server = await serve((request) => script[request.index] ?? { kind: "json", status: 500, body: {} });
    const waits: number[] = [];
    const retries: string[] = [];
    const policy = openaiPolicyFromSpec("test-model", {
      client: { baseUrl: server.url, cache: false, backoffMs: 1, retries: 5, timeoutMs: 300 },
      transport: { sleep: async (ms) => void waits.push(ms), onRetry: (event) => void retries.push(event.reason) },
    });
    const act = await policy.act(hello, context());
    expect(act.message.content).toBe("finally");
    expect(server.requests).toHaveLength(6);
    expect(waits[0]).toBe(2000);
    expect(waits.slice(1).every((ms) => ms >= 1 && ms <= 16)).toBe(true);
    expect(retries[0]).toMatch(/^429/);
    expect(retries[3]).toMatch(/timed out/i);
    expect(policy.stats().transport).toMatchObject({ requests: 6, retries: 5, failures: 0 });

    const alwaysDown = await serve(() => ({ kind: "json", status: 500, body: { error: { message: "down" } } }));
    const bounded = policyFor(alwaysDown, { retries: 3 });
    await expect(bounded.act(hello, context())).rejects.toThrow(/openai request failed after 4 attempts: 500/);
    expect(alwaysDown.requests).toHaveLength(4);
  });

  it("does not retry what cannot succeed; a context-length 400 (vLLM's top-level error form too) throws ContextLengthError", async () => {
    const server = await serve((request) =>
      request.index === 0
        ? { kind: "json", status: 401, body: { error: { message: "Incorrect API key" } } }
        : {
            kind: "json",
            status: 400,
            body: {
              object: "error",
              message: "This model's maximum context length is 2048 tokens. However, you requested 2100 tokens.",
              type: "BadRequestError",
              code: 400,
            },
          },
    );
    const policy = policyFor(server);
    await expect(policy.act(hello, context())).rejects.toThrow(/failed after 1 attempt: 401/);
    const error = await policy.act(hello, context()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextLengthError);
    expect((error as Error).message).toMatch(/maximum context length is 2048/);
    expect(server.requests).toHaveLength(2);
  });

  it("makes a 200 answer of the wrong shape a policy error naming the fault, at once, never cached or scored", async () => {
    let reply: FakeReply = { kind: "json", body: completion([]) };
    const server = await serve(() => reply);
    const cacheDir = join(dir, "cache-malformed");
    const policy = policyFor(server, { cache: true, cacheDir, retries: 3 });
    for (const malformed of MALFORMED_REPLIES) {
      reply = malformed.reply;
      const before = server.requests.length;
      const error = await policy.act(hello, context()).catch((caught: unknown) => caught);
      expect(error, malformed.name).toBeInstanceOf(MalformedResponseError);
      expect(error, malformed.name).toBeInstanceOf(RequestFailedError);
      expect((error as Error).message, malformed.name).toMatch(
        new RegExp(`^the server at ${server.url.replace(/[.]/g, "\\.")} answered 200 `),
      );
      expect((error as Error).message, malformed.name).toMatch(malformed.message);
      expect((error as Error).message, malformed.name).not.toContain("\n");
      // Not retried: asking a broken gateway again does not mend it.
      expect(server.requests.length - before, malformed.name).toBe(1);
    }
    expect(policy.stats().transport).toMatchObject({
      requests: MALFORMED_REPLIES.length,
      retries: 0,
      failures: MALFORMED_REPLIES.length,
    });
    expect(cacheSummary(cacheDir)).toEqual([]);
    // In an episode: stopReason "error" with the message, no turn scored.
    reply = MALFORMED_REPLIES[0]?.reply ?? reply;
    const env = sokoban();
    const budget: Budget = { turns: 2, mode: "announced", scope: "episode", label: "2" };
    const episode = await runEpisode(env, policyFor(server), {
      run: "r",
      task: env.tasks.generate(1),
      taskId: "t",
      taskIndex: 0,
      budget,
      sample: 0,
      seed: 3,
    });
    expect(episode.stopReason).toBe("error");
    expect(episode.error).toMatch(/answered 200 without a "choices" list$/);
    expect(episode.turns).toEqual([]);
    // A block of n choices with one missing is the server's fault too.
    reply = { kind: "json", body: completion([{ content: "a" }, { content: "b" }]) };
    await expect(policyFor(server, {}, { n: "3" }).act(hello, context())).rejects.toThrow(
      /answered 200 without a choice of index 2 \(3 asked for, 2 given\)$/,
    );
  });

  it("keeps what the model wrote inside a chat completion an observation: empty, null, unknown tools, bad JSON", async () => {
    const server = await serve(() => ({
      kind: "json",
      body: completion([{ content: null, toolCalls: [{ name: "no_such_tool", arguments: "{oops" }] }]),
    }));
    const env = sokoban();
    const budget: Budget = { turns: 2, mode: "announced", scope: "episode", label: "2" };
    const episode = await runEpisode(env, policyFor(server), {
      run: "r",
      task: env.tasks.generate(1),
      taskId: "t",
      taskIndex: 0,
      budget,
      sample: 0,
      seed: 3,
    });
    expect(episode.stopReason).toBe("max_turns");
    expect(episode.turns.map((turn) => [turn.action.content, turn.invalid])).toEqual([
      ["", true],
      ["", true],
    ]);
    expect(server.requests[0]?.body).not.toHaveProperty("tools");
    expect((server.requests[0]?.body["messages"] as Message[])[0]?.role).toBe("system");
  });

  it("sends the API key from the named environment variable, and refuses an unset one before any request", async () => {
    const server = await serve(() => ({ kind: "json", body: completion([{ content: "ok" }]) }));
    process.env["BUDGETRL_TEST_KEY"] = "sk-test-secret";
    try {
      await policyFor(server, { apiKeyEnv: "BUDGETRL_TEST_KEY" }).act(hello, context());
      expect(server.requests[0]?.headers["authorization"]).toBe("Bearer sk-test-secret");
    } finally {
      delete process.env["BUDGETRL_TEST_KEY"];
    }
    expect(() => policyFor(server, { apiKeyEnv: "BUDGETRL_TEST_KEY" })).toThrow(
      /openai.apiKeyEnv: the environment variable BUDGETRL_TEST_KEY is not set/,
    );
    expect(() => policyFor(server, { baseUrl: "not a url" })).toThrow(/openai.baseUrl: expected a URL/);
    expect(() => openaiPolicyFromSpec("", {})).toThrow(/openai needs a model name/);
  });
});
