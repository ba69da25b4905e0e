import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, StoppedError } from "../../src/core/errors.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { createEnv } from "../../src/envs/registry.js";
import { heldOutTasks } from "../../src/eval/tasks.js";
import { runSft } from "../../src/rl/sft-run.js";
import { openStore } from "../../src/store/open.js";
import { loadTasks } from "../../src/store/runs.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-sft-"));
const modelConfig = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 };
// 2-disk hanoi from random starts has 8 distinct tasks: 6 of them x 10 samples.
const envOptions = { disks: 2, randomStart: true };
const config = {
  env: "hanoi",
  envOptions,
  tasks: 6,
  samples: 10,
  modelConfig,
  steps: 12,
  batchSize: 8,
  warmupSteps: 2,
  maxNewTokens: 6,
};

describe("runSft", () => {
  it("keeps the demonstrations of a stopped run, refuses a plain re-run, and resumes to the checkpoint of an uninterrupted one", async () => {
    const whole = join(dir, "whole");
    await runSft({ out: whole, config });

    const out = join(dir, "stopped");
    const controller = new AbortController();
    const stopped = runSft({
      out,
      config,
      signal: controller.signal,
      onDemos: (done) => done >= 20 && controller.abort(),
    });
    await expect(stopped).rejects.toBeInstanceOf(StoppedError);
    await expect(stopped).rejects.toThrow(
      new RegExp(
        `stopped after \\d+/60 demonstrations \\(kept in .*demos\\.db\\); continue with: budgetrl sft --out ${out} --resume`,
      ),
    );
    expect(existsSync(join(out, "budgetrl.json"))).toBe(false);

    await expect(runSft({ out, config })).rejects.toThrow(
      new RegExp(
        `out: .* holds an unfinished sft\\nHINT: continue it with: budgetrl sft --out ${out} --resume, or pick another --out`,
      ),
    );
    let resumedFrom = -1;
    const resumed = await runSft({
      out,
      config: {},
      resume: true,
      onDemos: (done) => void (resumedFrom < 0 && (resumedFrom = done)),
    });
    expect(resumedFrom).toBeGreaterThanOrEqual(20);
    expect(resumed.config.tasks).toBe(6);
    // The manifest holds the SHA-256 of every checkpoint file: equal manifests, equal weights.
    expect(readFileSync(join(out, "budgetrl.json"), "utf8")).toBe(readFileSync(join(whole, "budgetrl.json"), "utf8"));
  }, 120_000);

  it("demonstrates every task at every budget in every mode, and can train on the oracle-optimal replies only", async () => {
    const counts: number[] = [];
    const db = join(dir, "grid", "demos.db");
    const grid = {
      ...config,
      envOptions: { disks: 3, randomStart: true },
      tasks: 6,
      samples: 1,
      budgets: "1x,2x",
      budgetModes: "announced,hidden",
      policy: "noisy-oracle:0.5",
      imitate: "optimal",
      steps: 2,
    };
    const result = await runSft({
      out: join(dir, "grid"),
      config: grid,
      onDemos: (_done, total) => void counts.push(total),
    });
    expect(new Set(counts)).toEqual(new Set([6 * 2 * 2]));
    expect(result.demoRuns).toEqual(["demonstrations/announced", "demonstrations/hidden"]);
    const all = await runSft({ out: join(dir, "grid-all"), db, config: { ...grid, imitate: "all" } });
    expect(result.sequences).toBeLessThanOrEqual(all.sequences);
    // On hanoi the best move never depends on the turns left: the budget-blind Bayes move is the optimal one.
    const bayes = await runSft({ out: join(dir, "grid-bayes"), db, config: { ...grid, imitate: "bayes" } });
    expect(bayes.sequences).toBe(result.sequences);
    await expect(
      runSft({ out: join(dir, "bad-mode"), config: { ...grid, budgetModes: "announced,loud" } }),
    ).rejects.toThrow(/budgetModes: expected one or more of announced, remaining, hidden/);
  }, 120_000);

  it("refuses a bad start before making the output folder", async () => {
    const out = join(dir, "bad");
    await expect(runSft({ out, config: { ...config, policy: "wizard" } })).rejects.toThrow(
      /policy: unknown policy "wizard"/,
    );
    await expect(runSft({ out, config: { ...config, envOptions: { disks: 0 } } })).rejects.toThrow(ConfigError);
    await expect(runSft({ out, config: { ...config, policy: "random", imitate: "bayes" } })).rejects.toThrow(
      /^policy: imitate bayes needs demonstrations of a budget-aware oracle, not random/,
    );
    await expect(
      runSft({ out, config: { ...config, modelConfig: { ...modelConfig, unknownKey: 1 } } }),
    ).rejects.toThrow(/^modelConfig\.unknownKey: unknown model config key \(known: vocabSize, /);
    await expect(runSft({ out, config: { ...config, modelConfig: { ...modelConfig, heads: 3 } } })).rejects.toThrow(
      /^modelConfig\.heads: dModel 32 is not divisible by heads 3/,
    );
    await expect(runSft({ out, config: { ...config, tasks: 9 } })).rejects.toThrow(
      /^tasks: hanoi disks=2 randomStart=true referenceFactor=4 has only 8 distinct tasks, fewer than the 9 asked for/,
    );
    expect(existsSync(out)).toBe(false);
    await expect(runSft({ out, config: {}, resume: true })).rejects.toThrow(
      /nothing to resume in .*bad \(no sft\.json\)/,
    );
    await expect(runSft({ out, config: { ...config, fromRun: "" } })).rejects.toThrow(
      /^fromRun: a run's name cannot be empty/,
    );
    await expect(runSft({ out, db: join(dir, "no-such.db"), config: { ...config, fromRun: "demos" } })).rejects.toThrow(
      /run store .*no-such\.db does not exist/,
    );
    expect(existsSync(out)).toBe(false);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    await expect(runSft({ out: file, config })).rejects.toThrow(
      new ConfigError("out", `${file} is a file, not a folder`),
    );
  });

  it("says so before training on the demonstrations of an incomplete run", async () => {
    const db = join(dir, "partial.db");
    const controller = new AbortController();
    await evaluate({
      env: "hanoi",
      envOptions,
      policy: "noisy-oracle:0.3",
      tasks: 6,
      samples: 10,
      bootstrap: 0,
      db,
      run: "partial",
      signal: controller.signal,
      onProgress: (done) => done >= 25 && controller.abort(),
    });
    const notices: string[] = [];
    const result = await runSft({
      out: join(dir, "from-partial"),
      db,
      config: { ...config, fromRun: "partial" },
      onNotice: (text) => void notices.push(text),
    });
    expect(notices).toEqual([
      expect.stringMatching(
        /^run partial in .*partial\.db is not complete: training on the \d+ demonstrations it holds$/,
      ),
    ]);
    expect(result.demoRuns).toEqual(["partial"]);
  }, 120_000);

  it("stops on the signal while the demonstrations are read back and laid out as sequences, before any training step", async () => {
    const db = join(dir, "whole-demos.db");
    await evaluate({
      env: "hanoi",
      envOptions,
      policy: "noisy-oracle:0.3",
      tasks: 6,
      samples: 10,
      bootstrap: 0,
      db,
      run: "demos",
    });
    const out = join(dir, "stopped-reading");
    const controller = new AbortController();
    controller.abort();
    const steps: number[] = [];
    const stopped = runSft({
      out,
      db,
      config: { ...config, fromRun: "demos" },
      signal: controller.signal,
      onStep: (step) => void steps.push(step),
    });
    await expect(stopped).rejects.toBeInstanceOf(StoppedError);
    await expect(stopped).rejects.toThrow(
      `stopped before SFT training (the demonstrations are kept); continue with: budgetrl sft --out ${out} --resume`,
    );
    expect(steps).toEqual([]);
    expect(existsSync(join(out, "budgetrl.json"))).toBe(false);
    const resumed = await runSft({ out, db, config: {}, resume: true });
    expect(resumed.demoRuns).toEqual(["demos"]);
    expect(existsSync(join(out, "budgetrl.json"))).toBe(true);
  }, 120_000);

  it("never continues demonstrations that were made with other settings", async () => {
    const out = join(dir, "other-settings");
    mkdirSync(out, { recursive: true });
    await evaluate({
      env: "hanoi",
      envOptions,
      policy: "noisy-oracle:0.3",
      tasks: 5,
      samples: 2,
      budgets: ["100%"],
      bootstrap: 0,
      db: join(out, "demos.db"),
      run: "demonstrations/announced",
    });
    await expect(runSft({ out, config })).rejects.toThrow(
      /demos\.db holds demonstrations made with other settings than this sft/,
    );
  });

  it("leaves every task of a held-out set's structures out of the demonstrations when the set is by structure", async () => {
    // 2- and 3-lock vaults: 5 structures (which locks are uncertain), 4 of them held out.
    const vaultOptions = { maxLocks: 3 };
    const exclude = { seed: 1, tasks: 4, by: "structure" } as const;
    const out = join(dir, "structure");
    await runSft({
      out,
      config: { ...config, env: "vault", envOptions: vaultOptions, policy: "oracle", samples: 1, steps: 1, exclude },
    });
    expect((JSON.parse(readFileSync(join(out, "sft.json"), "utf8")) as { exclude: unknown }).exclude).toEqual(exclude);
    const env = createEnv("vault", vaultOptions);
    const held = heldOutTasks(env, exclude).structures;
    const store = await openStore(join(out, "demos.db"), { readonly: true });
    const demos = (await loadTasks(store, "demonstrations/announced")).map((row) => env.tasks.decode(row.task));
    await store.close();
    expect(demos).toHaveLength(6);
    expect(held.size).toBe(4);
    expect(demos.filter((task) => held.has(env.tasks.structureKey(task)))).toEqual([]);
  }, 60_000);
});
