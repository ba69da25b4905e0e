// `tinker:` as a registered policy kind, against the loopback stand-in: a training checkpoint folder's sampler weights
// and the base model evaluated through evaluate() (the same weights give the same episodes), a stopped run resumed (an
// AbortSignal) to the episodes of an uninterrupted one, a service that is down giving policy-error episodes that a
// resumed run plays once it is back, the response cache answering a run asked before, refusals before any request,
// and `budgetrl eval --policy tinker:...` with its flags (the reach not stored, given again to --resume).
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate, type EvaluateOptions } from "../../src/eval/evaluate.js";
import type { GivenClientOptions } from "../../src/policies/openai/options.js";
import { HISTORY } from "../../src/policies/tiny/context.js";
import { TINKER_CHECKPOINT_FORMAT } from "../../src/tinker/checkpoint.js";
import { createTinkerClient } from "../../src/tinker/client.js";
import * as api from "../../src/tinker/operations.js";
import "../../src/tinker/policy-kind.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { openStore } from "../../src/store/open.js";
import { cli } from "../cli/helpers.js";
import { startStandin, type Standin } from "./standin-server.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-tinker-policy-"));
let counter = 0;
const freshDb = (): string => join(dir, `run-${counter++}.db`);
const checkpoint = join(dir, "checkpoints", "step-000000");
let standin: Standin;

const evalBase: Omit<EvaluateOptions, "policy"> = {
  env: "hanoi",
  envOptions: { disks: 2, randomStart: true },
  tasks: 3,
  samples: 2,
  ks: [1, 2],
  budgets: ["100%"],
  seed: 5,
  bootstrap: 0,
  run: "fixed",
  policyOptions: { maxNewTokens: 6 },
  now: () => new Date("2026-01-01T00:00:00Z"),
};
const reach = (extra: GivenClientOptions = {}): GivenClientOptions => ({
  tinkerUrl: standin.url,
  cache: false,
  ...extra,
});

async function exported(db: string): Promise<string> {
  const out = join(dir, `export-${counter++}.jsonl`);
  const store = await openStore(db);
  try {
    await exportRunJsonl(store, "fixed", out);
  } finally {
    await store.close();
  }
  return readFileSync(out, "utf8");
}

beforeAll(async () => {
  delete process.env.TINKER_BASE_URL;
  standin = await startStandin({
    baseModels: { tiny: { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 96 }, seed: 3 } },
  });
  // A checkpoint folder as a Tinker run writes it: sampler weights saved from a LoRA not trained yet (the base's weights).
  const client = createTinkerClient({ baseUrl: standin.url });
  const sessionId = await api.createSession(client, []);
  const modelId = await api.createModel(client, { sessionId, modelSeqId: 0, baseModel: "tiny", loraRank: 4, seed: 1 });
  const samplerPath = await api.saveSamplerWeights(client, modelId, 1, "ckpt-sampler");
  mkdirSync(checkpoint, { recursive: true });
  writeFileSync(
    join(checkpoint, "budgetrl.json"),
    JSON.stringify({
      format: TINKER_CHECKPOINT_FORMAT,
      server: standin.url,
      baseModel: "tiny",
      loraRank: 4,
      modelId,
      statePath: `tinker://${modelId}/weights/none`,
      samplerPath,
      optimizerSteps: 0,
      contextLength: 96,
      maxNewTokens: 6,
      history: HISTORY,
      renderer: "bytes",
    }),
  );
});

afterAll(async () => {
  await standin.close();
});

describe("the tinker: policy kind", () => {
  let whole: string;

  it("evaluates a checkpoint's sampler weights and the base model: the same weights, the same episodes", async () => {
    whole = freshDb();
    const before = standin.requests.length;
    const sampled = await evaluate({ ...evalBase, policy: `tinker:${checkpoint}`, db: whole, policyClient: reach() });
    expect(sampled).toMatchObject({ complete: true, errors: 0, total: 6 });
    expect(sampled.config.policyOptions).toMatchObject({ renderer: "bytes", temperature: 1, maxNewTokens: 6 });
    const sessions = standin.requests
      .slice(before)
      .filter((request) => request.path === "/api/v1/create_sampling_session");
    expect(sessions.map((request) => request.body.model_path)).toEqual([
      expect.stringMatching(/sampler_weights\/ckpt-sampler$/),
    ]);
    const baseDb = freshDb();
    const onBase = await evaluate({ ...evalBase, policy: "tinker:tiny", db: baseDb, policyClient: reach() });
    expect(onBase.table).toEqual(sampled.table);
    expect((await exported(baseDb)).replaceAll("tinker:tiny", "POLICY")).toBe(
      (await exported(whole)).replaceAll(`tinker:${checkpoint}`, "POLICY"),
    );
  });

  it("resumes a stopped run (AbortSignal) to the episodes of an uninterrupted one", async () => {
    const db = freshDb();
    const controller = new AbortController();
    const partial = await evaluate({
      ...evalBase,
      policy: `tinker:${checkpoint}`,
      db,
      policyClient: reach(),
      concurrency: 1,
      signal: controller.signal,
      onProgress: (done) => done >= 2 && controller.abort(),
    });
    expect(partial.interrupted).toBe(true);
    expect(partial.done).toBeLessThan(6);
    const resumed = await evaluate({
      env: "hanoi",
      policy: `tinker:${checkpoint}`,
      db,
      run: "fixed",
      resume: true,
      policyClient: reach(),
    });
    expect(resumed).toMatchObject({ complete: true, interrupted: false, errors: 0 });
    expect(await exported(db)).toBe(await exported(whole));
  });

  it("ends the episodes in policy errors while the service is down, and a resumed run plays them once it is back", async () => {
    const db = freshDb();
    const down = await evaluate({
      ...evalBase,
      policy: `tinker:${checkpoint}`,
      db,
      policyClient: { tinkerUrl: "http://127.0.0.1:9", tinkerDeadline: 0, cache: false },
    });
    expect(down).toMatchObject({ complete: false, errors: 6 });
    expect(down.firstError).toMatch(/tinker request failed: .*client\/config.*deadline of 0 ms/);
    const back = await evaluate({
      env: "hanoi",
      policy: `tinker:${checkpoint}`,
      db,
      run: "fixed",
      resume: true,
      policyClient: reach(),
    });
    expect(back).toMatchObject({ complete: true, errors: 0 });
    expect(await exported(db)).toBe(await exported(whole));
  });

  it("answers a run asked before from the response cache, with the same episodes", async () => {
    const cacheDir = join(dir, "cache");
    const first = freshDb();
    await evaluate({
      ...evalBase,
      policy: `tinker:${checkpoint}`,
      db: first,
      policyClient: reach({ cache: true, cacheDir }),
    });
    const samples = (): number => standin.requests.filter((request) => request.path === "/api/v1/asample").length;
    const before = samples();
    const second = freshDb();
    await evaluate({
      ...evalBase,
      policy: `tinker:${checkpoint}`,
      db: second,
      policyClient: reach({ cache: true, cacheDir }),
    });
    expect(samples()).toBe(before);
    expect(await exported(second)).toBe(await exported(whole));
  });

  it("refuses what cannot work before any request", async () => {
    const run = (policy: string, extra: Partial<EvaluateOptions> = {}) =>
      evaluate({ ...evalBase, policy, db: freshDb(), policyClient: reach(), ...extra });
    await expect(run("tinker:tiny", { policyClient: { cache: false } })).rejects.toThrow(
      /tinkerUrl: [\s\S]*--tinker-url/,
    );
    await expect(run("tinker:tinker://model_1/sampler_weights/x")).rejects.toThrow(
      /baseModel: [\s\S]*--base-model NAME/,
    );
    await expect(run(`tinker:tiny@${join(dir, "nowhere")}`)).rejects.toThrow(/budgetrl.json is missing/);
    await expect(run(`tinker:${checkpoint}`, { policyOptions: { baseModel: "other" } })).rejects.toThrow(
      /was trained on tiny, not other/,
    );
    await expect(run("tinker:tiny", { policyOptions: { renderer: "gpt" } })).rejects.toThrow(
      /tinker.renderer: unknown renderer "gpt"/,
    );
    await expect(
      run("tinker:tiny", { policyClient: reach({ tinkerApiKeyEnv: "BUDGETRL_NO_SUCH_KEY" }) }),
    ).rejects.toThrow(/BUDGETRL_NO_SUCH_KEY is not set/);
  });

  it("runs as budgetrl eval --policy tinker:..., the service's flags not stored and given again to --resume", async () => {
    const db = freshDb();
    const args = [
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--env-opt",
      "randomStart=true",
      "--tasks",
      "2",
      "--samples",
      "1",
    ];
    const result = await cli(
      "eval",
      ...args,
      "--k",
      "1",
      "--budget",
      "100%",
      "--policy",
      "tinker:tiny",
      "--base-model",
      "tiny",
      "--renderer",
      "bytes",
      "--policy-opt",
      "maxNewTokens=6",
      "--tinker-url",
      standin.url,
      "--tinker-deadline",
      "60000",
      "--no-cache",
      "--db",
      db,
      "--run",
      "cli",
      "--no-progress",
    );
    expect(result.code, result.stderr).toBe(0);
    const refused = await cli("eval", ...args, "--policy", "oracle", "--base-model", "tiny", "--db", freshDb());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--base-model: is read by --policy tinker:\.\.\. only/);
    // A run stopped by a service that is down prints a resume command with the service's flags.
    const down = await cli(
      "eval",
      ...args,
      "--k",
      "1",
      "--budget",
      "100%",
      "--policy",
      "tinker:tiny",
      "--policy-opt",
      "maxNewTokens=6",
      "--tinker-url",
      "http://127.0.0.1:9",
      "--tinker-deadline",
      "0",
      "--no-cache",
      "--db",
      db,
      "--run",
      "down",
      "--no-progress",
    );
    expect(down.code).toBe(1);
    const resume = /retry them with: (budgetrl eval --resume .*)/.exec(down.stderr)?.[1] ?? "";
    for (const flag of ["--tinker-url http://127.0.0.1:9", "--tinker-deadline 0", "--no-cache"])
      expect(resume).toContain(flag);
  });
});
