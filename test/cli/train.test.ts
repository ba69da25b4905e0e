import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { argvOf, cli, exitOf, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-train-"));
const model = [
  "--model",
  "layers=1",
  "--model",
  "dModel=32",
  "--model",
  "heads=2",
  "--model",
  "hiddenSize=64",
  "--model",
  "contextLength=96",
];

describe("budgetrl sft / train", () => {
  it("makes a base model, trains from it, stops and resumes, and evaluates the checkpoint", async () => {
    const base = join(dir, "base");
    const sft = await cli(
      "sft",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--env-opt",
      "randomStart=true",
      "--tasks",
      "8",
      "--samples",
      "5",
      "--steps",
      "30",
      "--batch-size",
      "16",
      "--max-new-tokens",
      "6",
      ...model,
      "--out",
      base,
      "--no-progress",
    );
    expect(sft.code).toBe(0);
    expect(sft.stdout).toMatch(/sft step 25\/30 \| loss \d+\.\d{4}/);
    expect(sft.stdout).toMatch(/trained on \d+ reply sequences of run demonstrations\/announced; final loss/);
    const out = join(dir, "run");
    const args = [
      "train",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--env-opt",
      "randomStart=true",
      "--init",
      base,
      "--algo",
      "turn",
      "--budget",
      "budgetmix:50%,100%",
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
      "--out",
      out,
      "--no-progress",
    ];
    const trained = await cli(...args);
    expect(trained.code).toBe(0);
    expect(trained.stdout).toMatch(
      /step 1\/2 \| reward -?\d+\.\d{3} \| success \d\.\d{3} \| turns [\d.]+ \| clip [\d.]+ \| kl [\d.]+ \| entropy [\d.]+ \| \d+ tok\/s \| [\d.]+ s \(rollouts [\d.]+, update [\d.]+\) \| no-gradient groups \d\/2/,
    );
    expect(trained.stdout).toContain("held-out evaluation at step 2");
    expect(trained.stdout).toContain("finished after 2 steps");
    const again = await cli(...args);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/out: .* already holds a training run[\s\S]*--resume/);
    const resumed = await cli("train", "--out", out, "--resume", "--no-progress");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("finished after 2 steps");
    const evaluated = await cli(
      "eval",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--env-opt",
      "randomStart=true",
      "--policy",
      `tiny:${out}/checkpoints/step-000002`,
      "--tasks",
      "2",
      "--samples",
      "1",
      "--db",
      join(dir, "e.db"),
      "--no-progress",
    );
    expect(evaluated.code).toBe(0);
    expect(evaluated.stdout).toContain(`policy tiny:${out}/checkpoints/step-000002`);
  }, 120_000);

  it("takes --turn-weight and --normalize-step-std into the config's algo; the retired --lambda and --step-weight are refused", async () => {
    const stored = async (name: string, ...flags: string[]): Promise<Record<string, unknown>> => {
      const out = join(dir, name);
      const result = await cli(
        "train",
        "--env",
        "hanoi",
        "--env-opt",
        "disks=2",
        "--env-opt",
        "randomStart=true",
        "--tasks-per-step",
        "1",
        "--group",
        "2",
        "--steps",
        "1",
        "--eval-every",
        "0",
        "--max-new-tokens",
        "4",
        ...model,
        ...flags,
        "--out",
        out,
        "--no-progress",
      );
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(readFileSync(join(out, "config.json"), "utf8")) as Record<string, unknown>;
    };
    expect(await stored("weight-turn", "--algo", "turn", "--turn-weight", "0.5")).toMatchObject({
      algo: { name: "turn", turnWeight: 0.5 },
    });
    expect(
      await stored("weight-gigpo", "--algo", "gigpo", "--turn-weight", "0.25", "--normalize-step-std"),
    ).toMatchObject({ algo: { name: "gigpo", turnWeight: 0.25, normalizeStepStd: true } });
    expect(await stored("weight-new", "--algo", "gigpo", "--turn-weight", "2")).toMatchObject({
      algo: { name: "gigpo", turnWeight: 2, normalizeStepStd: false },
    });
    for (const retired of ["--lambda", "--step-weight"]) {
      const refused = await cli("train", "--algo", "turn", retired, "0.5", "--out", join(dir, "weight-retired"));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${retired}: unknown option`);
      expect(existsSync(join(dir, "weight-retired"))).toBe(false);
    }
  }, 60_000);

  it("refuses bad arguments naming them", async () => {
    expect((await cli("train", "--out", join(dir, "x"), "--algo", "ppo")).stderr).toMatch(/--algo: Invalid option/);
    expect((await cli("train", "--out", join(dir, "x"), "--budget", "budgetmix:25%,zz")).stderr).toMatch(
      /budget: "zz" is not a budget/,
    );
    expect((await cli("train", "--out", join(dir, "x"), "--model", "layers")).stderr).toMatch(
      /--model: expected KEY=VALUE/,
    );
    expect((await cli("train")).stderr).toMatch(/--out: is required/);
    // The other estimator's or backend's flag: refused by the config's unions, naming the flag, in one line.
    for (const [flags, refusal] of [
      [["--turn-weight", "2"], "--turn-weight: is not read by --algo grpo"],
      [["--algo", "turn", "--normalize-step-std"], "--normalize-step-std: is not read by --algo turn"],
      [["--base-model", "m"], "--base-model: is not read by --backend tiny"],
      [["--backend-loss", "ppo"], "--backend-loss: is not read by --backend tiny"],
      [["--backend", "tinker", "--base-model", "m", "--init", "x"], "--init: is not read by --backend tinker"],
      [["--backend", "tinker", "--base-model", "m", "--model", "layers=1"], "--model: is not read by --backend tinker"],
      [["--backend", "tinker"], "--base-model: is required"],
    ] as const) {
      const refused = await cli("train", "--out", join(dir, "x"), ...flags);
      expect([refused.code, refused.stderr.trim().split("\n").length, refused.stderr]).toEqual([
        2,
        1,
        expect.stringContaining(refusal),
      ]);
    }
    expect(existsSync(join(dir, "x"))).toBe(false);
    expect((await cli("sft", "--out", join(dir, "y"), "--steps", "-1")).stderr).toMatch(/--steps: Too small/);
  });

  it("refuses an --out where a file stands before any work, in one line (not EEXIST or ENOTDIR)", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "not a folder\n");
    const cases: [string[], string][] = [
      [["sft", "--out", file], `budgetrl sft: --out: ${file} is a file, not a folder\n`],
      [["sft", "--out", file, "--resume"], `budgetrl sft: --out: ${file} is a file, not a folder\n`],
      [
        ["sft", "--out", join(file, "base")],
        `budgetrl sft: --out: cannot make ${join(file, "base")}: ${file} is a file, not a folder\n`,
      ],
      [["train", "--out", file], `budgetrl train: --out: ${file} is a file, not a folder\n`],
      [
        ["reproduce", "--out", join(file, "study")],
        `budgetrl reproduce: --out: cannot make ${join(file, "study")}: ${file} is a file, not a folder\n`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args, "--no-progress");
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toBe(message);
      expect(result.stdout, args.join(" ")).toBe("");
    }
    expect(readFileSync(file, "utf8")).toBe("not a folder\n");
  });

  it("refuses a model override it does not know or cannot build before any demonstration, naming the key", async () => {
    const known = "known: vocabSize, contextLength, layers, dModel, heads, hiddenSize, ropeTheta, normEps";
    const cases: [string[], string][] = [
      [["sft", "--model", "unknownKey=1"], `budgetrl sft: --model unknownKey: unknown model config key (${known})\n`],
      [["sft", ...model, "--model", "layerz=2"], `budgetrl sft: --model layerz: unknown model config key (${known})\n`],
      [["sft", "--model", "layers=0"], "budgetrl sft: --model layers: must be a positive integer, got 0\n"],
      [
        ["train", "--model", "unknownKey=1"],
        `budgetrl train: --model unknownKey: unknown model config key (${known})\n`,
      ],
      [["train", "--model", "heads=3"], "budgetrl train: --model heads: dModel 128 is not divisible by heads 3\n"],
    ];
    for (const [args, message] of cases) {
      const out = join(dir, "refused-model");
      const result = await cli(...args, "--out", out, "--no-progress");
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toBe(message);
      expect(existsSync(out), args.join(" ")).toBe(false);
    }
  });

  it("stops on Ctrl-C with a checkpoint of the steps done, exit 130, and the printed command finishes the run", async () => {
    const base = join(dir, "stop-base");
    expect(
      (
        await cli(
          "sft",
          "--env",
          "hanoi",
          "--env-opt",
          "disks=2",
          "--env-opt",
          "randomStart=true",
          "--tasks",
          "4",
          "--samples",
          "1",
          "--steps",
          "2",
          "--batch-size",
          "4",
          "--max-new-tokens",
          "6",
          ...model,
          "--out",
          base,
          "--no-progress",
        )
      ).code,
    ).toBe(0);
    const out = join(dir, "stopped-run");
    const child = spawnCli([
      "train",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--env-opt",
      "randomStart=true",
      "--init",
      base,
      "--tasks-per-step",
      "2",
      "--group",
      "2",
      "--steps",
      "20",
      "--eval-every",
      "0",
      "--max-new-tokens",
      "6",
      "--out",
      out,
      "--no-progress",
    ]);
    const exit = exitOf(child);
    const stderr = textMatching(child.stderr!, /continue with: .*\n/);
    const stdout = textMatching(child.stdout!, /stopped after \d+ steps/);
    await textMatching(child.stdout!, /step +1\/20 \|/);
    const sent = performance.now();
    child.kill("SIGINT");
    expect((await exit).code).toBe(130);
    expect(performance.now() - sent).toBeLessThan(1000);
    const done = Number(/stopped after (\d+) steps/.exec(await stdout)?.[1]);
    expect(done).toBeGreaterThanOrEqual(1);
    expect(done).toBeLessThan(20);
    const hint = /continue with: (budgetrl .*)\n/.exec(await stderr)?.[1] ?? "";
    expect(hint).toBe(`budgetrl train --out ${out} --resume`);
    const resumed = await cli(...argvOf(hint), "--no-progress");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("finished after 20 steps");
  }, 120_000);
});
