import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open.js";
import { readTrainSteps } from "../../src/store/train-log.js";
import { train } from "../../src/rl/train.js";
import { runSft } from "../../src/rl/sft-run.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-train-"));
const modelConfig = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 };

describe("train", () => {
  it("resumes an interrupted run to bit-identical weights", async () => {
    const base = join(dir, "base");
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
    const config = {
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      backend: { kind: "tiny", init: base },
      steps: 4,
      tasksPerStep: 4,
      group: 4,
      evalEvery: 2,
      evalTasks: 3,
      evalSamples: 1,
      checkpointEvery: 2,
      maxNewTokens: 6,
      learningRate: 5e-4,
      budget: "budgetmix:50%,100%",
      kl: 0.05,
      epochs: 2,
      minibatches: 2,
    };
    const whole = await train({ out: join(dir, "whole"), config });
    expect(whole.finished).toBe(true);
    const wholeStore = await openStore(join(dir, "whole", "train.db"));
    const gradNorms = (await readTrainSteps(wholeStore, "train")).map(
      (row) => (row.metrics as { gradNorm: number }).gradNorm,
    );
    await wholeStore.close();
    // The run really learned something at most steps (a run without gradients would trivially resume).
    expect(gradNorms.filter((norm) => norm > 0).length).toBeGreaterThanOrEqual(2);

    const broken = join(dir, "broken");
    const first = await train({ out: broken, config, stopAfter: 3 });
    expect(first).toMatchObject({ stepsDone: 3, finished: false });
    const resumed = await train({ out: broken, config: {}, resume: true });
    expect(resumed.finished).toBe(true);
    expect(resumed.weightsDigest).toBe(whole.weightsDigest);

    // A crash after the step-2 checkpoint (the step-3 one never written) recomputes steps 2 and 3.
    const crashed = join(dir, "crashed");
    await train({ out: crashed, config, stopAfter: 3 });
    rmSync(join(crashed, "checkpoints", "step-000003"), { recursive: true });
    expect((await train({ out: crashed, config: {}, resume: true })).weightsDigest).toBe(whole.weightsDigest);

    const store = await openStore(join(crashed, "train.db"));
    const steps = await readTrainSteps(store, "train");
    expect(steps.map((row) => row.step)).toEqual([0, 1, 2, 3]);
    expect(Object.keys(steps[0]?.metrics as object)).toEqual(
      expect.arrayContaining([
        "reward",
        "success",
        "turns",
        "clipFraction",
        "kl",
        "entropy",
        "tokensPerSecond",
        "zeroGradientGroups",
      ]),
    );
    await store.close();
  }, 240_000);

  it("refuses bad configs before any work", async () => {
    await expect(train({ out: join(dir, "bad1"), config: { env: "hanoi", algo: { name: "ppo" } } })).rejects.toThrow(
      /algo\.name/,
    );
    await expect(
      train({ out: join(dir, "bad2"), config: { env: "hanoi", budget: "budgetmix:25%,x" } }),
    ).rejects.toThrow(/budget: "x" is not a budget/);
    await expect(
      train({
        out: join(dir, "bad3"),
        config: { env: "hanoi", backend: { kind: "tiny", init: join(dir, "nowhere") } },
      }),
    ).rejects.toThrow(/init: .* is not a checkpoint/);
    await expect(train({ out: join(dir, "bad4"), config: { env: "chess" } })).rejects.toThrow(/env: unknown env/);
    await expect(train({ out: join(dir, "nothing"), config: {}, resume: true })).rejects.toThrow(/nothing to resume/);
  });

  it("resumes a run stored in the older flat config form with the config it started with", async () => {
    const out = join(dir, "flat");
    const config = {
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      backend: { kind: "tiny", modelConfig },
      algo: { name: "turn", turnWeight: 0.5 },
      steps: 2,
      tasksPerStep: 2,
      group: 2,
      evalEvery: 0,
      maxNewTokens: 4,
    };
    const whole = await train({ out: join(dir, "flat-whole"), config });
    expect(await train({ out, config, stopAfter: 1 })).toMatchObject({ stepsDone: 1, finished: false });
    // config.json as runs stored it before the unions: every field at the top level, both older weight names.
    const nested = JSON.parse(readFileSync(join(out, "config.json"), "utf8")) as {
      backend: Record<string, unknown>;
      algo: Record<string, unknown>;
    } & Record<string, unknown>;
    const {
      backend: { kind, ...backendFields },
      algo: { name, turnWeight, ...algoFields },
      ...shared
    } = nested;
    const flat = {
      ...shared,
      ...backendFields,
      ...algoFields,
      backend: kind,
      algo: name,
      lambda: turnWeight,
      stepWeight: 2,
      normalizeStepStd: false,
      loraRank: 32,
      renderer: "bytes",
      groupSampling: true,
      templateOptions: {},
      toolCallFormat: "auto",
      backendLoss: "none",
    };
    writeFileSync(join(out, "config.json"), `${JSON.stringify(flat, null, 2)}\n`);
    const resumed = await train({ out, config: {}, resume: true });
    expect(resumed).toMatchObject({ stepsDone: 2, finished: true, weightsDigest: whole.weightsDigest });
    expect(resumed.config).toEqual(whole.config);
  }, 120_000);

  it("refuses a corrupt --init before making --out, so that the same command works once --init is fixed", async () => {
    const base = join(dir, "small-base");
    await runSft({
      out: base,
      config: {
        env: "hanoi",
        envOptions: { disks: 2, randomStart: true },
        tasks: 4,
        samples: 1,
        modelConfig,
        steps: 2,
        batchSize: 4,
        warmupSteps: 0,
        maxNewTokens: 6,
      },
    });
    const corrupt = join(dir, "corrupt-base");
    cpSync(base, corrupt, { recursive: true });
    truncateSync(join(corrupt, "model.safetensors"), 100);
    const out = join(dir, "from-corrupt");
    const config = {
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      backend: { kind: "tiny", init: corrupt },
      steps: 1,
      tasksPerStep: 2,
      group: 2,
      evalEvery: 0,
      maxNewTokens: 6,
    };
    await expect(train({ out, config })).rejects.toThrow(/model\.safetensors/);
    expect(existsSync(out)).toBe(false);
    cpSync(base, corrupt, { recursive: true });
    expect((await train({ out, config })).finished).toBe(true);
  }, 120_000);
});
