// The Tinker client's patience and manners as the SDK 0.25.0 has them, against the stand-in (injected sleep and
// clock: minutes of outage in no time): an accepted future polled through an outage longer than the request deadline
// (the SDK never abandons one); sampling as patient as the SDK's 2 hours without progress, and a 429 to a sampling
// submission (backpressure) waited out without counting toward a deadline; the SDK's version header, X-Tinker-Request-Type and
// X-Tinker-Request-Iteration on polls, X-Tinker-Sampling-Backpressure on sampling; x-should-retry obeyed both ways;
// an outage of many requests said a few times, not per request; and many requests on one stop signal print no
// MaxListenersExceededWarning.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinkerClient, type TinkerClientOptions, type TinkerNotice } from "../../src/tinker/client.js";
import * as api from "../../src/tinker/operations.js";
import { modelInput } from "../../src/tinker/wire.js";
import { startStandin, type Standin, type StandinFault } from "./standin-server.js";

const faults = new Map<string, (index: number) => StandinFault | undefined>();
const baseModels = {
  tiny: { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 32 }, seed: 3 },
};
const adam = { learning_rate: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0.1, grad_clip_norm: 1 };
const params = { max_tokens: 2, seed: 9, stop: [], temperature: 1, top_k: -1, top_p: 1 };
let clock = 1_900_000_000_000;
let standin: Standin;

beforeAll(async () => {
  standin = await startStandin({ baseModels, fault: (path, index) => faults.get(path)?.(index) });
});
afterAll(async () => {
  await standin.close();
});

function client(options: Partial<TinkerClientOptions> = {}) {
  const notices: TinkerNotice[] = [];
  const made = createTinkerClient({
    baseUrl: standin.url,
    sleep: async (ms) => void (clock += ms),
    now: () => clock,
    onNotice: (notice) => notices.push(notice),
    ...options,
  });
  return { client: made, notices };
}

/** Faults on `path` while the injected clock is within `ms` of now. */
function outage(path: string, ms: number, fault: StandinFault = { status: 503, body: { detail: "down" } }): void {
  const until = clock + ms;
  faults.set(path, () => (clock < until ? fault : undefined));
}

async function sampler(target: ReturnType<typeof client>["client"]): Promise<string> {
  const sessionId = await api.createSession(target, []);
  return api.createSamplingSession(target, sessionId, 0, { baseModel: "tiny" });
}

describe("tinker client patience", () => {
  it("polls an accepted future through 8 minutes of 5xx, past the 5-minute request deadline", async () => {
    const { client: target, notices } = client();
    const sessionId = await api.createSession(target, []);
    const modelId = await api.createModel(target, {
      sessionId,
      modelSeqId: 0,
      baseModel: "tiny",
      loraRank: 4,
      seed: 1,
    });
    outage("/api/v1/retrieve_future", 8 * 60_000);
    const start = clock;
    expect(await api.optimStep(target, modelId, 1, adam)).toHaveProperty("grad_norm");
    faults.delete("/api/v1/retrieve_future");
    expect(clock - start).toBeGreaterThanOrEqual(8 * 60_000);
    expect(notices[0]!.message).toMatch(/retrying \(a future is polled while the service keeps it\)/);
    // The polls said which request they wait for, numbered.
    const polls = standin.requests.filter((request) => request.path === "/api/v1/retrieve_future").slice(-3);
    for (const poll of polls) expect(poll.headers["x-tinker-request-type"]).toBe("OptimStep");
    const iterations = polls.map((poll) => Number(poll.headers["x-tinker-request-iteration"]));
    expect(iterations[2]! - iterations[1]!).toBe(1);
  });

  it("keeps sampling through 20 minutes of faults (the SDK's 2 hours), and gives up at a sampling deadline", async () => {
    const { client: target } = client();
    const samplingSessionId = await sampler(target);
    outage("/api/v1/asample", 20 * 60_000);
    const output = await api.sample(target, { samplingSessionId, seqId: 0, prompt: modelInput([1, 2]), params });
    expect(output.sequences).toHaveLength(1);
    const short = client({ samplingDeadlineMs: 60_000 });
    const shortSession = await sampler(short.client);
    outage("/api/v1/asample", 20 * 60_000);
    await expect(
      api.sample(short.client, { samplingSessionId: shortSession, seqId: 0, prompt: modelInput([1]), params }),
    ).rejects.toThrow(/past the client's deadline of 1 min/);
    faults.delete("/api/v1/asample");
  });

  it("waits out a sampling submission's 429 (backpressure) without a deadline, and says sampling's headers", async () => {
    const { client: target } = client({ deadlineMs: 1000, samplingDeadlineMs: 1000 });
    const samplingSessionId = await sampler(target);
    outage("/api/v1/asample", 2 * 60_000, { status: 429, body: { detail: "slow down" } });
    const before = standin.requests.length;
    await api.sample(target, { samplingSessionId, seqId: 0, prompt: modelInput([3]), params });
    faults.delete("/api/v1/asample");
    const sent = standin.requests.slice(before).filter((request) => request.path === "/api/v1/asample");
    expect(sent.length).toBeGreaterThan(100); // one a second for 2 minutes, far past the 1 s deadlines
    for (const request of sent) {
      expect(request.headers["x-tinker-sampling-backpressure"]).toBe("1");
      expect(request.headers["x-stainless-package-version"]).toBe("0.25.0");
    }
    expect(sent.map((request) => request.headers["x-stainless-retry-count"]).slice(0, 3)).toEqual(["0", "1", "2"]);
  });

  it("obeys x-should-retry: false stops a 503 at once, true retries a 400 with a message", async () => {
    const { client: target } = client();
    faults.set("/api/v1/create_session", () => ({ status: 503, headers: { "x-should-retry": "false" } }));
    await expect(api.createSession(target, [])).rejects.toThrow(/answered 503.*\(x-should-retry: false\)/);
    let calls = 0;
    faults.set("/api/v1/create_session", () =>
      calls++ < 2
        ? { status: 400, body: { detail: "try me again" }, headers: { "x-should-retry": "true" } }
        : undefined,
    );
    expect(await api.createSession(target, [])).toMatch(/^session_/);
    faults.delete("/api/v1/create_session");
    expect(calls).toBe(3);
  });

  it("says an outage of 24 requests at once a few times, and prints no listener warning on one stop signal", async () => {
    const controller = new AbortController();
    const { client: target, notices } = client({ signal: controller.signal });
    const samplingSessionId = await sampler(target);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      outage("/api/v1/retrieve_future", 2 * 60_000, "drop");
      const asked = Array.from({ length: 24 }, (_, seqId) =>
        api.sample(target, { samplingSessionId, seqId, prompt: modelInput([1, seqId % 7]), params }),
      );
      expect(await Promise.all(asked)).toHaveLength(24);
      faults.delete("/api/v1/retrieve_future");
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    // 2 minutes: one line as it starts, at most one a minute, one as it ends.
    expect(notices.length).toBeGreaterThanOrEqual(2);
    expect(notices.length).toBeLessThanOrEqual(4);
  });
});
