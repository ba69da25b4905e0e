// The Tinker client against loopback servers: futures polled until done (hosted try_again and SkyRL's 408),
// failures reported with the server's message, faults retried with bounded, recorded waits (an injected sleep:
// no test waits on a timer), an expired future resubmitted with the same seq_id, the API key sent and never
// shown.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinkerClient, TinkerRequestError, type TinkerClientOptions } from "../../../src/rl/tinker/client.js";
import * as api from "../../../src/rl/tinker/operations.js";
import { startStandin, type Standin, type StandinFault } from "./standin-server.js";

const faults = new Map<string, (index: number) => StandinFault | undefined>();
let standin: Standin;
let pendingStandin: Standin;

beforeAll(async () => {
  const baseModels = { tiny: { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 32 }, seed: 3 } };
  standin = await startStandin({ baseModels, apiKey: "tml-secret", fault: (path, index) => faults.get(path)?.(index) });
  pendingStandin = await startStandin({ baseModels, pending: "408", failure: "400", holdMs: 0 });
});

afterAll(async () => {
  await standin.close();
  await pendingStandin.close();
});

function client(options: Partial<TinkerClientOptions> = {}) {
  const waits: number[] = [];
  const made = createTinkerClient({ baseUrl: standin.url, apiKey: "tml-secret", sleep: async (ms) => void waits.push(ms), ...options });
  return { client: made, waits };
}

async function newModel(target = client().client): Promise<string> {
  const sessionId = await api.createSession(target, ["test"]);
  return api.createModel(target, { sessionId, modelSeqId: 0, baseModel: "tiny", loraRank: 4, seed: 1 });
}

describe("tinker client", () => {
  it("sends the API key as X-API-Key, and a wrong key fails at once without showing it", async () => {
    await newModel();
    expect(standin.requests.at(-1)?.headers["x-api-key"]).toBe("tml-secret");
    const { client: wrong, waits } = client({ apiKey: "tml-wrong" });
    const error = (await api.createSession(wrong, []).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(TinkerRequestError);
    expect(error.message).toMatch(/create_session answered 401: invalid API key/);
    expect(error.message).not.toContain("tml-wrong");
    expect(waits).toEqual([]);
  });

  it("retries 503, 429 (after its retry-after-ms) and dropped connections, then answers", async () => {
    const planned: StandinFault[] = [{ status: 503 }, { status: 429, headers: { "retry-after-ms": "1234" } }, "drop"];
    faults.set("/api/v1/create_session", () => planned.shift());
    const retries: string[] = [];
    const { client: target, waits } = client({ backoffMs: 100, maxBackoffMs: 10_000, onRetry: (event) => retries.push(event.reason) });
    expect(await api.createSession(target, [])).toMatch(/^session_/);
    faults.delete("/api/v1/create_session");
    expect(retries).toHaveLength(3);
    expect(retries[0]).toMatch(/503/);
    expect(waits[1]).toBe(1234);
    // Exponential backoff with equal jitter: attempt 0 in [50, 100], attempt 2 in [200, 400].
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[2]).toBeGreaterThanOrEqual(200);
    expect(waits[2]).toBeLessThanOrEqual(400);
    expect(target.stats().retries).toBe(3);
  });

  it("gives up after --retries with the last reason", async () => {
    faults.set("/api/v1/create_session", () => ({ status: 500, body: { detail: "boom" } }));
    const { client: target, waits } = client({ retries: 2 });
    await expect(api.createSession(target, [])).rejects.toThrow(/failed after 3 attempts: \/api\/v1\/create_session answered 500: boom/);
    faults.delete("/api/v1/create_session");
    expect(waits).toHaveLength(2);
  });

  it("polls a pending future with doubling waits (SkyRL's 408), and reads a failure from its 400", async () => {
    const { client: target, waits } = client({ baseUrl: pendingStandin.url, apiKey: undefined, pollMs: 10, maxPollMs: 40 });
    const modelId = await newModel(target);
    // A forward_backward the stand-in refuses while it runs: the failure comes back through retrieve_future.
    const optim = api.optimStep(target, modelId, 1, { learning_rate: 1e-3, beta1: 0.5, beta2: 0.95, eps: 1e-8, weight_decay: 0.1, grad_clip_norm: 1 });
    await expect(optim).rejects.toThrow(/adam_params.beta1 = 0.5: the stand-in applies its model's AdamW/);
    expect(target.stats().polls).toBeGreaterThanOrEqual(2);
    expect(waits.every((wait, i) => wait === Math.min(40, 10 * 2 ** i) || wait === 10)).toBe(true);
  });

  it("reads a hosted-style failure body ({error, category}) as a failed request", async () => {
    const { client: target } = client();
    const modelId = await newModel(target);
    await expect(api.forward(target, modelId, 1, { data: [], loss_fn: "cross_entropy" })).rejects.toThrow(/forward answered 400: data must be a non-empty list/);
    const bad = api.optimStep(target, modelId, 2, { learning_rate: 1e-3, beta1: 0.9, beta2: 0.5, eps: 1e-8, weight_decay: 0.1, grad_clip_norm: 1 });
    await expect(bad).rejects.toThrow(/failed: adam_params.beta2 = 0.5: .* \(user error\)/);
  });

  it("resubmits a request whose future expired (410), with the same seq_id, applied once", async () => {
    const { client: target } = client();
    const modelId = await newModel(target);
    const steps = standin.requests.filter((request) => request.path === "/api/v1/optim_step").length;
    let expired = false;
    faults.set("/api/v1/retrieve_future", () => (expired ? undefined : ((expired = true), { status: 410 })));
    const metrics = await api.optimStep(target, modelId, 7, { learning_rate: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0.1, grad_clip_norm: 1 });
    faults.delete("/api/v1/retrieve_future");
    const sent = standin.requests.filter((request) => request.path === "/api/v1/optim_step").slice(steps);
    expect(sent.map((request) => request.body.seq_id)).toEqual([7, 7]);
    expect(metrics).toHaveProperty("grad_norm");
    expect(standin.model(modelId).optimizerState().step).toBe(1);
  });

  it("refuses a body that is not the API's, naming the field", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ sessionId: "x" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const target = createTinkerClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/` });
      await expect(api.createSession(target, [])).rejects.toThrow(/create_session answered something else than the Tinker API describes: session_id/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
