// The study end to end at a toy size: every stage runs, the report holds every model and kind of run, a study
// stopped in the middle of a stage and resumed gives the same tables as one run straight through (same seed),
// and resume refuses what it cannot continue.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StudyReport } from "../../src/report/study-model.js";
import { openStore } from "../../src/store/open.js";
import { loadTasks } from "../../src/store/runs.js";
import { studyConfig, type StudyChoice } from "../../src/study/config.js";
import { evalRuns, studyModels } from "../../src/study/plan.js";
import { reproduce } from "../../src/study/reproduce.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-study-"));

const toy: StudyChoice = {
  preset: "quick",
  env: "frozenlake",
  seed: 3,
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

async function storedIds(db: string, run: string): Promise<string[]> {
  const store = await openStore(db, { readonly: true });
  try {
    return (await loadTasks(store, run)).map((task) => task.id);
  } finally {
    await store.close();
  }
}

/** What must not change between runs of one study: every table and finding (not paths or clocks). */
const tables = (report: StudyReport | undefined): unknown => ({ pass: report?.passTables, budget: report?.budgetTables, steps: report?.stepQuality, recovery: report?.recovery, perturbation: report?.perturbation, horizon: report?.horizon, findings: report?.findings });

describe("reproduce", () => {
  it("plans the paper's runs: base and five RL models, each with its grid, teacher-forced and perturbed runs", () => {
    const config = studyConfig(toy);
    const models = studyModels(config, "/s");
    expect(models.map((model) => [model.name, model.role])).toEqual([
      ["base", "base"],
      ["GRPO-Full", "grpo"],
      ["GRPO-Full@25%", "other"],
      ["turn-level", "process"],
      ["BudgetMix", "budgetmix"],
      ["BudgetMix (hidden)", "budgetmix-hidden"],
    ]);
    expect(evalRuns(config, models).filter((run) => run.model.slug === "budgetmix").map((run) => run.run)).toEqual(["budgetmix/announced", "budgetmix/hidden", "budgetmix/teacher-forced", "budgetmix/perturb-1"]);
    expect(() => studyConfig({ ...toy, overrides: { ...toy.overrides, ks: "1,4" } })).toThrow(/ks: K = 4 is larger than the samples per task/);
  });

  it("runs every stage, and a study stopped in a stage resumes to the same tables", async () => {
    const straight = await reproduce({ out: join(dir, "straight"), study: toy });
    expect(straight.finished).toBe(true);
    expect(existsSync(straight.reportPath)).toBe(true);
    const report = straight.report as StudyReport;
    expect(report.models).toHaveLength(6);
    expect(report.runs.map((run) => run.kind).sort()).toEqual([...Array(12).fill("policy"), ...Array(6).fill("perturbed"), ...Array(6).fill("teacher-forced")].sort());
    expect(report.training).toHaveLength(5);
    expect(report.training.every((training) => training.overlap.heldOutSeenInTraining === 0)).toBe(true);
    expect(readFileSync(straight.reportPath, "utf8")).toContain("<html");
    // The held-out set is the tasks of every evaluation run and, its first trainEvalTasks, of the training curves.
    const heldOut = JSON.parse(readFileSync(join(dir, "straight", "held-out.json"), "utf8")) as { seed: number; tasks: number; ids: string[] };
    expect(new Set(heldOut.ids).size).toBe(6);
    expect(await storedIds(join(dir, "straight", "study.db"), "base/hidden")).toEqual(heldOut.ids);
    expect(await storedIds(join(dir, "straight", "rl", "budgetmix", "train.db"), "eval-step-2")).toEqual(heldOut.ids.slice(0, 3));

    // Stopped during the second RL run's first step, then resumed: the same tables.
    const out = join(dir, "stopped");
    const controller = new AbortController();
    let rlJobs = 0;
    const stopped = await reproduce({
      out,
      study: toy,
      signal: controller.signal,
      events: { job: (name) => void (name.startsWith("GRPO-Full") && ++rlJobs === 2 && controller.abort()), progress: () => undefined, note: () => undefined },
    });
    expect(stopped.finished).toBe(false);
    const resumed = await reproduce({ out, resume: true });
    expect(resumed.finished).toBe(true);
    expect(tables(resumed.report)).toEqual(tables(report));
  }, 600_000);

  it("refuses to start over a study or to resume where there is none", async () => {
    await expect(reproduce({ out: join(dir, "straight"), study: toy })).rejects.toThrow(/already holds a study[\s\S]*--resume/);
    await expect(reproduce({ out: join(dir, "nothing"), resume: true })).rejects.toThrow(/nothing to resume/);
    // Held-out and demonstration tasks are drawn distinct: 4-disk hanoi has 80 tasks, the quick preset needs 240.
    await expect(reproduce({ out: join(dir, "hanoi"), study: { preset: "quick", env: "hanoi" } })).rejects.toThrow(/^envOptions: hanoi disks=4 randomStart=true referenceFactor=4 has only 80 distinct tasks; the study draws 40 held-out and 200 demonstration tasks, all distinct: 240/);
    expect(existsSync(join(dir, "hanoi"))).toBe(false);
  });
});
