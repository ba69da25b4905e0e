// The whole RL loop over real HTTP: `train` with the tinker backend against the loopback stand-in server
// (standin-server.ts), next to the in-process backend on the same seed and base model.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSft } from "../../../src/rl/sft-run.js";
import { train } from "../../../src/rl/train.js";
import { startStandin, type Standin } from "./standin-server.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-tinker-train-"));
const modelConfig = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 };
const base = join(dir, "base");
let standin: Standin;

const modelIdOf = (out: string, step: number): string => (JSON.parse(readFileSync(join(out, "checkpoints", `step-${String(step).padStart(6, "0")}`, "budgetrl.json"), "utf8")) as { modelId: string }).modelId;

beforeAll(async () => {
  await runSft({ out: base, config: { env: "hanoi", envOptions: { disks: 2, randomStart: true }, tasks: 40, samples: 2, modelConfig, steps: 60, batchSize: 16, warmupSteps: 5, maxNewTokens: 6 } });
  standin = await startStandin({ baseModels: { "hanoi-base": { init: base } } });
}, 120_000);

afterAll(async () => {
  await standin.close();
});

describe("train --backend tinker against the stand-in", () => {
  it("gives the in-process run's held-out tables and weights, bit for bit (coefficient path)", async () => {
    const shared = { env: "hanoi", envOptions: { disks: 2, randomStart: true }, steps: 3, tasksPerStep: 4, group: 4, evalEvery: 3, evalTasks: 4, evalSamples: 2, checkpointEvery: 3, maxNewTokens: 6, learningRate: 5e-4, budget: "budgetmix:50%,100%", epochs: 2, minibatches: 2 };
    const local = await train({ out: join(dir, "local"), config: { ...shared, init: base } });
    const remote = await train({ out: join(dir, "remote"), config: { ...shared, backend: "tinker", baseModel: "hanoi-base" }, tinker: { baseUrl: standin.url } });
    expect(remote.finished).toBe(true);
    expect(remote.evals.map((point) => point.table)).toEqual(local.evals.map((point) => point.table));
    expect(standin.weightsDigest(modelIdOf(join(dir, "remote"), 3))).toBe(local.weightsDigest);
  }, 240_000);
});
