// The analysis plan: the default one tests every claim on every env whose models it compares, with the plan's
// margins; a plan naming what the study lacks is refused naming the field; the hash ignores key order and moves with
// any change.
import { describe, expect, it } from "vitest";
import {
  analysisPlanHash,
  checkAnalysisPlan,
  defaultAnalysisPlan,
  parseAnalysisPlan,
  SMALLEST_EFFECT,
  type PlanEnv,
} from "../../src/report/analysis-plan.js";

const BUDGETS = ["1.25x", "1.5x", "2x", "3x"];
const ENVS: PlanEnv[] = [
  { env: "vault", budgets: BUDGETS, roles: ["base", "grpo", "process", "budgetmix", "budgetmix-hidden"] },
  { env: "thinice", budgets: BUDGETS, roles: ["base", "grpo", "process", "budgetmix"] },
];

describe("defaultAnalysisPlan", () => {
  it("tests each claim on every env that has its two models, reading the ends of the budget list", () => {
    const plan = defaultAnalysisPlan(ENVS);
    expect(plan.claims.map((claim) => [claim.id, claim.envs, claim.a, claim.b, claim.margin])).toEqual([
      ["rl-budgets", ["vault", "thinice"], "grpo", "base", SMALLEST_EFFECT],
      ["recovery-horizon", ["vault", "thinice"], "grpo", "base", SMALLEST_EFFECT],
      ["process", ["vault", "thinice"], "process", "grpo", SMALLEST_EFFECT],
      ["budgetmix", ["vault", "thinice"], "budgetmix", "grpo", SMALLEST_EFFECT],
      ["hidden-budget", ["vault"], "budgetmix-hidden", "grpo", SMALLEST_EFFECT],
    ]);
    expect(plan.claims[0]).toMatchObject({ generous: "3x", tight: "1.25x" });
    expect(plan.smallestEffect.reason).toContain("before any run");
    expect(() => checkAnalysisPlan(plan, ENVS)).not.toThrow();
  });

  it("leaves out a claim no env can test", () => {
    const plan = defaultAnalysisPlan([{ env: "hanoi", budgets: BUDGETS, roles: ["base", "grpo"] }]);
    expect(plan.claims.map((claim) => claim.id)).toEqual(["rl-budgets", "recovery-horizon"]);
  });
});

describe("checkAnalysisPlan and parseAnalysisPlan", () => {
  it("refuses an env, a budget or a model the study lacks, naming where", () => {
    const plan = defaultAnalysisPlan(ENVS);
    const withEnv = { ...plan, claims: [{ ...plan.claims[0]!, envs: ["sokoban"] }] };
    expect(() => checkAnalysisPlan(withEnv, ENVS)).toThrow(/plan\.claims\.0\.envs: names sokoban/);
    const withBudget = { ...plan, claims: [{ ...plan.claims[0]!, generous: "5x" } as (typeof plan.claims)[number]] };
    expect(() => checkAnalysisPlan(withBudget, ENVS)).toThrow(/reads budget 5x, which vault does not have/);
    const hidden = { ...plan, claims: [{ ...plan.claims[4]!, envs: ["thinice"] }] };
    expect(() => checkAnalysisPlan(hidden, ENVS)).toThrow(/compares a budgetmix-hidden model, and thinice has none/);
    expect(() => parseAnalysisPlan({ ...plan, smallestEffect: { value: 2, reason: "x" } })).toThrow(
      /plan\.smallestEffect\.value/,
    );
  });
});

describe("analysisPlanHash", () => {
  it("is the same whatever the key order, and changes with any value", () => {
    const plan = defaultAnalysisPlan(ENVS);
    const { claims, ...rest } = plan;
    const reordered = JSON.parse(JSON.stringify({ claims, ...rest })) as typeof plan;
    expect(analysisPlanHash(reordered)).toBe(analysisPlanHash(plan));
    expect(analysisPlanHash({ ...plan, level: 0.9 })).not.toBe(analysisPlanHash(plan));
    expect(analysisPlanHash(plan)).toMatch(/^[0-9a-f]{64}$/);
  });
});
