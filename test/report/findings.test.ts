// The findings as the plan says, on hand-built per-task values with known answers: each model's value is a task's
// baseline plus a fixed gain per statistic (plus, where a test asks, a gain per seed), so every paired interval is
// exact or its sign is known; the references (oracle, random) decide which statistics can move.
import { describe, expect, it } from "vitest";
import { defaultAnalysisPlan, type AnalysisPlan } from "../../src/report/analysis-plan.js";
import type { Statistic, StatisticValues } from "../../src/report/finding-measures.js";
import { formatDifference, studyFindings, type FindingInputs } from "../../src/report/findings.js";
import type { ModelRole, StudyFinding } from "../../src/report/study-model.js";

const TASKS = 30;
const BUDGETS = ["1.25x", "1.5x", "2x", "3x"];
const ENVS = ["vault", "thinice"];
const baseline = (task: number): number => 0.2 + (0.5 * ((task * 7) % 10)) / 10;

/** A gain of a model on an env, a statistic, in a seed. */
type Gain = (env: string, statistic: Statistic, seed: number) => number;

interface Model {
  readonly role: ModelRole;
  readonly gain?: Gain;
}

const key = (statistic: Statistic): string =>
  `${statistic.kind === "pass" ? `pass-${statistic.mode}` : statistic.kind}:${statistic.budget}`;

/** A gain from a table keyed "pass-announced:3x", "step-quality:1.25x", "recovery:*" (every budget), ... */
const gains =
  (table: Record<string, number>): Gain =>
  (_env, statistic) =>
    table[key(statistic)] ?? table[`${key(statistic).split(":")[0]}:*`] ?? 0;

function values(models: Record<string, Model>, seed: number): StatisticValues {
  return (model, env, statistic) => {
    const entry = models[model];
    if (entry === undefined || (statistic.kind === "recovery" && statistic.budget === "1.25x")) return new Map();
    const gain = entry.gain?.(env, statistic, seed) ?? 0;
    return new Map(Array.from({ length: TASKS }, (_, task) => [task, baseline(task) + gain] as const));
  };
}

/** References where every statistic moves (oracle 1, random 0), but those `frozen` ("vault recovery") do not. */
function references(frozen: readonly string[] = []): StatisticValues {
  return (model, env, statistic) => {
    const still = frozen.includes(`${env} ${statistic.kind}`);
    const value = model === "oracle" ? (still ? 0.1 : 1) : 0;
    return new Map(Array.from({ length: TASKS }, (_, task) => [task, value] as const));
  };
}

function inputs(
  models: Record<string, Model>,
  options: { seeds?: readonly number[]; frozen?: readonly string[] } = {},
): FindingInputs {
  return {
    models: Object.entries(models).map(([name, model]) => ({ name, role: model.role, roleSource: "given" })),
    budgets: (model) => (models[model] === undefined ? [] : BUDGETS),
    seeds: (options.seeds ?? [1, 2, 3]).map((seed) => ({ seed, values: values(models, seed) })),
    references: references(options.frozen),
    longestTasks: () => "8-10",
  };
}

const planFor = (seeds: readonly number[]): AnalysisPlan =>
  defaultAnalysisPlan(
    ENVS.map((env) => ({
      env,
      budgets: BUDGETS,
      roles: ["base", "grpo", "process", "budgetmix", ...(env === "vault" ? ["budgetmix-hidden"] : [])],
    })),
    seeds,
  );
const PLAN = planFor([1, 2, 3]);

const run = (data: FindingInputs, plan = PLAN) => studyFindings(data, { plan });
const verdicts = (findings: readonly StudyFinding[]): Record<string, string> =>
  Object.fromEntries(findings.map((finding) => [finding.id, finding.verdict]));
const byId = (findings: readonly StudyFinding[], id: string): StudyFinding =>
  findings.find((finding) => finding.id === id) as StudyFinding;

/** Models that behave as the paper says, gains in fractions. */
const PAPER: Record<string, Model> = {
  base: { role: "base" },
  "GRPO-Full": {
    role: "grpo",
    gain: gains({
      "pass-announced:3x": 0.1,
      "pass-announced:1.25x": -0.05,
      "step-quality:1.25x": -0.1,
      "recovery:*": 0.1,
      "long-tasks:*": 0.12,
    }),
  },
  "turn-level": {
    role: "process",
    gain: gains({ "step-quality:*": 0.05, "pass-announced:3x": 0.1, "pass-announced:1.25x": -0.05 }),
  },
  BudgetMix: {
    role: "budgetmix",
    gain: gains({ "pass-announced:1.25x": 0.1, "pass-announced:3x": 0.1, "pass-announced:2x": -0.02 }),
  },
  "BudgetMix (hidden)": { role: "budgetmix-hidden", gain: gains({ "pass-hidden:2x": 0.08 }) },
};

describe("studyFindings", () => {
  it("tests every claim of the default plan on both envs, pooled over seeds and envs, and supports the paper's pattern", () => {
    const { findings } = run(inputs(PAPER));
    expect(verdicts(findings)).toEqual({
      "rl-budgets": "supported",
      "recovery-horizon": "supported",
      process: "supported",
      budgetmix: "supported",
      "hidden-budget": "supported",
    });
    const rl = byId(findings, "rl-budgets");
    expect(rl.decidedBy).toBe("vault + thinice, seeds 1, 2, 3");
    expect(rl.seedAgreement).toBe("every seed agrees, on each env and pooled (3 of 3)");
    // The plan's halves (seeds 1, 2 and seed 3) each give the pooled verdict.
    expect(rl.replication).toMatchObject({
      replicated: true,
      text: "replicated: each half gives supported (seeds 1, 2 supported; seed 3 supported)",
    });
    expect(rl.replication?.halves.map((half) => [half.seeds, half.verdict])).toEqual([
      [[1, 2], "supported"],
      [[3], "supported"],
    ]);
    // Each env alone and pooled, in each seed and over all: 3 x 4 scopes.
    expect(rl.scopes.map((scope) => `${scope.scope}/${scope.seed ?? "all"}`)).toEqual([
      "vault/1",
      "vault/2",
      "vault/3",
      "vault/all",
      "thinice/1",
      "thinice/2",
      "thinice/3",
      "thinice/all",
      "vault + thinice/1",
      "vault + thinice/2",
      "vault + thinice/3",
      "vault + thinice/all",
    ]);
    const pooled = rl.scopes.at(-1);
    expect(pooled?.comparisons.map((comparison) => [comparison.key, comparison.outcome, comparison.decides])).toEqual([
      ["generous", "higher", true],
      ["tight", "lower", false],
      ["shrink", "higher", true],
    ]);
    expect(pooled?.text).toContain(
      "gain at 3x minus gain at 1.25x: +15.0 [+15.0, +15.0] points (60 tasks, 3 seeds) (gains +10.0 vs -5.0)",
    );
    expect(rl.summary).toContain("GRPO-Full falls below the base at 1.25x");
    // The hidden question is asked where BudgetMix (hidden) was trained: vault only.
    expect(byId(findings, "hidden-budget").scopes.map((scope) => scope.scope)).toEqual([
      "vault",
      "vault",
      "vault",
      "vault",
    ]);
  });

  it("calls a claim negligible when the effect it predicts is smaller than the margin, and shows the margin's alternatives", () => {
    const small: Record<string, Model> = {
      base: { role: "base" },
      "GRPO-Full": { role: "grpo", gain: gains({ "pass-announced:3x": 0.01 }) },
    };
    const rl = byId(run(inputs(small)).findings, "rl-budgets");
    expect(rl.verdict).toBe("negligible");
    expect(rl.scopes.at(-1)?.comparisons[0]?.outcome).toBe("negligible");
    // With no margin a 1-point difference whose interval excludes zero counts: the verdict is fragile, and says so.
    expect(rl.sensitivity).toContainEqual({
      alternative: "no margin (any difference whose interval excludes zero counts)",
      verdict: "supported",
    });
    expect(rl.sensitivity).toContainEqual({ alternative: "margin 6 points (twice)", verdict: "negligible" });
    expect(rl.summary).toMatch(/the same verdict under \d+ of \d+ alternatives/);
  });

  it("rejects the claims the runs contradict", () => {
    const contrary: Record<string, Model> = {
      base: { role: "base" },
      "GRPO-Full": {
        role: "grpo",
        gain: gains({ "pass-announced:1.25x": 0.2, "pass-announced:3x": 0.1, "step-quality:*": 0.1 }),
      },
      "turn-level": {
        role: "process",
        gain: gains({ "step-quality:*": -0.05, "pass-announced:1.25x": 0.2, "pass-announced:3x": 0.1 }),
      },
      BudgetMix: { role: "budgetmix", gain: gains({ "pass-announced:1.25x": 0.3, "pass-announced:3x": 0.05 }) },
      "BudgetMix (hidden)": { role: "budgetmix-hidden", gain: gains({ "pass-hidden:2x": -0.1 }) },
    };
    expect(verdicts(run(inputs(contrary)).findings)).toEqual({
      "rl-budgets": "not supported",
      "recovery-horizon": "not supported",
      process: "not supported",
      budgetmix: "not supported",
      "hidden-budget": "not supported",
    });
  });

  it("reads robustness as non-inferiority with the plan's margin: a 2-point loss keeps it, a 5-point loss refutes it", () => {
    const verdict = (loss: number): string =>
      byId(
        run(
          inputs({
            "GRPO-Full": { role: "grpo" },
            BudgetMix: { role: "budgetmix", gain: gains({ "pass-announced:1.25x": 0.1, "pass-announced:2x": loss }) },
          }),
        ).findings,
        "budgetmix",
      ).verdict;
    expect(verdict(-0.02)).toBe("supported");
    expect(verdict(-0.05)).toBe("not supported");
  });

  it("says a verdict is seed-dependent when the seeds disagree, and pools them with an interval over seeds", () => {
    // GRPO-Full gains 10 points at 3x in seed 1 and loses 10 in seed 2: pooled, the interval straddles zero.
    const flip: Record<string, Model> = {
      base: { role: "base" },
      "GRPO-Full": {
        role: "grpo",
        gain: (_env, statistic, seed) =>
          statistic.kind === "pass" && statistic.budget === "3x" ? (seed === 1 ? 0.1 : -0.1) : 0,
      },
    };
    const rl = byId(run(inputs(flip, { seeds: [1, 2] }), planFor([1, 2])).findings, "rl-budgets");
    expect(rl.seedAgreement).toMatch(
      /^not every seed gives the all-seeds verdict: vault \(all seeds: inconclusive\) seed 1 supported, seed 2 not supported;/,
    );
    expect(rl.replication?.text).toBe("does not replicate: seed 1 supported; seed 2 not supported");
    expect(rl.verdict).toBe("inconclusive");
    const generous = rl.scopes.at(-1)?.comparisons[0];
    expect(generous?.difference.seeds).toBe(2);
    expect((generous?.difference.low ?? 0) < 0 && (generous?.difference.high ?? 0) > 0).toBe(true);
  });

  it("says every seed agrees only where every seed agrees on every env, not only pooled", () => {
    // Seed 2 loses 10 points at 3x on thin ice alone; pooled with vault's +10 its gain stays, so the pooled verdict
    // of each seed is the same, but thin ice's is not.
    const thin: Record<string, Model> = {
      base: { role: "base" },
      "GRPO-Full": {
        role: "grpo",
        gain: (env, statistic, seed) =>
          statistic.kind === "pass" && statistic.budget === "3x" ? (env === "thinice" && seed === 2 ? -0.1 : 0.2) : 0,
      },
    };
    const rl = byId(run(inputs(thin)).findings, "rl-budgets");
    const pooledSeeds = rl.scopes.filter((scope) => scope.scope === "vault + thinice" && scope.seed !== null);
    expect(new Set(pooledSeeds.map((scope) => scope.verdict)).size).toBe(1);
    // Pooled over three seeds that spread this much the verdict is inconclusive, though each seed alone supports it.
    expect(rl.seedAgreement).toBe(
      "not every seed gives the all-seeds verdict: thinice (all seeds: inconclusive) seed 1 supported, seed 2 not supported, seed 3 supported; pooled (all seeds: inconclusive) seed 1 supported, seed 2 supported, seed 3 supported",
    );
  });

  it("replicates a verdict only when each declared half of the seeds gives it alone", () => {
    // Seeds 1-3 gain 12 points with the budget hidden, seeds 4-6 nothing: pooled over six seeds the gain is 6 points,
    // the halves disagree (supported, negligible), so the verdict does not replicate, whatever it is.
    const split: Record<string, Model> = {
      "GRPO-Full": { role: "grpo" },
      "BudgetMix (hidden)": {
        role: "budgetmix-hidden",
        gain: (_env, statistic, seed) =>
          statistic.kind === "pass" && statistic.mode === "hidden"
            ? seed <= 3
              ? 0.12 + 0.01 * seed
              : 0.002 * (seed - 4)
            : 0,
      },
    };
    const seeds = [1, 2, 3, 4, 5, 6];
    const hidden = byId(run(inputs(split, { seeds }), planFor(seeds)).findings, "hidden-budget");
    expect(hidden.replication?.halves.map((half) => [half.seeds, half.verdict])).toEqual([
      [[1, 2, 3], "supported"],
      [[4, 5, 6], "negligible"],
    ]);
    expect(hidden.replication?.replicated).toBe(false);
    expect(hidden.summary).toContain("does not replicate: seeds 1, 2, 3 supported; seeds 4, 5, 6 negligible");
    // The pooled interval over six seeds that disagree is wide: it covers both halves' values.
    const pooled = hidden.scopes.at(-1)?.comparisons[0]?.difference;
    expect((pooled?.low ?? 1) < 0.01 && (pooled?.high ?? 0) > 0.13).toBe(true);
  });

  it("leaves a statistic that cannot move out of the verdict, with a note, and tests the claim where it can move", () => {
    const models: Record<string, Model> = {
      base: { role: "base" },
      "GRPO-Full": { role: "grpo", gain: gains({ "step-quality:1.25x": -0.1, "recovery:*": 0.1 }) },
      "turn-level": { role: "process", gain: gains({ "step-quality:*": 0.05 }) },
    };
    const { findings, ranges } = run(inputs(models, { frozen: ["vault recovery"] }));
    const horizon = byId(findings, "recovery-horizon");
    const vaultRecovery = horizon.scopes
      .find((scope) => scope.scope === "vault" && scope.seed === null)
      ?.comparisons.find((comparison) => comparison.key === "recovery minus step");
    expect(vaultRecovery?.outcome).toBe("cannot move");
    const pooledRecovery = horizon.scopes
      .at(-1)
      ?.comparisons.find((comparison) => comparison.key === "recovery minus step");
    expect(pooledRecovery).toMatchObject({ scope: "thinice", outcome: "higher" });
    expect(
      horizon.notes.some((note) => note.startsWith("success after a forced error at 1.5x cannot move on vault")),
    ).toBe(true);
    expect(ranges).toContainEqual({
      env: "vault",
      statistic: "success after a forced error",
      budget: "2x",
      oracle: expect.closeTo(0.1, 12),
      random: 0,
      moves: false,
    });
    // Process supervision's recovery cannot decide on vault either: only thinice's enters.
    const process = byId(findings, "process").scopes.find((scope) => scope.scope === "vault" && scope.seed === null);
    expect(process?.comparisons.find((comparison) => comparison.key === "recovery")?.outcome).toBe("cannot move");
  });

  it("leaves a comparison the two models tie on every task out of the verdict, and says so", () => {
    const hidden = byId(run(inputs(PAPER)).findings, "hidden-budget");
    const pooled = hidden.scopes.at(-1);
    expect(pooled?.comparisons.map((comparison) => [comparison.key, comparison.outcome])).toEqual([
      ["pass 1.25x", "tied"],
      ["pass 1.5x", "tied"],
      ["pass 2x", "higher"],
      ["pass 3x", "tied"],
    ]);
    expect(hidden.verdict).toBe("supported");
    expect(hidden.notes[0]).toMatch(
      /^Pass@1 at 1\.25x \(hidden\): BudgetMix \(hidden\) and GRPO-Full give the same value on every task/,
    );
  });

  it("calls a claim tied, not 'no data', where every deciding comparison ties (the same value on every task)", () => {
    const same = { ...PAPER, "BudgetMix (hidden)": { role: "budgetmix-hidden" as const } };
    const hidden = byId(run(inputs(same)).findings, "hidden-budget");
    expect(hidden.verdict).toBe("tied");
    expect(hidden.scopes.every((scope) => scope.verdict === "tied")).toBe(true);
    expect(hidden.seedAgreement).toMatch(/^every seed agrees/);
  });

  it("says which roles are missing", () => {
    const { findings } = run(inputs({ "noisy-oracle:0.3": { role: "other" } }));
    expect(findings.every((finding) => finding.verdict === "no data")).toBe(true);
    expect(findings[0]?.summary).toMatch(/needs a model with role grpo and a model with role base/i);
  });

  it("formats paired differences with their intervals", () => {
    expect(formatDifference({ value: 0.0854, low: -0.01, high: 0.2, tasks: 40, n: 40 })).toBe(
      "+8.5 [-1.0, +20.0] points (40 tasks)",
    );
    expect(formatDifference({ value: 0.1, low: 0.05, high: 0.15, tasks: 200, n: 600, seeds: 3 })).toBe(
      "+10.0 [+5.0, +15.0] points (200 tasks, 3 seeds)",
    );
    expect(formatDifference({ value: null, low: null, high: null, tasks: 0, n: 0 })).toBe("no shared tasks");
  });
});
