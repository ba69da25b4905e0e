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
const SEEDS = [1, 2, 3, 4, 5, 6];
const ENVS: PlanEnv[] = [
  { env: "vault", budgets: BUDGETS, roles: ["base", "grpo", "process", "budgetmix", "budgetmix-hidden"] },
  { env: "thinice", budgets: BUDGETS, roles: ["base", "grpo", "process", "budgetmix"] },
];

describe("defaultAnalysisPlan", () => {
  it("tests each claim on every env that has its two models, reading the ends of the budget list", () => {
    const plan = defaultAnalysisPlan(ENVS, SEEDS);
    expect(plan.claims.map((claim) => [claim.id, claim.envs, claim.a, claim.b, claim.margin])).toEqual([
      ["rl-budgets", ["vault", "thinice"], "grpo", "base", SMALLEST_EFFECT],
      ["recovery-horizon", ["vault", "thinice"], "grpo", "base", SMALLEST_EFFECT],
      ["process", ["vault", "thinice"], "process", "grpo", SMALLEST_EFFECT],
      ["budgetmix", ["vault", "thinice"], "budgetmix", "grpo", SMALLEST_EFFECT],
      ["hidden-budget", ["vault"], "budgetmix-hidden", "grpo", SMALLEST_EFFECT],
    ]);
    expect(plan.claims[0]).toMatchObject({ generous: "3x", tight: "1.25x" });
    expect(plan.smallestEffect.reason).toContain("before any run");
    // The seeds split in two before any run; the interval named, so the hash covers the method.
    expect(plan.replication).toEqual({
      halves: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    });
    expect(plan.interval).toBe("t over seeds (S - 1 df) and over tasks, in quadrature");
    expect(defaultAnalysisPlan(ENVS, [1]).replication).toBeNull();
    expect(defaultAnalysisPlan(ENVS, [1, 2, 3]).replication).toEqual({ halves: [[1, 2], [3]] });
    expect(() => checkAnalysisPlan(plan, ENVS, SEEDS)).not.toThrow();
  });

  it("leaves out a claim no env can test", () => {
    const plan = defaultAnalysisPlan([{ env: "hanoi", budgets: BUDGETS, roles: ["base", "grpo"] }], SEEDS);
    expect(plan.claims.map((claim) => claim.id)).toEqual(["rl-budgets", "recovery-horizon"]);
  });
});

describe("checkAnalysisPlan and parseAnalysisPlan", () => {
  it("refuses an env, a budget or a model the study lacks, naming where", () => {
    const plan = defaultAnalysisPlan(ENVS, SEEDS);
    const withEnv = { ...plan, claims: [{ ...plan.claims[0]!, envs: ["sokoban"] }] };
    expect(() => checkAnalysisPlan(withEnv, ENVS, SEEDS)).toThrow(/plan\.claims\.0\.envs: names sokoban/);
    const withBudget = { ...plan, claims: [{ ...plan.claims[0]!, generous: "5x" } as (typeof plan.claims)[number]] };
    expect(() => checkAnalysisPlan(withBudget, ENVS, SEEDS)).toThrow(/reads budget 5x, which vault does not have/);
    const hidden = { ...plan, claims: [{ ...plan.claims[4]!, envs: ["thinice"] }] };
    expect(() => checkAnalysisPlan(hidden, ENVS, SEEDS)).toThrow(
      /compares a budgetmix-hidden model, and thinice has none/,
    );
    expect(() =>
      checkAnalysisPlan(
        {
          ...plan,
          replication: {
            halves: [
              [1, 2, 3],
              [4, 5],
            ],
          },
        },
        ENVS,
        SEEDS,
      ),
    ).toThrow(
      /plan\.replication\.halves: must split the study's seeds \(1, 2, 3, 4, 5, 6\) in two, each seed in one half\nHINT: missing 6/,
    );
    expect(() =>
      checkAnalysisPlan(
        {
          ...plan,
          replication: {
            halves: [
              [1, 2, 3],
              [3, 4, 5, 6],
            ],
          },
        },
        ENVS,
        SEEDS,
      ),
    ).toThrow(/a seed is listed twice/);
    expect(() => checkAnalysisPlan({ ...plan, replication: null }, ENVS, SEEDS)).toThrow(/plan\.replication: is null/);
    expect(() => parseAnalysisPlan({ ...plan, version: 1, interval: "seeds, then tasks" })).toThrow(
      /plan\.version: is 1, a plan of an earlier budgetrl/,
    );
    expect(() => parseAnalysisPlan({ ...plan, smallestEffect: { value: 2, reason: "x" } })).toThrow(
      /plan\.smallestEffect\.value/,
    );
  });
});

describe("analysisPlanHash", () => {
  it("is the same whatever the key order, and changes with any value", () => {
    const plan = defaultAnalysisPlan(ENVS, SEEDS);
    const { claims, ...rest } = plan;
    const reordered = JSON.parse(JSON.stringify({ claims, ...rest })) as typeof plan;
    expect(analysisPlanHash(reordered)).toBe(analysisPlanHash(plan));
    expect(analysisPlanHash({ ...plan, level: 0.9 })).not.toBe(analysisPlanHash(plan));
    expect(
      analysisPlanHash({
        ...plan,
        replication: {
          halves: [
            [1, 3, 5],
            [2, 4, 6],
          ],
        },
      }),
    ).not.toBe(analysisPlanHash(plan));
    expect(analysisPlanHash(plan)).toMatch(/^[0-9a-f]{64}$/);
  });
});
