// The study end to end at a toy size, two seeds: every stage runs, the report holds every model and kind of run of
// both seeds, the plan fixed in study.json heads the findings, each claim is read per seed and pooled, a study stopped
// in the middle of a stage and resumed gives the same tables as one run straight through, and resume refuses what it
// cannot continue (a plan changed after results); a bad client option of the served base is refused before any work.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StudyReport } from "../../src/report/study-model.js";
import { studyConfig, type StudyChoice } from "../../src/study/config.js";
import { analysisPlanHash } from "../../src/report/analysis-plan.js";
import { evalRuns, rangeRuns, rlVariants, studyModels } from "../../src/study/plan.js";
import { reproduce } from "../../src/study/reproduce.js";
import { storedIds } from "../helpers/stored-ids.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-study-"));

/** A two-env design at a toy size, two seeds: an env with every RL run, one with GRPO-Full only and held-out tasks
 * new in structure. */
const toy: StudyChoice = {
  preset: "quick",
  seeds: [3, 4],
  envs: [
    {
      env: "frozenlake",
      envOptions: {},
      budgets: "1x,2x",
      variants: ["grpo-full", "grpo-tight", "turn-level", "budgetmix", "budgetmix-hidden"],
    },
    {
      env: "hanoi",
      envOptions: { disks: 3, randomStart: true },
      heldOut: "structure",
      budgets: "1x,2x",
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
  it("plans the paper's runs seed by seed and env by env: a base and its RL models, each with its grid, teacher-forced and recovery runs", () => {
    const config = studyConfig(toy);
    const models = studyModels(config, "/s");
    expect(models.map((model) => [model.seed, model.env, model.name, model.role])).toEqual(
      [3, 4].flatMap((seed) => [
        [seed, "frozenlake", "base", "base"],
        [seed, "frozenlake", "GRPO-Full", "grpo"],
        [seed, "frozenlake", "GRPO-Full@1x", "other"],
        [seed, "frozenlake", "turn-level", "process"],
        [seed, "frozenlake", "BudgetMix", "budgetmix"],
        [seed, "frozenlake", "BudgetMix (hidden)", "budgetmix-hidden"],
        [seed, "hanoi", "base", "base"],
        [seed, "hanoi", "GRPO-Full", "grpo"],
      ]),
    );
    // Every model as data: its policy and how it was made, not read back from its name.
    expect(models.slice(0, 2).map((model) => [model.policy, model.source.origin])).toEqual([
      [{ kind: "tiny", checkpoint: "/s/seed-3/frozenlake/base" }, "sft"],
      [{ kind: "tiny", checkpoint: "/s/seed-3/frozenlake/rl/grpo-full/checkpoints/step-000002" }, "rl"],
    ]);
    // The plan is made with the config, before any data: every claim on every env that has its two models.
    expect(config.plan.claims.map((claim) => [claim.id, claim.envs])).toEqual([
      ["rl-budgets", ["frozenlake", "hanoi"]],
      ["recovery-horizon", ["frozenlake", "hanoi"]],
      ["process", ["frozenlake"]],
      ["budgetmix", ["frozenlake"]],
      ["hidden-budget", ["frozenlake"]],
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
        .filter((run) => run.run.startsWith("seed-3/frozenlake/budgetmix/"))
        .map((run) => [run.run, run.budgets.join(",")]),
    ).toEqual([
      ["seed-3/frozenlake/budgetmix/announced", "1x,2x"],
      ["seed-3/frozenlake/budgetmix/teacher-forced-announced", "1x,2x"],
      ["seed-3/frozenlake/budgetmix/recover-1", "2x"],
    ]);
    // Hidden runs for the base (its competence) and the models the plan compares with the budget hidden.
    expect(
      evalRuns(config, models)
        .filter((run) => run.run.startsWith("seed-3/") && run.budgetMode === "hidden" && run.intervention === "none")
        .map((run) => run.run),
    ).toEqual([
      "seed-3/frozenlake/base/hidden",
      "seed-3/frozenlake/grpo-full/hidden",
      "seed-3/frozenlake/budgetmix-hidden/hidden",
      "seed-3/hanoi/base/hidden",
    ]);
    expect(rangeRuns(config).map((run) => run.run)).toEqual(
      ["frozenlake", "hanoi"].flatMap((env) =>
        ["oracle", "random"].flatMap((policy) => [
          `ranges/${env}/${policy}/announced`,
          `ranges/${env}/${policy}/teacher-forced-announced`,
          `ranges/${env}/${policy}/recover-1`,
        ]),
      ),
    );
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
    expect(() => studyConfig({ ...toy, seeds: [3, 3] })).toThrow(/^seeds: a seed is listed twice/);
    expect(() =>
      studyConfig({
        ...toy,
        plan: { ...config.plan, claims: [{ ...config.plan.claims[2]!, envs: ["hanoi"] }] },
      }),
    ).toThrow(/^plan\.claims\.0\.envs: process compares a process model, and hanoi has none/);
    expect(() => studyConfig({ preset: "quick", envOptions: { size: 5 } })).toThrow(/env options need one env/);
    expect(() => studyConfig({ ...toy, overrides: { ...toy.overrides, model: { layers: 1, unknownKey: 1 } } })).toThrow(
      /^model\.unknownKey: unknown model config key \(known: vocabSize, /,
    );
  });

  it("runs every stage for every seed, and a study stopped in a stage resumes to the same tables", async () => {
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
    // 2 seeds x 8 models x (a grid and a teacher-forced run per mode, 1 recovery run), 4 of the 8 hidden too.
    expect(report.runs.map((run) => run.kind).sort()).toEqual(
      [...Array(24).fill("policy"), ...Array(16).fill("perturbed"), ...Array(24).fill("teacher-forced")].sort(),
    );
    expect(report.seeds).toEqual([3, 4]);
    expect(report.training).toHaveLength(12);
    expect(report.training.map((training) => training.name)).toContain("GRPO-Full (hanoi, seed 4)");
    expect(report.models.map((model) => [model.roleSource, model.source?.origin])).toEqual([
      ["given", "sft"],
      ...Array(5).fill(["given", "rl"]),
    ]);
    expect(report.setup).toMatchObject({ trainer: "the in-process transformer, from the SFT base", skipped: [] });
    expect(report.training.every((training) => training.overlap.heldOutSeenInTraining === 0)).toBe(true);
    // The plan fixed in study.json heads the findings, with its hash.
    const stored = JSON.parse(readFileSync(join(dir, "straight", "study.json"), "utf8")) as { planHash: string };
    expect(report.plan?.hash).toBe(stored.planHash);
    expect(report.plan?.hash).toBe(analysisPlanHash(studyConfig(toy).plan));
    // Each claim on each of its envs and pooled, in each seed and over both.
    const rl = report.findings.find((finding) => finding.id === "rl-budgets");
    expect(rl?.scopes.map((scope) => `${scope.scope}/${scope.seed ?? "all"}`)).toEqual([
      "frozenlake/3",
      "frozenlake/4",
      "frozenlake/all",
      "hanoi/3",
      "hanoi/4",
      "hanoi/all",
      "frozenlake + hanoi/3",
      "frozenlake + hanoi/4",
      "frozenlake + hanoi/all",
    ]);
    expect(rl?.decidedBy).toBe("frozenlake + hanoi, seeds 3, 4");
    // The replication split fixed in the plan: each seed a half here, each read alone.
    expect(rl?.replication?.halves.map((half) => half.seeds)).toEqual([[3], [4]]);
    expect(rl?.replication?.text).toMatch(/^(replicated|does not replicate): /);
    expect(rl?.sensitivity.length).toBeGreaterThan(3);
    expect(report.ranges.some((range) => range.env === "hanoi" && range.statistic === "Pass@1")).toBe(true);
    expect(report.heldOut.map((entry) => [entry.env, entry.by])).toEqual([
      ["frozenlake", "content"],
      ["hanoi", "structure"],
    ]);
    expect(readFileSync(straight.reportPath, "utf8")).toContain("<html");
    // The held-out set is the tasks of every evaluation run of every seed and, its first trainEvalTasks, of the
    // training curves.
    const heldOut = JSON.parse(readFileSync(join(dir, "straight", "frozenlake", "held-out.json"), "utf8")) as {
      seed: number;
      tasks: number;
      ids: string[];
    };
    expect(new Set(heldOut.ids).size).toBe(6);
    expect(await storedIds(join(dir, "straight", "study.db"), "seed-3/frozenlake/base/hidden")).toEqual(heldOut.ids);
    expect(await storedIds(join(dir, "straight", "study.db"), "seed-4/frozenlake/base/hidden")).toEqual(heldOut.ids);
    expect(await storedIds(join(dir, "straight", "study.db"), "ranges/frozenlake/oracle/announced")).toEqual(
      heldOut.ids,
    );
    expect(
      await storedIds(join(dir, "straight", "seed-4", "frozenlake", "rl", "budgetmix", "train.db"), "eval-step-2"),
    ).toEqual(heldOut.ids.slice(0, 3));

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
    const resumed = await reproduce({ out, resume: true, viewUrl: "http://127.0.0.1:8400" });
    expect(resumed.finished).toBe(true);
    expect(tables(resumed.report)).toEqual(tables(report));
    // Given a view of the folder, the report written again links each budget table cell to its runs there.
    expect(readFileSync(straight.reportPath, "utf8")).not.toContain("http://127.0.0.1:8400");
    expect(readFileSync(resumed.reportPath, "utf8")).toMatch(
      /<a href="http:\/\/127\.0\.0\.1:8400\/\?run=seed-\d+%2Ffrozenlake%2Fbase%2Fannounced&amp;run=seed-\d+%2F/,
    );

    // The plan may not change once the study has results: an edited study.json is refused on resume, as is --plan.
    const path = join(out, "study.json");
    const json = JSON.parse(readFileSync(path, "utf8")) as { plan: { smallestEffect: { value: number } } };
    const plan = json.plan;
    await expect(reproduce({ out, resume: true, plan: { ...plan, level: 0.9 } })).rejects.toThrow(
      /^plan: --plan differs from the plan the study fixed at .*, and the study already has results/,
    );
    json.plan.smallestEffect.value = 0.01;
    writeFileSync(path, JSON.stringify(json));
    await expect(reproduce({ out, resume: true })).rejects.toThrow(
      /^plan: the analysis plan in .*study\.json is not the one fixed at .*, and the study already has results/,
    );
    // A study made by an earlier budgetrl (a plan of version 1: bootstrap intervals, no replication split) is refused
    // in one line that says so.
    writeFileSync(path, JSON.stringify({ ...json, plan: { ...plan, version: 1, interval: "seeds, then tasks" } }));
    await expect(reproduce({ out, resume: true })).rejects.toThrow(
      /^plan\.version: is 1, a plan of an earlier budgetrl/,
    );
  }, 900_000);

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
