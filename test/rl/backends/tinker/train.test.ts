// The whole RL loop over real HTTP: `train` with the tinker backend against the loopback stand-in server
// (standin-server.ts: built from the Tinker SDK 0.25.0's types, backed by the in-process model), next to the
// in-process backend on the same seed and base model. The runs compared with the in-process one sample each
// episode alone (groupSampling false: the in-process policy's seeds); the others sample a group's first turn in
// one request (num_samples = group). What this proves: the client's requests (protobuf forward_backward,
// forward_only passes, the KL reference from the base model's prompt_logprobs), futures, data layout, loss
// scaling, Adam settings, sampler refresh after each step, checkpoint paths and resume, a 3-minute outage gone
// through (injected time), results without log-probs trained on; not that a hosted server accepts them (see
// docs/tinker.md).
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCheckpoint } from "../../../../src/nn/checkpoint.js";
import { runSft } from "../../../../src/rl/sft-run.js";
import { train } from "../../../../src/rl/train.js";
import { openStore } from "../../../../src/store/open.js";
import { readTrainSteps } from "../../../../src/store/train-log.js";
import { serveEnv } from "../../../../src/serve/openenv/serve-env.js";
import { startStandin, type Standin } from "../../../tinker/standin-server.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-tinker-train-"));
const modelConfig = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 };
const base = join(dir, "base");
const shared = {
  env: "hanoi",
  envOptions: { disks: 2, randomStart: true },
  steps: 3,
  tasksPerStep: 4,
  group: 4,
  evalEvery: 3,
  evalTasks: 4,
  evalSamples: 2,
  checkpointEvery: 1,
  maxNewTokens: 6,
  learningRate: 5e-4,
  budget: "budgetmix:50%,100%",
  epochs: 2,
  minibatches: 2,
};
/** A run's backend: the stand-in's base model over HTTP, or the in-process SFT base. */
const onTinker = (fields: Record<string, unknown> = {}) => ({
  backend: { kind: "tinker", baseModel: "hanoi-base", ...fields },
});
const inProcess = () => ({ backend: { kind: "tiny", init: base } });
let standin: Standin;

const modelIdOf = (out: string, step: number): string =>
  (
    JSON.parse(
      readFileSync(join(out, "checkpoints", `step-${String(step).padStart(6, "0")}`, "budgetrl.json"), "utf8"),
    ) as { modelId: string }
  ).modelId;

interface Logged {
  readonly reward: number;
  readonly loss: number;
  readonly clipFraction: number;
  readonly kl: number;
  readonly gradNorm: number;
  readonly zeroGradientGroups: number;
  readonly groups: number;
}

async function logged(out: string): Promise<Logged[]> {
  const store = await openStore(join(out, "train.db"));
  try {
    return (await readTrainSteps(store, "train")).map((row) => row.metrics as unknown as Logged);
  } finally {
    await store.close();
  }
}

/**
 * The step logs agree: rewards and clip fractions exactly, losses, KL and gradient norms to float rounding. The
 * in-process backend runs the last block and the head on the response rows only; the stand-in gets every position
 * (Tinker's datums carry weights, not a response mask), so the two sum the same terms in a different order.
 */
function expectSameSteps(remote: readonly Logged[], local: readonly Logged[]): void {
  expect(remote.length).toBe(local.length);
  remote.forEach((step, i) => {
    const other = local[i] as Logged;
    expect(step.reward).toBe(other.reward);
    expect(step.clipFraction).toBe(other.clipFraction);
    for (const key of ["loss", "kl", "gradNorm"] as const)
      expect(Math.abs(step[key] - other[key])).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(other[key])));
  });
}

/** The largest absolute difference between the stand-in's weights for a checkpoint and a local checkpoint's. */
async function weightsGap(remoteOut: string, localOut: string, step: number): Promise<number> {
  const trained = standin.model(modelIdOf(remoteOut, step)).parameters();
  const reference = await loadCheckpoint(join(localOut, "checkpoints", `step-${String(step).padStart(6, "0")}`));
  try {
    const weights = reference.parameters();
    expect(weights.length).toBe(trained.length);
    let gap = 0;
    for (let i = 0; i < trained.length; i++)
      gap = Math.max(gap, Math.abs((trained[i] as number) - (weights[i] as number)));
    return gap;
  } finally {
    reference.dispose();
  }
}

beforeAll(async () => {
  await runSft({
    out: base,
    config: {
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      tasks: 8,
      samples: 10,
      modelConfig,
      steps: 100,
      batchSize: 16,
      warmupSteps: 5,
      maxNewTokens: 6,
    },
  });
  standin = await startStandin({ baseModels: { "hanoi-base": { init: base } } });
}, 120_000);

afterAll(async () => {
  await standin.close();
});

describe("train --backend tinker against the stand-in", () => {
  it("trains on an OpenEnv server's env (budgetrl env-server), the rollouts through the same engine", async () => {
    const served = await serveEnv({
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      port: 0,
      maxSessions: 64,
    });
    try {
      const out = join(dir, "openenv");
      await train({
        out,
        config: {
          ...shared,
          env: `openenv:${served.url}`,
          envOptions: { reference: "6" },
          evalEvery: 0,
          budget: "fixed:6",
          ...onTinker(),
        },
        tinker: { baseUrl: standin.url },
      });
      const steps = await logged(out);
      expect(steps).toHaveLength(shared.steps);
      expect(steps.every((step) => step.groups === shared.tasksPerStep)).toBe(true);
      expect(existsSync(join(out, "checkpoints", "step-000003", "budgetrl.json"))).toBe(true);
    } finally {
      await served.close();
    }
  }, 120_000);

  it("gives the in-process run's logged losses, held-out tables and weights to float rounding (coefficients, KL)", async () => {
    const config = { ...shared, kl: 0.05 };
    const local = await train({ out: join(dir, "local"), config: { ...config, ...inProcess() } });
    const remoteOut = join(dir, "remote");
    const before = standin.requests.length;
    const remote = await train({
      out: remoteOut,
      config: { ...config, ...onTinker({ groupSampling: false }) },
      tinker: { baseUrl: standin.url },
    });
    expect(remote.finished).toBe(true);
    // The run learned: gradients at some steps, clipped tokens, a KL, and training requests went over HTTP.
    const steps = await logged(remoteOut);
    expect(steps.filter((step) => step.gradNorm > 0).length).toBeGreaterThanOrEqual(1);
    expect(steps.some((step) => step.clipFraction > 0 && step.kl > 0)).toBe(true);
    const sent = standin.requests.slice(before);
    const paths = sent.map((request) => request.path);
    // The stand-in, strict about the SDK's types, accepted every request of the run.
    expect(
      sent.filter((request) => request.status !== 200).map((request) => `${request.path} ${request.status}`),
    ).toEqual([]);
    for (const path of [
      "/api/v1/forward_backward",
      "/api/v1/optim_step",
      "/api/v1/asample",
      "/api/v1/save_weights_for_sampler",
      "/api/v1/save_weights",
    ])
      expect(paths).toContain(path);
    // Forward passes are forward_backward with forward_only (SDK 0.25 has no /forward), as protobuf.
    const passes = sent.filter((request) => request.path === "/api/v1/forward_backward");
    expect(passes.every((request) => request.headers["content-type"] === "application/x-protobuf")).toBe(true);
    expect(
      passes.some((request) => request.body.forward_only === true) &&
        passes.some((request) => request.body.forward_only !== true),
    ).toBe(true);
    // The KL reference is the base model's prompt_logprobs: one model trained, none for the reference.
    expect(paths.filter((path) => path === "/api/v1/create_model")).toHaveLength(1);
    expect(
      sent.some(
        (request) => request.path === "/api/v1/create_sampling_session" && request.body.base_model === "hanoi-base",
      ),
    ).toBe(true);
    expect(
      sent.filter((request) => request.path === "/api/v1/asample" && request.body.prompt_logprobs === true).length,
    ).toBeGreaterThan(0);
    expect(sent.every((request) => request.path !== "/api/v1/asample" || request.body.num_samples === 1)).toBe(true);
    expectSameSteps(steps, await logged(join(dir, "local")));
    expect(remote.evals.map((point) => point.table)).toEqual(local.evals.map((point) => point.table));
    expect(await weightsGap(remoteOut, join(dir, "local"), 3)).toBeLessThan(1e-6);
    expect(local.weightsDigest).toMatch(/^[0-9a-f]{64}$/);
  }, 240_000);

  it.each(["turn", "gigpo"])(
    "runs --algo %s unchanged: the in-process run's weights to float rounding",
    async (algo) => {
      const config = { ...shared, steps: 2, evalEvery: 0, algo: { name: algo } };
      const local = await train({ out: join(dir, `local-${algo}`), config: { ...config, ...inProcess() } });
      const remoteOut = join(dir, `remote-${algo}`);
      await train({
        out: remoteOut,
        config: { ...config, ...onTinker({ groupSampling: false }) },
        tinker: { baseUrl: standin.url },
      });
      expect((await logged(remoteOut)).some((step) => step.gradNorm > 0)).toBe(true);
      expect(await weightsGap(remoteOut, join(dir, `local-${algo}`), 2)).toBeLessThan(1e-6);
      expect(local.finished).toBe(true);
    },
    240_000,
  );

  it("samples a group's first turn in one request (num_samples), and resumes a stopped run to the weights of an uninterrupted one", async () => {
    const config = { ...shared, ...onTinker(), evalEvery: 0 };
    const whole = join(dir, "whole");
    const before = standin.requests.length;
    await train({ out: whole, config, tinker: { baseUrl: standin.url } });
    // Step 0's first turns: one request per group (tasksPerStep of them) with num_samples = group.
    const samples = standin.requests
      .slice(before)
      .filter((request) => request.path === "/api/v1/asample")
      .map((request) => request.body.num_samples);
    expect(samples.filter((count) => count === shared.group).length).toBe(shared.tasksPerStep * shared.steps);
    expect(samples.every((count) => count === 1 || count === shared.group)).toBe(true);
    const broken = join(dir, "broken");
    expect(await train({ out: broken, config, stopAfter: 2, tinker: { baseUrl: standin.url } })).toMatchObject({
      stepsDone: 2,
      finished: false,
    });
    const resumed = await train({ out: broken, config: {}, resume: true, tinker: { baseUrl: standin.url } });
    expect(resumed.finished).toBe(true);
    expect(modelIdOf(broken, 3)).not.toBe(modelIdOf(broken, 2));
    expect(standin.weightsDigest(modelIdOf(broken, 3))).toBe(standin.weightsDigest(modelIdOf(whole, 3)));
  }, 240_000);

  it("with the server's ppo loss: the coefficient path's step-0 numbers, and weights within float rounding", async () => {
    const config = { ...shared, steps: 1, evalEvery: 0 };
    const coefficients = await train({ out: join(dir, "coef"), config: { ...config, ...inProcess() } });
    const serverOut = join(dir, "ppo");
    const before = standin.requests.length;
    await train({
      out: serverOut,
      config: { ...config, ...onTinker({ backendLoss: "ppo", groupSampling: false }) },
      tinker: { baseUrl: standin.url },
    });
    const sent = standin.requests
      .slice(before)
      .filter((request) => request.path === "/api/v1/forward_backward")
      .map(
        (request) =>
          request.body as { loss_fn: string; loss_fn_config: Record<string, number>; forward_only?: boolean },
      );
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((input) => input.loss_fn === "ppo" && input.forward_only !== true)).toBe(true);
    expect(sent[0]?.loss_fn_config).toEqual({ clip_low_threshold: 0.8, clip_high_threshold: 1.28 });
    const [server] = await logged(serverOut);
    const [local] = await logged(join(dir, "coef"));
    expect(server?.reward).toBe(local?.reward);
    expect(server?.zeroGradientGroups).toBeLessThan(server?.groups ?? 0);
    expect(server?.loss).toBeCloseTo(local?.loss ?? Number.NaN, 5);
    expect(server?.clipFraction).toBeCloseTo(local?.clipFraction ?? Number.NaN, 5);
    // Same objective, different float rounding (A/N on the wire, r A in the server): weights agree closely.
    const trained = standin.model(modelIdOf(serverOut, 1)).parameters();
    const initial = await loadCheckpoint(base);
    let moved = 0;
    for (let i = 0; i < trained.length; i++) if (trained[i] !== initial.parameters()[i]) moved++;
    initial.dispose();
    expect(moved).toBeGreaterThan(trained.length / 2);
    expect(await weightsGap(serverOut, join(dir, "coef"), 1)).toBeLessThan(1e-4);
    expect(coefficients.finished).toBe(true);
  }, 240_000);

  it("with the server's importance_sampling loss: learns, nothing is clipped", async () => {
    const out = join(dir, "is");
    await train({
      out,
      config: { ...shared, steps: 1, evalEvery: 0, ...onTinker({ backendLoss: "importance_sampling" }) },
      tinker: { baseUrl: standin.url },
    });
    const [step] = await logged(out);
    expect(step?.gradNorm).toBeGreaterThan(0);
    expect(step?.clipFraction).toBe(0);
  }, 120_000);

  it("trains on when the service strips log-probs from forward_backward results: the sampler scores them, said once", async () => {
    const stripping = await startStandin({ baseModels: { "hanoi-base": { init: base } }, stripLogprobs: true });
    try {
      const config = { ...shared, steps: 1, evalEvery: 0 };
      const notices: string[] = [];
      const reach = { baseUrl: stripping.url, onNotice: (notice: { message: string }) => notices.push(notice.message) };
      // The coefficients need the current log-probs (and the KL its reference): from the weights' sampler.
      const coefOut = join(dir, "stripped-coef");
      await train({ out: coefOut, config: { ...config, ...onTinker({ groupSampling: false }) }, tinker: reach });
      expect(notices.filter((message) => /without log-probs/.test(message))).toHaveLength(1);
      expectSameSteps(await logged(coefOut), await logged(join(dir, "coef")));
      // The server's ppo loss: the clip statistics need the log-probs the gradient was taken at.
      const ppoOut = join(dir, "stripped-ppo");
      await train({
        out: ppoOut,
        config: { ...config, ...onTinker({ backendLoss: "ppo", groupSampling: false }) },
        tinker: reach,
      });
      const [stripped] = await logged(ppoOut);
      const [full] = await logged(join(dir, "ppo"));
      expect(stripped?.clipFraction).toBeCloseTo(full?.clipFraction ?? Number.NaN, 5);
      expect(stripped?.loss).toBeCloseTo(full?.loss ?? Number.NaN, 5);
      expect(notices.filter((message) => /without log-probs/.test(message))).toHaveLength(2);
      // Once stripped, no forward_only pass is sent for log-probs alone.
      const passes = stripping.requests.filter((request) => request.path === "/api/v1/forward_backward");
      expect(passes.filter((request) => request.body.forward_only === true)).toHaveLength(1);
    } finally {
      await stripping.close();
    }
  }, 120_000);

  it("goes on through a 3-minute outage (503s on every endpoint, injected time) to an uninterrupted run's weights", async () => {
    let clock = 1_800_000_000_000;
    let outage: number | undefined;
    let passes = 0;
    const flaky = await startStandin({
      baseModels: { "hanoi-base": { init: base } },
      fault: (path) => {
        // The outage starts at the 6th forward_backward and lasts 3 minutes of the client's clock.
        if (path === "/api/v1/forward_backward" && ++passes === 6) outage = clock;
        return outage !== undefined && clock < outage + 180_000 ? { status: 503 } : undefined;
      },
    });
    try {
      const out = join(dir, "outage");
      const waits: number[] = [];
      const notices: string[] = [];
      const result = await train({
        out,
        config: { ...shared, ...onTinker(), evalEvery: 0 },
        tinker: {
          baseUrl: flaky.url,
          onNotice: (notice: { message: string }) => notices.push(notice.message),
          now: () => clock,
          sleep: async (ms: number) => {
            waits.push(ms);
            clock += ms;
          },
        },
      });
      expect(result.finished).toBe(true);
      expect(outage).toBeDefined();
      expect(clock - (outage as number)).toBeGreaterThanOrEqual(180_000);
      expect(flaky.requests.filter((request) => request.status === 503).length).toBeGreaterThan(5);
      expect(Math.max(...waits)).toBeLessThanOrEqual(30_000);
      // Quiet: per endpoint that failed, a line as it starts, one a minute and one as it ends (3 minutes: at most 5).
      const failed = new Set(flaky.requests.filter((request) => request.status === 503).map((request) => request.path));
      expect(notices.length).toBeLessThanOrEqual(5 * failed.size);
      expect(notices.length).toBeLessThanOrEqual(3 + 2); // a line a minute, and one as it starts and ends
      expect(flaky.weightsDigest(modelIdOf(out, 3))).toBe(standin.weightsDigest(modelIdOf(join(dir, "whole"), 3)));
    } finally {
      await flaky.close();
    }
  }, 120_000);

  it("polls SkyRL-style futures (408 while pending, 400 on failure) through a whole step", async () => {
    const skyrl = await startStandin({
      baseModels: { "hanoi-base": { init: base } },
      pending: "408",
      failure: "400",
      holdMs: 0,
    });
    try {
      const out = join(dir, "skyrl");
      expect(
        (
          await train({
            out,
            config: { ...shared, steps: 1, evalEvery: 0, ...onTinker() },
            tinker: { baseUrl: skyrl.url, pollMs: 1, maxPollMs: 4 },
          })
        ).finished,
      ).toBe(true);
      expect(skyrl.requests.some((request) => request.path === "/api/v1/retrieve_future")).toBe(true);
    } finally {
      await skyrl.close();
    }
  }, 120_000);

  it("stops a run whose server fails a sampling request, instead of training on error episodes", async () => {
    const failing = await startStandin({
      baseModels: { "hanoi-base": { init: base } },
      fault: (path, index) =>
        path === "/api/v1/asample" && index === 5 ? { status: 404, body: { detail: "Sampler not found" } } : undefined,
    });
    try {
      const out = join(dir, "failing");
      await expect(
        train({ out, config: { ...shared, steps: 1, evalEvery: 0, ...onTinker() }, tinker: { baseUrl: failing.url } }),
      ).rejects.toThrow(/a rollout of step 0 failed: .*404: Sampler not found[\s\S]*--resume/);
    } finally {
      await failing.close();
    }
  }, 60_000);

  it("refuses what cannot work before --out is made", async () => {
    const tinker = { ...shared, ...onTinker() };
    await expect(train({ out: join(dir, "no-url"), config: tinker })).rejects.toThrow(/tinkerUrl: [\s\S]*--tinker-url/);
    await expect(
      train({
        out: join(dir, "unknown"),
        config: { ...shared, ...onTinker({ baseModel: "Qwen/Qwen3-8B" }) },
        tinker: { baseUrl: standin.url },
      }),
    ).rejects.toThrow(/does not serve Qwen\/Qwen3-8B[\s\S]*hanoi-base/);
    await expect(
      train({
        out: join(dir, "no-base"),
        config: { ...shared, backend: { kind: "tinker" } },
        tinker: { baseUrl: standin.url },
      }),
    ).rejects.toThrow(/baseModel: is required/);
    await expect(
      train({
        out: join(dir, "kl"),
        config: { ...shared, ...onTinker({ backendLoss: "ppo" }), kl: 0.1 },
        tinker: { baseUrl: standin.url },
      }),
    ).rejects.toThrow(/backendLoss: .*no KL/);
    await expect(
      train({
        out: join(dir, "init"),
        config: { ...shared, ...onTinker({ init: base }) },
        tinker: { baseUrl: standin.url },
      }),
    ).rejects.toThrow(/init: /);
    await expect(
      train({ out: join(dir, "tiny-base"), config: { ...shared, backend: { kind: "tiny", baseModel: "x" } } }),
    ).rejects.toThrow(/baseModel: is not read by --backend tiny/);
    await expect(
      train({ out: join(dir, "tiny-loss"), config: { ...shared, backend: { kind: "tiny", backendLoss: "ppo" } } }),
    ).rejects.toThrow(/backendLoss: /);
    await expect(
      train({ out: join(dir, "down"), config: tinker, tinker: { baseUrl: "http://127.0.0.1:9", deadlineMs: 0 } }),
    ).rejects.toThrow(/tinker request failed/);
    for (const name of ["no-url", "unknown", "no-base", "kl", "init", "tiny-base", "tiny-loss", "down"])
      expect(existsSync(join(dir, name))).toBe(false);
  }, 60_000);
});
