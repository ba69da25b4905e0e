// `budgetrl train --backend tinker` end to end through the CLI, against the loopback stand-in server: flags
// validated before work, the API key read from the named environment variable and never stored or printed,
// the server URL given again on --resume.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tinkerConnection } from "../../src/cli/train.js";
import { startStandin, type Standin } from "../tinker/standin-server.js";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-tinker-"));
const key = "tml-cli-secret-123";
let standin: Standin;

beforeAll(async () => {
  standin = await startStandin({
    baseModels: {
      "tiny-bytes": { config: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 }, seed: 5 },
    },
    apiKey: key,
  });
  process.env.BUDGETRL_TEST_TINKER_KEY = key;
});

afterAll(async () => {
  delete process.env.BUDGETRL_TEST_TINKER_KEY;
  await standin.close();
});

describe("budgetrl train --backend tinker", () => {
  it("trains over HTTP, keeps the key and URL out of the run folder, and resumes with --tinker-url", async () => {
    const out = join(dir, "run");
    const args = [
      "train",
      "--backend",
      "tinker",
      "--tinker-url",
      standin.url,
      "--tinker-api-key-env",
      "BUDGETRL_TEST_TINKER_KEY",
      "--base-model",
      "tiny-bytes",
      "--lora-rank",
      "8",
      "--backend-loss",
      "ppo",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--env-opt",
      "randomStart=true",
      "--tasks-per-step",
      "2",
      "--group",
      "2",
      "--steps",
      "2",
      "--eval-every",
      "2",
      "--eval-tasks",
      "2",
      "--eval-samples",
      "1",
      "--eval-budget",
      "100%",
      "--max-new-tokens",
      "6",
      "--checkpoint-every",
      "1",
      "--out",
      out,
      "--no-progress",
    ];
    const trained = await cli(...args);
    expect(trained.stderr).toBe("");
    expect(trained.code).toBe(0);
    expect(trained.stdout).toMatch(/step 1\/2 \| .* \| entropy (n\/a|\d\.\d{3}) \|/);
    expect(trained.stdout).not.toContain(key);
    expect(trained.stdout).toContain("held-out evaluation at step 2");
    expect(trained.stdout).toContain("finished after 2 steps");
    // A finished run resumed: the saved state is loaded into a new model on the server, and nothing is left to do.
    const resumed = await cli(
      "train",
      "--out",
      out,
      "--resume",
      "--tinker-url",
      standin.url,
      "--tinker-api-key-env",
      "BUDGETRL_TEST_TINKER_KEY",
      "--no-progress",
    );
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toContain("finished after 2 steps");
    expect(standin.requests.filter((request) => request.path === "/api/v1/load_weights")).toHaveLength(1);
    const config = readFileSync(join(out, "config.json"), "utf8");
    expect(JSON.parse(config)).toMatchObject({
      backend: { kind: "tinker", baseModel: "tiny-bytes", loraRank: 8, backendLoss: "ppo" },
    });
    for (const file of [
      join(out, "config.json"),
      ...readdirSync(join(out, "checkpoints")).map((name) => join(out, "checkpoints", name, "budgetrl.json")),
    ]) {
      expect(readFileSync(file, "utf8")).not.toContain(key);
    }
    expect(config).not.toContain(standin.url);
    expect(standin.requests.every((request) => request.headers["x-api-key"] === key)).toBe(true);
  }, 120_000);

  it("refuses a missing URL, a bad URL and a missing key before any work", async () => {
    // Default hanoi has one task: one per step and no held-out evaluation.
    const base = [
      "train",
      "--backend",
      "tinker",
      "--base-model",
      "tiny-bytes",
      "--env",
      "hanoi",
      "--steps",
      "1",
      "--tasks-per-step",
      "1",
      "--eval-every",
      "0",
      "--no-progress",
    ];
    const previous = process.env.TINKER_BASE_URL;
    delete process.env.TINKER_BASE_URL;
    try {
      const noUrl = await cli(...base, "--out", join(dir, "no-url"));
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toMatch(/--tinker-url: a tinker run needs the server's address[\s\S]*--tinker-url/);
      const badUrl = await cli(...base, "--tinker-url", "localhost:8000", "--out", join(dir, "bad-url"));
      expect(badUrl.code).toBe(2);
      expect(badUrl.stderr).toMatch(/is not an http\(s\) URL/);
      const noKey = await cli(
        ...base,
        "--tinker-url",
        standin.url,
        "--tinker-api-key-env",
        "BUDGETRL_TEST_NO_SUCH_KEY",
        "--out",
        join(dir, "no-key"),
      );
      expect(noKey.code).toBe(2);
      expect(noKey.stderr).toMatch(
        /--tinker-api-key-env: the environment variable BUDGETRL_TEST_NO_SUCH_KEY is not set/,
      );
      expect(readdirSync(dir).filter((name) => ["no-url", "bad-url", "no-key"].includes(name))).toEqual([]);
    } finally {
      if (previous !== undefined) process.env.TINKER_BASE_URL = previous;
    }
  }, 60_000);

  it("prints the server's session messages to stderr", async () => {
    const talking = await startStandin({
      baseModels: {
        "tiny-bytes": { config: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 }, seed: 5 },
      },
      sessionMessages: { warning_message: "Qwen3-8B will be retired on Friday" },
    });
    try {
      const run = await cli(
        "train",
        "--backend",
        "tinker",
        "--tinker-url",
        talking.url,
        "--base-model",
        "tiny-bytes",
        "--env",
        "hanoi",
        "--steps",
        "1",
        "--tasks-per-step",
        "1",
        "--group",
        "2",
        "--eval-every",
        "0",
        "--max-new-tokens",
        "4",
        "--out",
        join(dir, "talking"),
        "--no-progress",
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("tinker server: Qwen3-8B will be retired on Friday\n");
    } finally {
      await talking.close();
    }
  }, 60_000);

  it("reads the URL from TINKER_BASE_URL and the key from the named variable only, the SDK's deadlines by default", () => {
    const deadlines = { deadlineMs: 300_000, samplingDeadlineMs: 7_200_000 };
    expect(
      tinkerConnection({ tinkerApiKeyEnv: "K", tinkerTimeout: 5 }, { TINKER_BASE_URL: "http://h:1", K: "tml-x" }),
    ).toEqual({ baseUrl: "http://h:1", apiKey: "tml-x", timeoutMs: 5, ...deadlines });
    expect(tinkerConnection({ tinkerUrl: "https://a" }, { TINKER_API_KEY: "tml-y" })).toEqual({
      baseUrl: "https://a",
      apiKey: "tml-y",
      timeoutMs: 120_000,
      ...deadlines,
    });
    expect(() => tinkerConnection({ tinkerUrl: "https://a", tinkerApiKeyEnv: "K" }, {})).toThrow(
      /tinkerApiKeyEnv: the environment variable K is not set/,
    );
    expect(tinkerConnection({ tinkerTimeout: 5 }, {})).toBeUndefined();
  });
});
