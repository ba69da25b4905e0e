// The study end to end at a toy size: every stage runs, the report holds every model and kind of run, a study
// stopped in the middle of a stage and resumed gives the same tables as one run straight through (same seed),
// and resume refuses what it cannot continue; a bad client option of the served base is refused before any work.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StudyReport } from "../../src/report/study-model.js";
import { studyConfig, type StudyChoice } from "../../src/study/config.js";
import { evalRuns, rlVariants, studyModels } from "../../src/study/plan.js";
import { reproduce } from "../../src/study/reproduce.js";
import { storedIds } from "../helpers/stored-ids.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-study-"));

/** The two-env design at a toy size: a budget env with every RL run, a horizon env with GRPO-Full only. */
const toy: StudyChoice = {
  preset: "quick",
  seed: 3,
  envs: [
    {
      env: "frozenlake",
      envOptions: {},
      claims: ["rl-budgets", "process", "budgetmix", "hidden-budget"],
      budgets: "1x,2x",
      variants: ["grpo-full", "grpo-tight", "turn-level", "budgetmix", "budgetmix-hidden"],
    },
    {
      env: "hanoi",
      envOptions: { disks: 3, randomStart: true },
      claims: ["recovery-horizon"],
      budgets: "1.5x,3x",
      variants: ["grpo-full"],
    },
  ],
  overrides: {
    model: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 },
    heldOutTasks: 6,
    demoTasks: 12,
    demoSamples: 1,
    sftSteps: 6,
    rlSteps: 2,
    tasksPerStep: 2,
    group: 2,
    maxNewTokens: 4,
    trainEvalEvery: 1,
    trainEvalTasks: 3,
    samples: 2,
    ks: "1,2",
    teacherForcedSamples: 1,
    perturbTurns: [1],
    perturbSamples: 1,
    bootstrap: 50,
  },
};

/** What must not change between runs of one study: every table and finding (not paths or clocks). */
const tables = (report: StudyReport | undefined): unknown => ({
  pass: report?.passTables,
  budget: report?.budgetTables,
  steps: report?.stepQuality,
  recovery: report?.recovery,
  perturbation: report?.perturbation,
  horizon: report?.horizon,
  findings: report?.findings,
});

describe("reproduce", () => {
  it("plans the paper's runs env by env: a base and its RL models, each with its grid, teacher-forced and recovery runs", () => {
    const config = studyConfig(toy);
    const models = studyModels(config, "/s");
    expect(models.map((model) => [model.env, model.name, model.role])).toEqual([
      ["frozenlake", "base", "base"],
      ["frozenlake", "GRPO-Full", "grpo"],
      ["frozenlake", "GRPO-Full@1x", "other"],
      ["frozenlake", "turn-level", "process"],
      ["frozenlake", "BudgetMix", "budgetmix"],
      ["frozenlake", "BudgetMix (hidden)", "budgetmix-hidden"],
      ["hanoi", "base", "base"],
      ["hanoi", "GRPO-Full", "grpo"],
    ]);
    // Every model as data: its policy and how it was made, not read back from its name.
    expect(models.slice(0, 2).map((model) => [model.policy, model.source.origin])).toEqual([
      [{ kind: "tiny", checkpoint: "/s/frozenlake/base" }, "sft"],
      [{ kind: "tiny", checkpoint: "/s/frozenlake/rl/grpo-full/checkpoints/step-000002" }, "rl"],
    ]);
    expect(() => studyConfig({ ...toy, base: { kind: "openai", model: "m" } })).toThrow(
      /^base: openai:m has no weights the in-process trainer \(trainer: tiny\) can train/,
    );
    expect(() => studyConfig({ ...toy, trainer: { kind: "tinker", baseModel: "m" }, base: { kind: "sft" } })).toThrow(
      /^base: sft makes an in-process model/,
    );
    expect(studyConfig({ ...toy, trainer: { kind: "tinker", baseModel: "m" } }).base).toEqual({ kind: "tinker" });
    expect(
      evalRuns(config, models)
        .filter((run) => run.model.slug === "budgetmix")
        .map((run) => [run.run, run.budgets.join(",")]),
    ).toEqual([
      ["frozenlake/budgetmix/announced", "1x,2x"],
      ["frozenlake/budgetmix/hidden", "1x,2x"],
      ["frozenlake/budgetmix/teacher-forced-announced", "1x,2x"],
      ["frozenlake/budgetmix/teacher-forced-hidden", "1x,2x"],
      ["frozenlake/budgetmix/recover-1", "2x"],
    ]);
    expect(rlVariants(config.envs[0]!).map((variant) => [variant.slug, variant.budget])).toEqual([
      ["grpo-full", "fixed:2x"],
      ["grpo-tight", "fixed:1x"],
      ["turn-level", "fixed:2x"],
      ["budgetmix", "budgetmix:1x,2x"],
      ["budgetmix-hidden", "budgetmix:1x,2x"],
    ]);
    expect(() => studyConfig({ ...toy, overrides: { ...toy.overrides, ks: "1,4" } })).toThrow(
      /ks: K = 4 is larger than the samples per task/,
    );
    expect(() => studyConfig({ ...toy, envs: [toy.envs![0]!, { ...toy.envs![1]!, claims: ["process"] }] })).toThrow(
      /a claim is tested in two envs/,
    );
    expect(() => studyConfig({ preset: "quick", envOptions: { size: 5 } })).toThrow(/env options need one env/);
    expect(() => studyConfig({ ...toy, overrides: { ...toy.overrides, model: { layers: 1, unknownKey: 1 } } })).toThrow(
      /^model\.unknownKey: unknown model config key \(known: vocabSize, /,
    );
  });

  it("runs every stage, and a study stopped in a stage resumes to the same tables", async () => {
    const straight = await reproduce({ out: join(dir, "straight"), study: toy });
    expect(straight.finished).toBe(true);
    expect(existsSync(straight.reportPath)).toBe(true);
    const report = straight.report as StudyReport;
    expect(report.models.map((model) => model.name)).toEqual([
      "base",
      "GRPO-Full",
      "GRPO-Full@1x",
      "turn-level",
      "BudgetMix",
      "BudgetMix (hidden)",
    ]);
    // 8 models x (2 grid + 2 teacher-forced + 1 recovery) runs.
    expect(report.runs.map((run) => run.kind).sort()).toEqual(
      [...Array(16).fill("policy"), ...Array(8).fill("perturbed"), ...Array(16).fill("teacher-forced")].sort(),
    );
    expect(report.training).toHaveLength(6);
    expect(report.models.map((model) => [model.roleSource, model.source?.origin])).toEqual([
      ["given", "sft"],
      ...Array(5).fill(["given", "rl"]),
    ]);
    expect(report.setup).toMatchObject({ trainer: "the in-process transformer, from the SFT base", skipped: [] });
    expect(report.training.every((training) => training.overlap.heldOutSeenInTraining === 0)).toBe(true);
    // Each claim is tested in the env built for it.
    expect(
      report.findings.find((finding) => finding.id === "recovery-horizon")?.scopes.map((scope) => scope.scope),
    ).toEqual(["hanoi"]);
    expect(report.findings.find((finding) => finding.id === "rl-budgets")?.scopes.map((scope) => scope.scope)).toEqual([
      "frozenlake",
    ]);
    expect(readFileSync(straight.reportPath, "utf8")).toContain("<html");
    // The held-out set is the tasks of every evaluation run and, its first trainEvalTasks, of the training curves.
    const heldOut = JSON.parse(readFileSync(join(dir, "straight", "frozenlake", "held-out.json"), "utf8")) as {
      seed: number;
      tasks: number;
      ids: string[];
    };
    expect(new Set(heldOut.ids).size).toBe(6);
    expect(await storedIds(join(dir, "straight", "study.db"), "frozenlake/base/hidden")).toEqual(heldOut.ids);
    expect(await storedIds(join(dir, "straight", "frozenlake", "rl", "budgetmix", "train.db"), "eval-step-2")).toEqual(
      heldOut.ids.slice(0, 3),
    );

    // Stopped during the second RL run's first step, then resumed: the same tables.
    const out = join(dir, "stopped");
    const controller = new AbortController();
    let rlJobs = 0;
    const stopped = await reproduce({
      out,
      study: toy,
      signal: controller.signal,
      events: {
        job: (name) => void (name.includes("GRPO-Full") && ++rlJobs === 2 && controller.abort()),
        progress: () => undefined,
        note: () => undefined,
      },
    });
    expect(stopped.finished).toBe(false);
    const resumed = await reproduce({ out, resume: true });
    expect(resumed.finished).toBe(true);
    expect(tables(resumed.report)).toEqual(tables(report));
  }, 600_000);

  it("refuses to start over a study or to resume where there is none", async () => {
    await expect(reproduce({ out: join(dir, "straight"), study: toy })).rejects.toThrow(
      /already holds a study[\s\S]*--resume/,
    );
    await expect(reproduce({ out: join(dir, "nothing"), resume: true })).rejects.toThrow(/nothing to resume/);
    // Held-out and demonstration tasks are drawn distinct: 4-disk hanoi has 80 tasks, the quick preset needs 440.
    await expect(reproduce({ out: join(dir, "hanoi"), study: { preset: "quick", env: "hanoi" } })).rejects.toThrow(
      /^envOptions: hanoi disks=4 randomStart=true referenceFactor=4 has only 80 distinct tasks; the study draws 40 held-out and 400 demonstration tasks, all distinct: 440/,
    );
    expect(existsSync(join(dir, "hanoi"))).toBe(false);
    // The served base's client options are read first, on resume too: a bad one is refused before any work.
    await expect(
      reproduce({
        out: join(dir, "reach"),
        study: toy,
        reach: { openai: { baseUrl: "http://127.0.0.1:9/v1", rpm: -1 } },
      }),
    ).rejects.toThrow(/^openai\.rpm: expected an integer from 0 to 10000000/);
    expect(existsSync(join(dir, "reach"))).toBe(false);
    await expect(
      reproduce({ out: join(dir, "straight"), resume: true, reach: { openai: { timeoutMs: 0 } } }),
    ).rejects.toThrow(/^openai\.timeoutMs: /);
  });
});
