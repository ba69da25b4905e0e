import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import type { StudyReport } from "../../src/report/study-model.js";
import { buildStudyFixture } from "../helpers/study-fixture.js";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-report-cli-"));
const db = join(dir, "runs.db");

beforeAll(async () => {
  await buildStudyFixture({ db, tasks: 6, samples: 2, envs: [{ env: "sokoban" }] });
  await evaluate({
    env: "frozenlake",
    policy: "random",
    tasks: 4,
    samples: 2,
    budgets: ["50%", "100%"],
    seed: 3,
    bootstrap: 0,
    annotate: false,
    db,
    run: "plain",
    now: () => new Date(0),
  });
}, 60_000);

describe("budgetrl report", () => {
  it("writes one HTML file and prints the budget table and the findings", async () => {
    const out = join(dir, "named.html");
    const json = join(dir, "named.json");
    const result = await cli(
      "report",
      "--db",
      db,
      "--model",
      "base=base-sokoban-announced,base-sokoban-hidden",
      "--model",
      "GRPO-Full=GRPO-Full-sokoban-announced,GRPO-Full-sokoban-hidden",
      "--model",
      "mix=BudgetMix-sokoban-announced,BudgetMix-sokoban-hidden",
      "--role",
      "mix=budgetmix",
      "--role",
      "base=base",
      "--role",
      "GRPO-Full=grpo",
      "--out",
      out,
      "--json",
      json,
      "--bootstrap",
      "100",
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Budget table, sokoban");
    expect(result.stdout).toMatch(/\[(supported|not supported|inconclusive)\] BudgetMix is robust across budgets/);
    expect(result.stdout).toContain("[no data] Process supervision has benefits and limits");
    expect(result.stdout).toContain(`wrote ${out}: 3 models, 6 runs`);
    const page = readFileSync(out, "utf8");
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(page).toContain('id="budgetrl-charts"');
    const report = JSON.parse(readFileSync(json, "utf8")) as StudyReport;
    expect(report.models.map((model) => [model.name, model.role, model.roleSource])).toEqual([
      ["base", "base", "given"],
      ["GRPO-Full", "grpo", "given"],
      ["mix", "budgetmix", "given"],
    ]);
    expect(report.settings).toEqual({ bootstrap: 100, seed: 1, level: 0.95 });
  });

  it("groups --runs by policy, and takes every run of the store by default", async () => {
    const grouped = await cli(
      "report",
      "--db",
      db,
      "--runs",
      "base-sokoban-announced,base-sokoban-hidden,plain",
      "--out",
      join(dir, "grouped.html"),
      "--bootstrap",
      "0",
    );
    expect(grouped.code).toBe(0);
    expect(grouped.stdout).toContain("2 models, 3 runs");
    const everything = await cli("report", "--db", db, "--out", join(dir, "all.html"), "--bootstrap", "0");
    expect(everything.stdout).toContain("5 models, 9 runs");
    // Without --role no model has a role (none is read from a name): the findings say which roles to give.
    expect(everything.code).toBe(0);
    expect(everything.stdout).toContain(
      "[no data] Trajectory-level RL's gains depend on sufficient budgets\n  Needs a model with role grpo and a model with role base: give them with --role NAME=grpo --role NAME=base, NAME one of the models; present: random (other), noisy-oracle:0.15 (other),",
    );
  });

  it("refuses unknown runs, roles and malformed flags with a clear message", async () => {
    const missing = await cli("report", "--db", db, "--runs", "nope", "--out", join(dir, "x.html"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no run "nope"/);
    const role = await cli(
      "report",
      "--db",
      db,
      "--model",
      "a=plain",
      "--role",
      "a=teacher",
      "--out",
      join(dir, "x.html"),
    );
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/--role: unknown role "teacher"/);
    const unknownModel = await cli(
      "report",
      "--db",
      db,
      "--model",
      "a=plain",
      "--role",
      "b=base",
      "--out",
      join(dir, "x.html"),
    );
    expect(unknownModel.stderr).toMatch(/no model named "b"/);
    const malformed = await cli("report", "--db", db, "--model", "plain", "--out", join(dir, "x.html"));
    expect(malformed.stderr).toMatch(/--model: expected NAME=RUN/);
    const twice = await cli(
      "report",
      "--db",
      db,
      "--model",
      "a=plain",
      "--model",
      "b=plain",
      "--out",
      join(dir, "x.html"),
    );
    expect(twice.stderr).toMatch(/run plain is given to two models/);
  });

  it("refuses an --out or --json it cannot write before any work, in one line naming the flag, writing neither", async () => {
    const good = join(dir, "unwritten.html");
    const cases: [string[], string][] = [
      [
        ["--out", "/missing/folder/r.html"],
        "budgetrl report: --out: the folder /missing/folder does not exist: create it first, or write elsewhere\n",
      ],
      [["--out", dir], `budgetrl report: --out: ${dir} is a folder: give a file name\n`],
      [["--out", join(db, "r.html")], `budgetrl report: --out: ${db} is a file, not a folder\n`],
      [
        ["--out", good, "--json", join(dir, "missing", "r.json")],
        `budgetrl report: --json: the folder ${join(dir, "missing")} does not exist: create it first, or write elsewhere\n`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli("report", "--db", db, "--bootstrap", "0", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toBe(message);
      expect(result.stdout, args.join(" ")).toBe("");
    }
    expect(existsSync(good)).toBe(false);
  });
});

describe("budgetrl show --analyses", () => {
  it("prints the run's table and its analyses", async () => {
    const result = await cli("show", "GRPO-Full-sokoban-announced", "--db", db, "--analyses");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Pass@(K,T)");
    expect(result.stdout).toMatch(/Step quality, noisy-oracle:0\.3 on sokoban \(announced, own states\)/);
    expect(result.stdout).toContain("Natural recovery, noisy-oracle:0.3 on sokoban");
    expect(result.stdout).toContain("Horizon, noisy-oracle:0.3 on sokoban");
    const plain = await cli("show", "plain", "--db", db, "--analyses");
    expect(plain.stdout).toContain("no oracle annotations in run plain");
    const json = JSON.parse(
      (await cli("show", "GRPO-Full-sokoban-announced", "--db", db, "--analyses", "--json")).stdout,
    ) as { stepQuality: unknown[]; table: unknown };
    expect(json.stepQuality).toHaveLength(1);
    expect(json.table).toBeDefined();
  });
});
