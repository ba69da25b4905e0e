// docs/study.md's rule table is the full preset's analysis plan, rendered (scripts/plan-table.ts --write makes it):
// the docs and the code read one source, and this fails when they differ.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { planMarkdown, planRows } from "../../src/report/plan-markdown.js";
import { studyConfig } from "../../src/study/config.js";

describe("planMarkdown", () => {
  const plan = studyConfig({ preset: "full" }).plan;

  it("is docs/study.md's rule table", () => {
    const docs = readFileSync("docs/study.md", "utf8");
    const start = docs.indexOf("<!-- plan:start");
    const end = docs.indexOf("<!-- plan:end -->");
    expect(start).toBeGreaterThan(0);
    const between = docs.slice(docs.indexOf("\n", start) + 1, end).trim();
    expect(between).toBe(planMarkdown(plan).trim());
  });

  it("says each claim's models, envs, statistic, rule and margin", () => {
    const rows = planRows(plan);
    expect(rows.map((row) => row.claim.split(".")[0])).toEqual(["1", "2", "3", "4", "5"]);
    expect(rows[0]).toMatchObject({ models: "grpo - base", envs: "vault, thinice, and pooled", margin: "3 points" });
    expect(rows[0]?.statistic).toContain("at 3x and at 1.25x");
  });
});
