// Building a study report from a small store: what it tells the reader about roles, and the invalid replies
// beside the budget table. A role is what was given, never read from a model's name; the --role hint is for models
// whose role nobody gave (`budgetrl report` without --role), never for models whose roles the caller chose, as
// `reproduce` does for every model of its study (GRPO-Full@25% is "other" on purpose). The models: a noisy oracle (every reply a valid action) and a policy
// that only ever answers nonsense (every reply invalid).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { policyFromFunction } from "../../src/core/policy.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { buildStudyReport } from "../../src/report/study-build.js";
import type { StudyReport } from "../../src/report/study-model.js";
import type { StudySelection } from "../../src/report/study-runs.js";
import { renderBudgetTables } from "../../src/report/study-tables.js";
import { openStore } from "../../src/store/open.js";

const db = join(mkdtempSync(join(tmpdir(), "budgetrl-study-build-")), "runs.db");

async function reportOf(selection: StudySelection): Promise<StudyReport> {
  const store = await openStore(db, { readonly: true });
  try {
    return await buildStudyReport(store, { selection, bootstrap: 0, now: () => new Date(0) });
  } finally {
    await store.close();
  }
}

const models = [
  { name: "GRPO-Full", runs: ["grpo"] },
  { name: "mystery", runs: ["mystery"] },
];

beforeAll(async () => {
  const common = {
    env: "frozenlake",
    tasks: 4,
    samples: 2,
    ks: [1],
    budgets: ["50%", "100%"],
    seed: 3,
    bootstrap: 0,
    db,
    now: () => new Date(0),
  };
  await evaluate({ ...common, policy: "noisy-oracle:0.3", run: "grpo" });
  await evaluate({ ...common, policy: policyFromFunction("mystery", () => "I would rather not say"), run: "mystery" });
}, 60_000);

describe("role hints", () => {
  it("never point at --role when the caller gave every role, as reproduce does", async () => {
    const report = await reportOf({ models, roles: { "GRPO-Full": "grpo", mystery: "other" } });
    expect(report.models.map((model) => model.roleSource)).toEqual(["given", "given"]);
    expect(report.notes).toContain('models with role "other" take part in no finding: mystery');
    const text = [...report.notes, ...report.findings.map((finding) => finding.summary)].join("\n");
    expect(text).not.toContain("--role");
    // The finding still says what it needs.
    expect(report.findings.find((finding) => finding.id === "rl-budgets")?.summary).toBe(
      "Needs a model with role base; present: GRPO-Full (grpo), mystery (other).",
    );
  });

  it("read no role from a name: without --role every model is other, and each finding says which roles to give", async () => {
    const report = await reportOf({ models });
    expect(report.models.map((model) => [model.name, model.role, model.roleSource])).toEqual([
      ["GRPO-Full", "other", "none"],
      ["mystery", "other", "none"],
    ]);
    expect(report.notes).toContain(
      "models without a role take part in no finding: GRPO-Full, mystery (give one with --role NAME=base|grpo|process|budgetmix|budgetmix-hidden)",
    );
    const summary = (id: string): string | undefined => report.findings.find((finding) => finding.id === id)?.summary;
    expect(report.findings.every((finding) => finding.verdict === "no data")).toBe(true);
    expect(summary("rl-budgets")).toBe(
      "Needs a model with role grpo and a model with role base: give them with --role NAME=grpo --role NAME=base, NAME one of the models; present: GRPO-Full (other), mystery (other).",
    );
    expect(summary("process")).toBe(
      "Needs a model with role process and a model with role grpo: give them with --role NAME=process --role NAME=grpo, NAME one of the models; present: GRPO-Full (other), mystery (other).",
    );
  });

  it("name only the roles still missing when some are given", async () => {
    const report = await reportOf({ models, roles: { "GRPO-Full": "grpo" } });
    expect(report.models.map((model) => model.roleSource)).toEqual(["given", "none"]);
    expect(report.findings.find((finding) => finding.id === "rl-budgets")?.summary).toBe(
      "Needs a model with role base: give it with --role NAME=base, NAME one of the models; present: GRPO-Full (grpo), mystery (other).",
    );
  });
});

describe("invalid replies", () => {
  it("stand beside the budget table: same rows and budgets, the share of each model's turns it could not play", async () => {
    const report = await reportOf({ models });
    const budgetTable = report.budgetTables[0];
    const invalid = report.invalidReplies[0];
    expect(invalid?.variant).toBe(budgetTable?.variant);
    expect(invalid?.budgets).toEqual(["50%", "100%"]);
    expect(invalid?.rows.map((row) => [row.model, row.mode])).toEqual(
      budgetTable?.rows.map((row) => [row.model, row.mode]),
    );
    expect(invalid?.rows.map((row) => row.rates.map((rate) => rate?.value))).toEqual([
      [0, 0],
      [1, 1],
    ]);
    // Over the same (distinct) tasks as its Pass@1.
    expect(invalid?.rows[1]?.rates.map((rate) => rate?.tasks)).toEqual([4, 4]);
    expect(budgetTable?.rows[1]?.pass1.map((cell) => cell?.tasks)).toEqual([4, 4]);
    expect(budgetTable?.rows[1]?.pass1.map((cell) => cell?.value)).toEqual([0, 0]);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("print under the budget table in the terminal", async () => {
    const text = renderBudgetTables(await reportOf({ models }));
    const [, invalid] = text.split("Invalid replies, frozenlake");
    expect(invalid).toMatch(/GRPO-Full\s+announced\s+0\.0\s+0\.0\n/);
    expect(invalid).toMatch(/mystery\s+announced\s+100\.0\s+100\.0$/);
  });
});

describe("seeds beside the pooled value", () => {
  // One model, two seeds: in seed 1 it plays as the noisy oracle, in seed 2 it collapses to nonsense (every reply
  // invalid). The pooled row hides which seed failed; the seeds' points and the spread note show it.
  const collapsed = {
    selection: { models: [{ name: "GRPO-Full", runs: ["grpo", "mystery"] }], roles: { "GRPO-Full": "grpo" as const } },
    replicates: [
      { seed: 1, runs: ["grpo"] },
      { seed: 2, runs: ["mystery"] },
    ],
  };

  it("give every seed's Pass@1 and invalid replies per row and budget, and note a row whose seeds differ", async () => {
    const store = await openStore(db, { readonly: true });
    const report = await buildStudyReport(store, { ...collapsed, bootstrap: 0, now: () => new Date(0) }).finally(() =>
      store.close(),
    );
    const row = report.budgetTables[0]?.rows[0];
    expect(row?.seeds.map((points) => points.map((point) => [point.seed, point.invalid]))).toEqual([
      [
        [1, 0],
        [2, 1],
      ],
      [
        [1, 0],
        [2, 1],
      ],
    ]);
    // The pooled Pass@1 is the mean of the seeds'.
    const pooled = row?.pass1[1]?.value ?? NaN;
    const [first, second] = (row?.seeds[1] ?? []).map((point) => point.pass1 ?? NaN);
    expect(pooled).toBeCloseTo(((first ?? NaN) + (second ?? NaN)) / 2, 12);
    expect(report.seedSpread).toHaveLength(1);
    expect(report.seedSpread[0]).toMatchObject({ model: "GRPO-Full", mode: "announced", budgets: ["50%", "100%"] });
    expect(report.seedSpread[0]?.text).toMatch(
      /^GRPO-Full on frozenlake, budget announced: its seeds' Pass@1 differ by more than 6 points .* seed 2 0\.0% \(invalid replies 100\.0%\)\.$/,
    );
    expect(renderBudgetTables(report)).toContain(`Seeds that differ:\n- ${report.seedSpread[0]?.text}`);
  });

  it("leave the seeds out with one seed", async () => {
    const report = await reportOf({ models });
    expect(report.budgetTables[0]?.rows.every((row) => row.seeds.every((points) => points.length === 0))).toBe(true);
    expect(report.seedSpread).toEqual([]);
  });
});
