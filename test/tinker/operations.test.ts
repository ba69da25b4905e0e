// The JSON bodies of the endpoints, against the SDK's own: every body the client sends (through its real HTTP side, to a
// loopback server that records them and answers each endpoint the simplest way) equals, JSON-canonically, the body the
// SDK 0.25.0 dumps from its request type for the same call (sdk-fixtures.ts: model_dump(exclude_unset=False,
// exclude_none=True), defaults included), in the order the SDK fixtures list them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/core/json.js";
import { createTinkerClient } from "../../src/tinker/client.js";
import * as api from "../../src/tinker/operations.js";
import { modelInput } from "../../src/tinker/wire.js";
import { SDK_FIXTURES } from "./sdk-fixtures.js";

const recorded: { path: string; body: unknown }[] = [];
let server: Server;
let url: string;
let submitted = "";

/** The result of the last submitted request, for retrieve_future. */
function result(): unknown {
  const body = recorded.findLast((entry) => entry.path === submitted)?.body as Record<string, unknown> | undefined;
  switch (submitted) {
    case "/api/v1/create_model":
      return { model_id: "model_1" };
    case "/api/v1/optim_step":
      return { metrics: {} };
    case "/api/v1/save_weights":
      return { path: "tinker://model_1/weights/x" };
    case "/api/v1/save_weights_for_sampler":
      return typeof body?.path === "string"
        ? { path: "tinker://model_1/sampler_weights/x" }
        : { sampling_session_id: "s" };
    case "/api/v1/asample":
      return {
        sequences: Array.from({ length: Number(body?.num_samples ?? 1) }, () => ({
          tokens: [1],
          logprobs: [-1],
          stop_reason: "stop",
        })),
        prompt_logprobs: [null, -1, -1],
      };
    default:
      return {};
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as unknown;
      recorded.push({ path, body });
      let answer: unknown = {};
      if (path === "/api/v1/create_session") answer = { session_id: "session_1" };
      else if (path === "/api/v1/create_sampling_session") answer = { sampling_session_id: "sampling_1" };
      else if (path === "/api/v1/retrieve_future") answer = result();
      else if (!["/api/v1/client/config", "/api/v1/session_heartbeat"].includes(path)) {
        submitted = path;
        answer = { request_id: "request_9" };
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("tinker operations", () => {
  it(`send the JSON bodies the SDK ${SDK_FIXTURES.sdk.version} sends`, async () => {
    const client = createTinkerClient({ baseUrl: url });
    const adam = { learning_rate: 0.001, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0.1, grad_clip_norm: 1 };
    const params = { max_tokens: 16, seed: 42, stop: [0], temperature: 1, top_k: -1, top_p: 1 };
    await api.createSession(client, ["budgetrl"]);
    await api.heartbeat(client, "session_1");
    await api.createModel(client, {
      sessionId: "session_1",
      modelSeqId: 0,
      baseModel: "Qwen/Qwen3-4B",
      loraRank: 32,
      seed: 7,
    });
    await api.optimStep(client, "model_1", 5, adam);
    await api.saveWeights(client, "model_1", 6, "budgetrl-step-10");
    await api.loadWeights(client, "model_1", 1, "tinker://model_0/weights/budgetrl-step-10");
    await api.saveSamplerWeights(client, "model_1", 7, "budgetrl-step-10-sampler");
    await api.samplerForCurrentWeights(client, "model_1", 8, 2);
    await api.createSamplingSession(client, "session_1", 0, { baseModel: "Qwen/Qwen3-4B" });
    await api.createSamplingSession(client, "session_1", 1, { modelPath: "tinker://model_1/sampler_weights/x" });
    const prompt = modelInput([1, 2, 3]);
    await api.sample(client, { samplingSessionId: "sampling_1", seqId: 4, prompt, params, numSamples: 2 });
    await api.sample(client, {
      samplingSessionId: "sampling_1",
      seqId: 5,
      prompt,
      params: { max_tokens: 1, seed: 0, stop: [], temperature: 1, top_k: -1, top_p: 1 },
      promptLogprobs: true,
    });
    await api.unloadModel(client, "model_1");
    // One body per fixture, matched in order per endpoint; retrieve_future's own body is the same every poll.
    const byPath = new Map<string, unknown[]>();
    for (const entry of recorded) byPath.set(entry.path, [...(byPath.get(entry.path) ?? []), entry.body]);
    const taken = new Map<string, number>();
    for (const fixture of SDK_FIXTURES.json_requests) {
      const index = taken.get(fixture.path) ?? 0;
      taken.set(fixture.path, index + 1);
      const sent =
        fixture.path === "/api/v1/retrieve_future"
          ? { ...(byPath.get(fixture.path)?.[0] as object), request_id: "request_9" }
          : byPath.get(fixture.path)?.[index];
      expect(canonicalJson(sent), `${fixture.path} #${index + 1}`).toBe(canonicalJson(fixture.body));
    }
  });
});
