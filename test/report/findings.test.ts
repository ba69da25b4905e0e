// The findings' verdict rules on hand-built per-task values with known answers: each model's per-task values
// are base values plus a fixed gain per metric, so every paired interval is exact.
import { describe, expect, it } from "vitest";
import { formatDifference, studyFindings, type FindingInputs, type PassScope } from "../../src/report/findings.js";
import type { ModelRole } from "../../src/report/study-model.js";

const TASKS = 20;
const BUDGETS = ["25%", "50%", "100%"];
const baseline = (task: number): number => 0.2 + (0.5 * ((task * 7) % 10)) / 10;
const values = (gain: number): Map<number, number> =>
  new Map(Array.from({ length: TASKS }, (_, task) => [task, baseline(task) + gain] as const));

/** Gains over the base model per model and metric ("pass:25%", "step", "recovery", "forced", "long"); hidden-mode
 * pass gains as "hidden:25%". */
function inputs(
  models: Record<string, { role: ModelRole; gains: Record<string, number> }>,
  options: { hidden?: boolean; teacher?: boolean; forced?: boolean } = {},
): FindingInputs {
  const gain = (model: string, metric: string): number | undefined =>
    models[model]?.gains[metric] ?? (models[model]?.role === "base" ? 0 : undefined);
  const scopeOk = (scope: PassScope): boolean =>
    "variant" in scope ? scope.variant === "sokoban" : scope.env === "sokoban";
  return {
    models: Object.entries(models).map(([name, model]) => ({ name, role: model.role })),
    variants: [{ variant: "sokoban", env: "sokoban" }],
    envs: ["sokoban"],
    budgets: (model, scope, mode) =>
      scopeOk(scope) && (mode === "announced" || options.hidden === true) && models[model] !== undefined ? BUDGETS : [],
    pass: (model, scope, mode, budget) => {
      const value = gain(model, `${mode === "hidden" ? "hidden" : "pass"}:${budget}`) ?? 0;
      return scopeOk(scope) ? values(value) : new Map();
    },
    stepQuality: (model, _env, _mode, source) =>
      source === "teacher-forced" && options.teacher !== true
        ? new Map()
        : values(gain(model, source === "teacher-forced" ? "teacher" : "step") ?? 0),
    recovery: (model) => values(gain(model, "recovery") ?? 0),
    forcedRecovery: (model) => (options.forced === true ? values(gain(model, "forced") ?? 0) : new Map()),
    lengthBins: () => [
      { key: 4, label: "4-7" },
      { key: 8, label: "8-10" },
    ],
    longTasks: (model, _env, _mode, bin) => values(bin === 8 ? (gain(model, "long") ?? 0) : 0),
  };
}

const verdicts = (list: ReturnType<typeof studyFindings>): Record<string, string> =>
  Object.fromEntries(list.map((finding) => [finding.id, finding.verdict]));

describe("studyFindings", () => {
  it("supports every finding when the runs behave as the paper says", () => {
    const findings = studyFindings(
      inputs(
        {
          base: { role: "base", gains: {} },
          "GRPO-Full": { role: "grpo", gains: { "pass:100%": 0.1, "pass:50%": 0.05, recovery: 0.1, long: 0.15 } },
          "turn-level": { role: "process", gains: { step: 0.05, "pass:100%": 0.1 } },
          BudgetMix: {
            role: "budgetmix",
            gains: { "pass:25%": 0.1, "pass:50%": 0.05, "pass:100%": 0.1, "hidden:25%": 0.05 },
          },
        },
        { hidden: true },
      ),
      { bootstrap: 200, seed: 1 },
    );
    expect(verdicts(findings)).toEqual({
      "rl-budgets": "supported",
      "recovery-horizon": "supported",
      process: "supported",
      budgetmix: "supported",
      "hidden-budget": "supported",
    });
    const rl = findings[0];
    expect(
      rl?.scopes[0]?.comparisons.map((comparison) => [comparison.metric, comparison.direction, comparison.statistic]),
    ).toEqual([
      ["Pass@(1,100%)", "higher", "difference"],
      ["Pass@(1,25%)", "unclear", "difference"],
      ["gain at 100% minus gain at 25%", "higher", "difference of differences"],
    ]);
    expect(rl?.scopes[0]?.text).toContain("Pass@(1,100%): +10.0 [+10.0, +10.0] points (20 tasks)");
    expect(rl?.scopes[0]?.text).toContain(
      "gain at 100% minus gain at 25%: +10.0 [+10.0, +10.0] points (20 tasks) (gains +10.0 vs +0.0)",
    );
    expect(rl?.scopes[0]?.text).toContain("whether GRPO-Full falls below the base at 25% is unclear");
    // The relative view: +0.1 over the base's mean success.
    const mean = [...values(0).values()].reduce((sum, value) => sum + value, 0) / TASKS;
    expect(rl?.scopes[0]?.comparisons[0]?.relative?.value).toBeCloseTo(0.1 / mean, 12);
    // The longest bin is named by the lengths it holds (8-10), as the horizon table names it, not by its edges.
    const horizon = findings.find((finding) => finding.id === "recovery-horizon");
    expect(
      horizon?.scopes[0]?.comparisons.filter((comparison) => comparison.metric.startsWith("success on the longest")),
    ).toEqual([
      expect.objectContaining({
        metric: expect.stringMatching(/^success on the longest tasks \(optimal length 8-10\)/),
      }),
    ]);
  });

  it("answers the hidden-budget question with the BudgetMix trained on hidden budgets when the study has one", () => {
    const models = {
      base: { role: "base" as const, gains: {} },
      "GRPO-Full": { role: "grpo" as const, gains: {} },
      BudgetMix: { role: "budgetmix" as const, gains: { "hidden:25%": -0.1 } },
      "BudgetMix (hidden)": { role: "budgetmix-hidden" as const, gains: { "hidden:25%": 0.1 } },
    };
    const hidden = studyFindings(inputs(models, { hidden: true }), { bootstrap: 200, seed: 1 }).find(
      (finding) => finding.id === "hidden-budget",
    );
    expect(hidden?.verdict).toBe("supported");
    expect(hidden?.scopes[0]?.text).toContain("BudgetMix (hidden) - GRPO-Full");
    const { "BudgetMix (hidden)": _dropped, ...announcedOnly } = models;
    expect(
      studyFindings(inputs(announcedOnly, { hidden: true }), { bootstrap: 200, seed: 1 }).find(
        (finding) => finding.id === "hidden-budget",
      )?.verdict,
    ).toBe("not supported");
  });

  it("rejects findings the runs contradict", () => {
    const findings = studyFindings(
      inputs(
        {
          base: { role: "base", gains: {} },
          "GRPO-Full": { role: "grpo", gains: { "pass:25%": 0.2, "pass:100%": 0.1, step: 0.1 } },
          "turn-level": { role: "process", gains: { step: -0.05 } },
          BudgetMix: { role: "budgetmix", gains: { "pass:25%": 0.1, "pass:100%": -0.05, "hidden:50%": -0.1 } },
        },
        { hidden: true },
      ),
      { bootstrap: 200, seed: 1 },
    );
    expect(verdicts(findings)).toEqual({
      "rl-budgets": "not supported",
      "recovery-horizon": "not supported",
      process: "not supported",
      budgetmix: "not supported",
      "hidden-budget": "not supported",
    });
  });

  it("says inconclusive when intervals contain zero, and prefers teacher-forced step quality", () => {
    // Noisy gains: +0.2 on even tasks, -0.2 on odd ones: mean 0, interval across zero.
    const noisy = (model: string, data: FindingInputs): FindingInputs => ({
      ...data,
      pass: (name, scope, mode, budget) =>
        name === model
          ? new Map(
              [...data.pass(name, scope, mode, budget)].map(([task, value]) => [
                task,
                value + (task % 2 === 0 ? 0.2 : -0.2),
              ]),
            )
          : data.pass(name, scope, mode, budget),
    });
    const data = noisy(
      "GRPO-Full",
      inputs(
        {
          base: { role: "base", gains: {} },
          "GRPO-Full": { role: "grpo", gains: { step: 0.2, teacher: 0, recovery: 0.1 } },
        },
        { teacher: true },
      ),
    );
    const findings = studyFindings(data, { bootstrap: 300, seed: 2 });
    expect(findings[0]?.verdict).toBe("inconclusive");
    // Teacher-forced step quality (no gain) is used, so the recovery gain makes the finding supported.
    expect(findings[1]?.scopes[0]?.comparisons[0]?.metric).toBe("step quality (teacher-forced states) at 100%");
    expect(findings[1]?.verdict).toBe("supported");
  });

  it("calls equal gains at both budgets inconclusive, not a contradiction, and says when GRPO-Full falls below the base", () => {
    const same = studyFindings(
      inputs({
        base: { role: "base", gains: {} },
        "GRPO-Full": { role: "grpo", gains: { "pass:25%": 0.1, "pass:100%": 0.1 } },
      }),
      { bootstrap: 200, seed: 1 },
    );
    expect(same[0]?.verdict).toBe("inconclusive");
    const below = studyFindings(
      inputs({
        base: { role: "base", gains: {} },
        "GRPO-Full": { role: "grpo", gains: { "pass:25%": -0.05, "pass:100%": 0.1 } },
      }),
      { bootstrap: 200, seed: 1 },
    );
    expect(below[0]?.verdict).toBe("supported");
    expect(below[0]?.scopes[0]?.text).toContain("GRPO-Full falls below the base at 25%");
  });

  it("compares recovery on the same forced-error states when both models have them, and tests claims only where the study built them", () => {
    const models = {
      base: { role: "base" as const, gains: {} },
      "GRPO-Full": { role: "grpo" as const, gains: { recovery: -0.1, forced: 0.1 } },
    };
    const forced = studyFindings(inputs(models, { forced: true }), { bootstrap: 200, seed: 1 });
    expect(forced[1]?.scopes[0]?.comparisons[1]).toMatchObject({
      metric: "success after a forced error (same states) at 100%",
      direction: "higher",
    });
    expect(forced[1]?.verdict).toBe("supported");
    const own = studyFindings(inputs(models), { bootstrap: 200, seed: 1 });
    expect(own[1]?.scopes[0]?.comparisons[1]).toMatchObject({
      metric: "success after a first error (own states) at 100%",
      direction: "lower",
    });
    const scoped = studyFindings(
      inputs(models),
      { bootstrap: 200, seed: 1 },
      { "rl-budgets": ["vault"], "recovery-horizon": ["sokoban"] },
    );
    expect(scoped[0]?.verdict).toBe("no data");
    expect(scoped[1]?.scopes.map((scope) => scope.scope)).toEqual(["sokoban"]);
  });

  it("reads BudgetMix's robustness as non-inferiority: a trivial loss within 2 points keeps it, a larger one refutes it", () => {
    const verdict = (generousGain: number): string | undefined =>
      studyFindings(
        inputs({
          "GRPO-Full": { role: "grpo", gains: {} },
          BudgetMix: { role: "budgetmix", gains: { "pass:25%": 0.1, "pass:100%": generousGain } },
        }),
        { bootstrap: 200, seed: 1 },
      ).find((finding) => finding.id === "budgetmix")?.verdict;
    expect(verdict(-0.005)).toBe("supported");
    expect(verdict(-0.05)).toBe("not supported");
    expect(verdict(0)).toBe("supported");
  });

  it("says which roles are missing, and which scopes lack data", () => {
    const findings = studyFindings(inputs({ "noisy-oracle:0.3": { role: "other", gains: {} } }), { bootstrap: 0 });
    expect(findings.every((finding) => finding.verdict === "no data")).toBe(true);
    expect(findings[0]?.summary).toMatch(/needs a model with role base and a model with role grpo/i);
    expect(findings[0]?.summary).toContain("noisy-oracle:0.3 (other)");
    const hiddenless = studyFindings(
      inputs({ "GRPO-Full": { role: "grpo", gains: {} }, BudgetMix: { role: "budgetmix", gains: {} } }),
      { bootstrap: 0 },
    );
    expect(hiddenless[4]?.verdict).toBe("no data");
    expect(hiddenless[4]?.scopes[0]?.text).toContain("needs hidden runs");
  });

  it("formats paired differences with their intervals", () => {
    expect(formatDifference({ value: 0.0854, low: -0.01, high: 0.2, tasks: 40, n: 40 })).toBe(
      "+8.5 [-1.0, +20.0] points (40 tasks)",
    );
    expect(formatDifference({ value: null, low: null, high: null, tasks: 0, n: 0 })).toBe("no shared tasks");
  });
});
