import { describe, expect, it } from "vitest";
import { evalResumeCommand, sftResumeCommand, shellWord, trainResumeCommand } from "../../src/core/commands.js";
import { evalResumeFlags } from "../../src/eval/run-options.js";

describe("printed commands", () => {
  it("quote only what a shell would split or expand", () => {
    expect(shellWord("runs/x.db")).toBe("runs/x.db");
    expect(shellWord("my runs.db")).toBe("'my runs.db'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord("$HOME")).toBe("'$HOME'");
    expect(evalResumeCommand("sokoban-1", "a b.db")).toBe("budgetrl eval --resume --run sokoban-1 --db 'a b.db'");
    expect(trainResumeCommand("runs/x")).toBe("budgetrl train --out runs/x --resume");
    expect(sftResumeCommand("base")).toBe("budgetrl sft --out base --resume");
  });

  it("give an eval's resume command what it needs but never stores: the queue and the openai client flags, no secrets", () => {
    expect(evalResumeFlags({ executor: "local" }, undefined)).toEqual([]);
    expect(evalResumeFlags({ executor: "bullmq", redis: "redis://:hunter2@queue:6379" })).toEqual([
      "--executor",
      "bullmq",
      "--redis",
      "redis://queue:6379",
    ]);
    const flags = evalResumeFlags(
      {},
      {
        baseUrl: "http://me:secret@gpu-box:8000/v1",
        apiKeyEnv: "TOGETHER_KEY",
        concurrency: 8,
        rpm: 600,
        timeoutMs: 60000,
        retries: 2,
        backoffMs: 250,
        maxBackoffMs: 5000,
        cacheDir: "my cache",
        cache: true,
      },
    );
    expect(flags).toEqual([
      "--base-url",
      "http://me@gpu-box:8000/v1",
      "--api-key-env",
      "TOGETHER_KEY",
      "--request-concurrency",
      "8",
      "--rpm",
      "600",
      "--request-timeout",
      "60000",
      "--retries",
      "2",
      "--retry-backoff",
      "250",
      "--retry-max-wait",
      "5000",
      "--cache",
      "my cache",
    ]);
    expect(evalResumeCommand("r", "runs.db", [...flags, ...evalResumeFlags({}, { cache: false })])).toBe(
      "budgetrl eval --resume --run r --db runs.db --base-url http://me@gpu-box:8000/v1 --api-key-env TOGETHER_KEY --request-concurrency 8 --rpm 600 --request-timeout 60000 --retries 2 --retry-backoff 250 --retry-max-wait 5000 --cache 'my cache' --no-cache",
    );
  });
});
