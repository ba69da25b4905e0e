// The Tinker client against the stand-in server (built from the SDK 0.25.0's types) and small loopback servers:
// the client config read first with the SDK's version, the JWT exchange and its refresh, futures polled until done
// (hosted try_again and SkyRL's 408), a 400 from retrieve_future polled again at most 3 times, a bare 400 retried
// (a proxy's) and a 400 with a message not, a 402 pausing the run with a message until the config's limit, faults
// retried with the SDK's backoff until the SDK's deadline (a 3-minute outage of injected time gone through, a longer
// one given up on at the deadline), the outage said a few times (not per wait), one idempotency key per request kept across its
// retries, a User-Agent naming budgetrl (an injected sleep and clock: no test waits on a timer), an expired future
// resubmitted with the same seq_id, a model's requests run in seq_id order, num_samples and prompt_logprobs, session
// messages shown, the API key never shown.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTinkerClient,
  TinkerRequestError,
  type TinkerClientOptions,
  type TinkerNotice,
} from "../../src/tinker/client.js";
import { createModel } from "../../src/nn/model.js";
import * as api from "../../src/tinker/operations.js";
import { encodeForwardBackwardRequest, PROTOBUF_CONTENT_TYPE } from "../../src/tinker/proto.js";
import { modelInput } from "../../src/tinker/wire.js";
import { startStandin, type Standin, type StandinFault, type StandinOptions } from "./standin-server.js";

const faults = new Map<string, (index: number) => StandinFault | undefined>();
const baseModels = {
  tiny: { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 32 }, seed: 3 },
};
const adam = { learning_rate: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0.1, grad_clip_norm: 1 };
let clock = 1_800_000_000_000;
let standin: Standin;
let pendingStandin: Standin;
const opened: Standin[] = [];

beforeAll(async () => {
  standin = await startStandin({ baseModels, apiKey: "tml-secret", fault: (path, index) => faults.get(path)?.(index) });
  pendingStandin = await startStandin({ baseModels, pending: "408", failure: "400", holdMs: 0 });
});

afterAll(async () => {
  await Promise.all([standin, pendingStandin, ...opened].map((server) => server.close()));
});

async function open(options: Omit<StandinOptions, "baseModels">): Promise<Standin> {
  const server = await startStandin({ baseModels, ...options });
  opened.push(server);
  return server;
}

function client(options: Partial<TinkerClientOptions> = {}) {
  const waits: number[] = [];
  const notices: TinkerNotice[] = [];
  const sleep = async (ms: number): Promise<void> => {
    waits.push(ms);
    clock += ms;
  };
  const made = createTinkerClient({
    baseUrl: standin.url,
    apiKey: "tml-secret",
    sleep,
    now: () => clock,
    onNotice: (notice) => notices.push(notice),
    ...options,
  });
  return { client: made, waits, notices };
}

async function newModel(target = client().client): Promise<string> {
  const sessionId = await api.createSession(target, ["test"]);
  return api.createModel(target, { sessionId, modelSeqId: 0, baseModel: "tiny", loraRank: 4, seed: 1 });
}

const scoring = (tokens: number[]) => ({
  data: [
    {
      model_input: modelInput(tokens.slice(0, -1)),
      loss_fn_inputs: {
        target_tokens: { data: tokens.slice(1), dtype: "int64" as const, shape: [tokens.length - 1] },
        weights: { data: tokens.slice(1).map(() => 0), dtype: "float32" as const, shape: [tokens.length - 1] },
      },
    },
  ],
  loss_fn: "cross_entropy" as const,
});

describe("tinker client", () => {
  it("reads the client config first, sends the API key as X-API-Key, and a wrong key fails at once without showing it", async () => {
    const before = standin.requests.length;
    await newModel();
    expect(
      standin.requests
        .slice(before)
        .map((request) => request.path)
        .slice(0, 2),
    ).toEqual(["/api/v1/client/config", "/api/v1/create_session"]);
    expect(JSON.parse(standin.requests[before]?.raw.toString() ?? "")).toEqual({ sdk_version: "0.25.0" });
    expect(standin.requests[before + 1]?.body.sdk_version).toBe("0.25.0");
    expect(standin.requests[before]?.headers["user-agent"]).toMatch(
      /^budgetrl\/0\.1\.0 \(tinker-sdk 0\.25\.0; node\/\d+/,
    );
    expect(standin.requests.at(-1)?.headers["x-api-key"]).toBe("tml-secret");
    const { client: wrong, waits } = client({ apiKey: "tml-wrong" });
    const error = (await api.createSession(wrong, []).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(TinkerRequestError);
    expect(error.message).toMatch(/client\/config answered 401: invalid API key/);
    expect(error.message).not.toContain("tml-wrong");
    expect(waits).toEqual([]);
  });

  it("exchanges the key for a JWT when the config says so, sends the JWT, and fetches a new one before it expires", async () => {
    const jwtServer = await open({
      apiKey: "tml-secret",
      clientConfig: { pjwt_auth_enabled: true },
      jwtTtlSeconds: 600,
      now: () => clock,
    });
    const { client: target } = client({ baseUrl: jwtServer.url });
    const modelId = await newModel(target);
    const paths = jwtServer.requests.map((request) => request.path);
    expect(paths.slice(0, 3)).toEqual(["/api/v1/client/config", "/api/v1/auth/token", "/api/v1/create_session"]);
    const jwt = jwtServer.requests[2]?.headers["x-api-key"] as string;
    expect(jwt).toMatch(/^eyJ[\w-]+\.[\w-]+\.\w+$/);
    expect(jwtServer.requests.slice(0, 2).every((request) => request.headers["x-api-key"] === "tml-secret")).toBe(true);
    expect(jwtServer.requests.slice(2).every((request) => request.headers["x-api-key"] === jwt)).toBe(true);
    // 541 s later the JWT has 59 s left: the next request fetches a new one first.
    clock += 541_000;
    await api.optimStep(target, modelId, 1, adam);
    const after = jwtServer.requests.slice(paths.length).map((request) => request.path);
    expect(after[0]).toBe("/api/v1/auth/token");
    expect(jwtServer.requests.at(-1)?.headers["x-api-key"]).not.toBe(jwt);
    // The server takes only a live JWT: the raw key is refused.
    const raw = await fetch(`${jwtServer.url}/api/v1/create_session`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "tml-secret" },
      body: JSON.stringify({ tags: [], user_metadata: {}, sdk_version: "x", type: "create_session" }),
    });
    expect(raw.status).toBe(401);
    // A client without a key cannot exchange one.
    const open_ = await open({ clientConfig: { pjwt_auth_enabled: true } });
    await expect(api.createSession(client({ baseUrl: open_.url, apiKey: undefined }).client, [])).rejects.toThrow(
      /pjwt_auth_enabled[\s\S]*TINKER_API_KEY/,
    );
  });

  it("shows create_session's info, warning and error messages", async () => {
    const server = await open({
      sessionMessages: {
        info_message: "welcome",
        warning_message: "your quota is nearly used",
        error_message: "a model is being retired",
      },
    });
    const { client: target, notices } = client({ baseUrl: server.url, apiKey: undefined });
    await api.createSession(target, []);
    expect(notices).toEqual([
      { level: "info", message: "tinker server: welcome" },
      { level: "warning", message: "tinker server: your quota is nearly used" },
      { level: "error", message: "tinker server: a model is being retired" },
    ]);
  });

  it("retries 503, 429 (after its retry-after-ms) and dropped connections, then answers", async () => {
    await newModel();
    const planned: StandinFault[] = [{ status: 503 }, { status: 429, headers: { "retry-after-ms": "1234" } }, "drop"];
    faults.set("/api/v1/create_session", () => planned.shift());
    const retries: string[] = [];
    const { client: target, waits } = client({
      backoffMs: 100,
      maxBackoffMs: 10_000,
      onRetry: (event) => retries.push(event.reason),
    });
    expect(await api.createSession(target, [])).toMatch(/^session_/);
    faults.delete("/api/v1/create_session");
    expect(retries).toHaveLength(3);
    expect(retries[0]).toMatch(/503/);
    expect(waits[1]).toBe(1234);
    // The SDK's backoff: 100 ms doubled, less up to a quarter: attempt 0 in [75, 100], attempt 2 in [300, 400].
    expect(waits[0]).toBeGreaterThanOrEqual(75);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[2]).toBeGreaterThanOrEqual(300);
    expect(waits[2]).toBeLessThanOrEqual(400);
    expect(target.stats().retries).toBe(3);
  });

  it("goes through a 3-minute outage of 503s (injected time) with the SDK's waits, saying it a few times, not per wait", async () => {
    const { client: target, waits, notices } = client();
    const modelId = await newModel(target);
    const start = clock;
    // Every request fails while the injected clock is within 3 minutes of the first fault, polls included.
    for (const path of ["/api/v1/optim_step", "/api/v1/retrieve_future"])
      faults.set(path, () =>
        clock < start + 180_000 ? { status: 503, body: { detail: "upstream unavailable" } } : undefined,
      );
    expect(await api.optimStep(target, modelId, 1, adam)).toHaveProperty("grad_norm");
    faults.delete("/api/v1/optim_step");
    faults.delete("/api/v1/retrieve_future");
    expect(clock - start).toBeGreaterThanOrEqual(180_000);
    // 0.5 s doubled up to 30 s, less up to a quarter: at most a few dozen attempts for 3 minutes.
    expect(waits.length).toBeGreaterThan(8);
    expect(waits.length).toBeLessThan(30);
    expect(Math.max(...waits)).toBeLessThanOrEqual(30_000);
    expect(target.stats().waitedMs).toBeGreaterThanOrEqual(180_000);
    // Per endpoint: one line as it starts, one a minute while it lasts, one as it ends; not one per wait.
    const said = notices.map((notice) => notice.message);
    expect(said[0]).toMatch(/^tinker: .*answered 503: upstream unavailable; retrying \(a request gives up after 5 min/);
    const minutely = said.filter((line) => /^tinker: still failing after \d min/.test(line)).length;
    expect(minutely).toBeGreaterThanOrEqual(1);
    expect(minutely).toBeLessThanOrEqual(4);
    expect(said.some((line) => /^tinker: \/api\/v1\/\w+ answers again \(after \d min/.test(line))).toBe(true);
    expect(said.length).toBeLessThanOrEqual(8);
    expect(standin.model(modelId).optimizerState().step).toBe(1);
  });

  it("gives up at the deadline, the last wait cut to end there, with the last reason", async () => {
    faults.set("/api/v1/create_session", () => ({ status: 500, body: { detail: "boom" } }));
    const { client: target, waits } = client({ deadlineMs: 10_000, backoffMs: 1000 });
    await expect(api.createSession(target, [])).rejects.toThrow(
      /answered 500: boom; still failing 10 s after the first fault \(\d+ attempts\), past the client's deadline of 10 s/,
    );
    faults.delete("/api/v1/create_session");
    // The injected clock is at 1.8e12 ms: its sums round in the fourth decimal.
    expect(Math.abs(waits.reduce((sum, wait) => sum + wait, 0) - 10_000)).toBeLessThan(0.01);
    // A deadline of 0: no retry at all.
    faults.set("/api/v1/create_session", () => ({ status: 503 }));
    const once = client({ deadlineMs: 0 });
    await expect(api.createSession(once.client, [])).rejects.toThrow(/past the client's deadline of 0 ms/);
    faults.delete("/api/v1/create_session");
    expect(once.waits).toEqual([]);
  });

  it("sends one X-Idempotency-Key per request, the same on its retries, and none on a GET", async () => {
    const { client: target } = client({
      idempotencyKey: (() => {
        let n = 0;
        return () => `key-${++n}`;
      })(),
    });
    await newModel(target);
    const before = standin.requests.length;
    const planned: StandinFault[] = [{ status: 503 }, "drop"];
    faults.set("/api/v1/create_session", () => planned.shift());
    await api.createSession(target, []);
    faults.delete("/api/v1/create_session");
    await api.serverModels(target);
    const sent = standin.requests.slice(before);
    const sessions = sent.filter((request) => request.path === "/api/v1/create_session");
    expect(sessions).toHaveLength(3);
    expect(new Set(sessions.map((request) => request.headers["x-idempotency-key"])).size).toBe(1);
    expect(sessions[0]?.headers["x-idempotency-key"]).toMatch(/^key-\d+$/);
    expect(
      sent.find((request) => request.path === "/api/v1/get_server_capabilities")?.headers["x-idempotency-key"],
    ).toBeUndefined();
    // Without the option: budgetrl-retry- and a UUID.
    const plain = client();
    await api.createSession(plain.client, []);
    expect(standin.requests.at(-1)?.headers["x-idempotency-key"]).toMatch(/^budgetrl-retry-[0-9a-f-]{36}$/);
  });

  it("retries a bare 400 at submission (a proxy's, as the SDK does), but not a 400 with the server's message", async () => {
    const { client: target } = client();
    await newModel(target);
    let bare = 2;
    faults.set("/api/v1/create_session", () => (bare > 0 ? (bare--, { status: 400, body: "" }) : undefined));
    expect(await api.createSession(target, [])).toMatch(/^session_/);
    expect(bare).toBe(0);
    faults.set("/api/v1/create_session", () => ({ status: 400, body: "" }));
    const patient = client({ backoffMs: 1, maxBackoffMs: 1 });
    await expect(api.createSession(patient.client, [])).rejects.toThrow(
      /create_session answered 400 with an empty body \(16 such answers without a success\)/,
    );
    faults.set("/api/v1/create_session", () => ({ status: 400, body: { detail: "tags must be strings" } }));
    const { client: fresh, waits } = client();
    await expect(api.createSession(fresh, [])).rejects.toThrow(/answered 400: tags must be strings/);
    expect(patient.waits).toHaveLength(16);
    expect(waits).toEqual([]);
    faults.delete("/api/v1/create_session");
  });

  it("polls again after a 400 from retrieve_future (a proxy's), at most 3 times in a row", async () => {
    const { client: target } = client();
    const modelId = await newModel(target);
    let injected = 0;
    faults.set("/api/v1/retrieve_future", () =>
      injected < 3 ? (injected++, { status: 400, body: { detail: "Bad Request" } }) : undefined,
    );
    expect(await api.optimStep(target, modelId, 1, adam)).toHaveProperty("grad_norm");
    expect(injected).toBe(3);
    faults.set("/api/v1/retrieve_future", () => ({ status: 400, body: { detail: "Bad Request" } }));
    await expect(api.optimStep(target, modelId, 2, adam)).rejects.toThrow(
      /retrieve_future answered 400: Bad Request \(still after 3 more polls\)/,
    );
    faults.delete("/api/v1/retrieve_future");
  });

  it("pauses on 402 with a message, goes on when the server does, and gives up after the config's limit", async () => {
    const { client: target, waits, notices } = client();
    await newModel(target);
    let injected = 0;
    faults.set("/api/v1/create_session", () =>
      injected < 3 ? (injected++, { status: 402, body: { detail: "billing: payment required" } }) : undefined,
    );
    expect(await api.createSession(target, [])).toMatch(/^session_/);
    expect(waits).toEqual([5000, 5000, 5000]);
    expect(target.stats().pauses).toBe(3);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toMatch(/paused because of its billing status .*402: billing: payment required/);
    // A server whose config allows 12 s of pause: the fourth 402 in a row (15 s in) stops the run.
    const strict = await open({
      clientConfig: { billing_exception_max_pause_duration_sec: 12 },
      fault: (path) => (path === "/api/v1/create_session" ? { status: 402 } : undefined),
    });
    const limited = client({ baseUrl: strict.url, apiKey: undefined });
    await expect(api.createSession(limited.client, [])).rejects.toThrow(
      /paused for billing for 15 s, longer than the server allows \(12 s\)/,
    );
    expect(limited.waits).toEqual([5000, 5000, 5000]);
    faults.delete("/api/v1/create_session");
  });

  it("polls a pending future with doubling waits (SkyRL's 408), and reads a failure from its 400 after the polls again", async () => {
    const { client: target, waits } = client({
      baseUrl: pendingStandin.url,
      apiKey: undefined,
      pollMs: 10,
      maxPollMs: 40,
    });
    const modelId = await newModel(target);
    const optim = api.optimStep(target, modelId, 1, { ...adam, beta1: 0.5 });
    await expect(optim).rejects.toThrow(
      /adam_params.beta1 = 0.5: the stand-in applies its model's AdamW .*still after 3 more polls/,
    );
    expect(target.stats().polls).toBeGreaterThanOrEqual(5);
    expect(waits.every((wait, i) => wait === Math.min(40, 10 * 2 ** i) || wait === 10)).toBe(true);
  });

  it("reads a refusal at submission and a hosted-style failure body ({error, category}) as a failed request", async () => {
    const { client: target } = client();
    const modelId = await newModel(target);
    await expect(api.forwardBackward(target, modelId, 1, { data: [], loss_fn: "cross_entropy" }, true)).rejects.toThrow(
      /forward_backward answered 400: data must be a non-empty list/,
    );
    const bad = api.optimStep(target, modelId, 2, { ...adam, beta2: 0.5 });
    await expect(bad).rejects.toThrow(/failed: adam_params.beta2 = 0.5: .* \(user error\)/);
  });

  it("resubmits a request whose future expired (410), with the same seq_id, applied once", async () => {
    const { client: target } = client();
    const modelId = await newModel(target);
    const steps = standin.requests.filter((request) => request.path === "/api/v1/optim_step").length;
    let expired = false;
    faults.set("/api/v1/retrieve_future", () => (expired ? undefined : ((expired = true), { status: 410 })));
    const metrics = await api.optimStep(target, modelId, 1, adam);
    faults.delete("/api/v1/retrieve_future");
    const sent = standin.requests.filter((request) => request.path === "/api/v1/optim_step").slice(steps);
    expect(sent.map((request) => request.body.seq_id)).toEqual([1, 1]);
    // Sent again as a new request: a new idempotency key (the old one's future is gone).
    expect(sent[0]?.headers["x-idempotency-key"]).not.toBe(sent[1]?.headers["x-idempotency-key"]);
    expect(metrics).toHaveProperty("grad_norm");
    expect(standin.model(modelId).optimizerState().step).toBe(1);
  });

  it("has a model's requests run in seq_id order, whatever order they are sent in", async () => {
    const { client: target } = client();
    const modelId = await newModel(target);
    // seq_id 3 arrives first (sent by hand, the SDK's protobuf body): it waits for 1 and 2.
    const headers = { "content-type": PROTOBUF_CONTENT_TYPE, "x-api-key": "tml-secret" };
    const early = await fetch(`${standin.url}/api/v1/forward_backward`, {
      method: "POST",
      headers,
      body: encodeForwardBackwardRequest(modelId, 3, scoring([1, 2, 3, 4]), true),
    });
    const { request_id: requestId } = (await early.json()) as { request_id: string };
    expect(standin.ran(modelId)).toEqual([]);
    await api.forwardBackward(target, modelId, 1, scoring([5, 6, 7]), false);
    await api.optimStep(target, modelId, 2, adam);
    const result = await fetch(`${standin.url}/api/v1/retrieve_future`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "tml-secret" },
      body: JSON.stringify({ request_id: requestId }),
    });
    expect(result.status).toBe(200);
    expect(standin.ran(modelId)).toEqual([
      [1, "forward_backward"],
      [2, "optim_step"],
      [3, "forward_backward"],
    ]);
  });

  it("samples num_samples sequences in one request, and the prompt's log-probs with prompt_logprobs", async () => {
    const { client: target } = client();
    const sessionId = await api.createSession(target, []);
    const samplingSessionId = await api.createSamplingSession(target, sessionId, 0, { baseModel: "tiny" });
    const before = standin.requests.filter((request) => request.path === "/api/v1/asample").length;
    const params = { max_tokens: 4, seed: 9, stop: [], temperature: 1, top_k: -1, top_p: 1 };
    const output = await api.sample(target, {
      samplingSessionId,
      seqId: 0,
      prompt: modelInput([1, 2, 3]),
      params,
      numSamples: 3,
    });
    expect(output.sequences).toHaveLength(3);
    expect(new Set(output.sequences.map((sequence) => sequence.tokens.join(","))).size).toBeGreaterThan(1);
    expect(standin.requests.filter((request) => request.path === "/api/v1/asample").length - before).toBe(1);
    const scored = await api.sample(target, {
      samplingSessionId,
      seqId: 1,
      prompt: modelInput([1, 2, 3, 4]),
      params: { ...params, max_tokens: 1 },
      promptLogprobs: true,
    });
    expect(scored.prompt_logprobs?.[0]).toBeNull();
    const reference = await createModel({ config: baseModels.tiny.config, seed: 3 });
    const expected = (await reference.logprobs([[1, 2, 3, 4]]))[0] as Float32Array;
    reference.dispose();
    expect(scored.prompt_logprobs?.slice(1)).toEqual(Array.from(expected));
  });

  it("refuses a body that is not the API's, naming the field", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ sessionId: "x" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      // This server answers every path, client/config included, with {"sessionId": "x"}: the SDK's defaults.
      const target = createTinkerClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`,
      });
      await expect(api.createSession(target, [])).rejects.toThrow(
        /create_session answered something else than the Tinker API describes: session_id/,
      );
      expect(await target.config()).toMatchObject({ pjwt_auth_enabled: false, proto_compress_fwdbwd: false });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
