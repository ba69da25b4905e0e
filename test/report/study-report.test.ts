// The study report end to end on real runs: scripted policies standing in for the paper's models on sokoban,
// frozenlake and hanoi (announced and hidden budgets), a teacher-forced and a perturbed run derived from them,
// a run whose names and replies are hostile HTML, and a small real training run. Checks the data model, then
// opens the HTML in Debian's headless chromium: no console error, every chart drawn, no network, nothing
// injected. The screenshot lands in test-output/report.png.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import { policyFromFunction } from "../../src/core/policy.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { storedRunOutcomes, tableFor } from "../../src/eval/table.js";
import { parseEvalConfig } from "../../src/eval/config.js";
import { renderStudyHtml } from "../../src/report/html/render.js";
import { buildStudyReport, repeatedTaskNotes } from "../../src/report/study-build.js";
import type { StudyReport } from "../../src/report/study-model.js";
import { renderStepQualityByBudget, stepQualityByBudget } from "../../src/report/study-tables.js";
import { train } from "../../src/rl/train.js";
import { openStore } from "../../src/store/open.js";
import { getRun } from "../../src/store/runs.js";
import { deriveRun } from "../helpers/derived-runs.js";
import { launchChromium } from "../helpers/chromium.js";
import { buildStudyFixture, fixtureRoles } from "../helpers/study-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-study-"));
const db = join(dir, "runs.db");
const trainDir = join(dir, "grpo-train");
const HOSTILE = `</script><img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`;
const outputDir = fileURLToPath(new URL("../../test-output/", import.meta.url));

interface PageState {
  readonly charts: string | null;
  readonly title: string;
  readonly images: number;
  readonly scripts: number;
  readonly containers: readonly { readonly id: string; readonly rendered: string | null; readonly drawn: boolean }[];
  readonly text: string;
}

let models: Map<string, string[]>;
let teacherEpisodes: readonly Episode[];
let report: StudyReport;

beforeAll(async () => {
  models = await buildStudyFixture({ db, tasks: 10, samples: 4 });
  // Teacher-forced: the base policy answers on the expert's states (its replies judged, the expert's played);
  // recovery at turn 2: the expert plays turn 1, one non-optimal action is forced at turn 2, then the GRPO
  // stand-in plays on.
  const study = {
    env: "sokoban",
    tasks: 10,
    samples: 4,
    ks: [1, 2, 4],
    budgets: ["25%", "50%", "75%", "100%"],
    seed: 7,
    bootstrap: 0,
    db,
    concurrency: 4,
    now: () => new Date("2026-01-01T00:00:00Z"),
  } as const;
  teacherEpisodes = (
    await evaluate({
      ...study,
      policy: "noisy-oracle:0.5",
      run: "base-sokoban-teacher",
      intervention: "teacher-forced",
      keepEpisodes: true,
    })
  ).episodes;
  await evaluate({
    ...study,
    policy: "noisy-oracle:0.3",
    run: "GRPO-Full-sokoban-perturbed-2",
    intervention: "recover:2",
  });
  // The comparisons of finding 2 read both models on the same expert states: GRPO-Full teacher-forced, the base
  // recovering from the same forced errors.
  await evaluate({
    ...study,
    policy: "noisy-oracle:0.3",
    run: "GRPO-Full-sokoban-teacher",
    intervention: "teacher-forced",
  });
  await evaluate({ ...study, policy: "noisy-oracle:0.5", run: "base-sokoban-perturbed-2", intervention: "recover:2" });
  // Hostile text in a run name, a policy name, a config and every reply.
  const agent = policyFromFunction(HOSTILE, () => HOSTILE);
  await evaluate({
    env: "sokoban",
    policy: agent,
    tasks: 3,
    samples: 1,
    ks: [1],
    budgets: ["25%", "100%"],
    seed: 7,
    bootstrap: 0,
    db,
    run: "hostile-source",
    now: () => new Date(0),
  });
  await deriveRun(db, "hostile-source", {
    id: `evil${HOSTILE}`,
    policy: HOSTILE,
    config: { note: HOSTILE },
    change: (episode) => episode,
  });
  await train({
    out: trainDir,
    config: {
      env: "frozenlake",
      backend: { kind: "tiny", modelConfig: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 } },
      steps: 4,
      tasksPerStep: 4,
      group: 2,
      evalEvery: 2,
      evalTasks: 8,
      evalSamples: 1,
      evalBudgets: ["50%", "100%"],
      checkpointEvery: 4,
      maxNewTokens: 4,
      learningRate: 5e-4,
      warmupSteps: 1,
      algo: { name: "grpo", reward: "success" },
    },
  });
  const selection = {
    models: [
      ...[...models].map(([name, runs]) => ({
        name,
        runs: [
          ...runs,
          ...(name === "base"
            ? ["base-sokoban-teacher", "base-sokoban-perturbed-2"]
            : name === "GRPO-Full"
              ? ["GRPO-Full-sokoban-perturbed-2", "GRPO-Full-sokoban-teacher"]
              : []),
        ],
      })),
      { name: `Evil ${HOSTILE}`, runs: [`evil${HOSTILE}`] },
    ],
    roles: fixtureRoles(),
  };
  const store = await openStore(db, { readonly: true });
  try {
    report = await buildStudyReport(store, {
      selection,
      training: [{ name: "GRPO-Full", dir: trainDir, model: "GRPO-Full" }],
      bootstrap: 200,
      now: () => new Date("2026-01-02T00:00:00Z"),
    });
  } finally {
    await store.close();
  }
}, 120_000);

describe("the study report's data", () => {
  it("names models, roles and run kinds, and survives a JSON round trip unchanged", () => {
    expect(report.models.map((model) => [model.name, model.role])).toEqual([
      ["base", "base"],
      ["GRPO-Full", "grpo"],
      ["turn-level", "process"],
      ["BudgetMix", "budgetmix"],
      [`Evil ${HOSTILE}`, "other"],
    ]);
    expect(report.runs.find((run) => run.id === "base-sokoban-teacher")?.kind).toBe("teacher-forced");
    expect(report.runs.find((run) => run.id === "GRPO-Full-sokoban-perturbed-2")).toMatchObject({
      kind: "perturbed",
      perturbTurn: 2,
    });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("gives the same Pass@(K,T) values as the stored run's own table", async () => {
    const store = await openStore(db, { readonly: true });
    try {
      for (const run of ["base-sokoban-announced", "BudgetMix-frozenlake-hidden"]) {
        const config = parseEvalConfig((await getRun(store, run)).config);
        const own = tableFor(config, await storedRunOutcomes(store, run, config));
        const table = report.passTables.find((entry) => entry.runs.includes(run));
        expect(table?.cells.map((cells) => cells.map((cell) => cell.value))).toEqual(
          own.cells.map((cells) => cells.map((cell) => cell.value)),
        );
      }
    } finally {
      await store.close();
    }
  });

  it("holds the budget table, every analysis and the training curves", () => {
    const sokoban = report.budgetTables.find((table) => table.variant === "sokoban");
    expect(sokoban?.budgets).toEqual(["25%", "50%", "75%", "100%"]);
    expect(sokoban?.k).toBe(4);
    expect(sokoban?.rows.map((row) => `${row.model}/${row.mode}`)).toEqual([
      "base/announced",
      "base/hidden",
      "GRPO-Full/announced",
      "GRPO-Full/hidden",
      "turn-level/announced",
      "turn-level/hidden",
      "BudgetMix/announced",
      "BudgetMix/hidden",
      `Evil ${HOSTILE}/announced`,
    ]);
    // The hostile run has K = 1 only: its Pass@K cells stay empty.
    expect(sokoban?.rows.at(-1)?.passK.every((cell) => cell === null)).toBe(true);
    // Teacher-forced step quality: each task's share of judged replies in the optimal set, averaged over tasks.
    const teacher = report.stepQuality.find((entry) => entry.model === "base" && entry.source === "teacher-forced");
    const perTask = new Map<number, { optimal: number; total: number }>();
    for (const episode of teacherEpisodes) {
      let sums = perTask.get(episode.taskIndex);
      if (sums === undefined) perTask.set(episode.taskIndex, (sums = { optimal: 0, total: 0 }));
      for (const turn of episode.turns) {
        sums.total += 1;
        if (turn.forced?.policyOptimal === true) sums.optimal += 1;
      }
    }
    const expected = [...perTask.values()].reduce((sum, sums) => sum + sums.optimal / sums.total, 0) / perTask.size;
    expect(teacher?.overall.value).toBeCloseTo(expected, 12);
    expect(expected).toBeGreaterThan(0.4);
    expect(expected).toBeLessThan(0.95);
    const own = report.stepQuality.find(
      (entry) =>
        entry.model === "base" && entry.env === "sokoban" && entry.mode === "announced" && entry.source === "self",
    );
    expect(own?.overall.value).toBeLessThan(0.9);
    expect(
      report.recovery
        .find((entry) => entry.model === "BudgetMix" && entry.env === "hanoi")
        ?.perBudget.map((cells) => cells.budget),
    ).toEqual(["25%", "50%", "75%", "100%"]);
    expect(report.horizon.find((entry) => entry.env === "hanoi")?.byLength.at(-1)?.bins.length).toBeGreaterThan(1);
    // At 25% (exactly the optimal length) one forced non-optimal move makes success impossible: every episode
    // after a forced error fails; with room to spare some recover.
    const perturbation = report.perturbation[0];
    const tight = perturbation?.cells.find((cell) => cell.budget === "25%");
    expect(tight?.episodes).toBeGreaterThan(0);
    expect(tight?.recovery.value).toBe(0);
    expect(perturbation?.cells.find((cell) => cell.budget === "100%")?.recovery.value).toBeGreaterThan(0);
    const training = report.training[0];
    expect(training?.steps.map((step) => step.step)).toEqual([0, 1, 2, 3]);
    expect([...new Set(training?.evals.map((point) => point.step))]).toEqual([0, 2, 4]);
    expect(training?.overlap).toMatchObject({
      trainingTasks: expect.any(Number),
      heldOutTasks: 8,
      heldOutSeenInTraining: expect.any(Number),
    });
    expect(training?.overlap.studyRuns.map((run) => run.run)).toContain("base-frozenlake-announced");
  });

  it("tabulates teacher-forced step quality per model, budget and mode, as the overall step quality splits it", () => {
    const [table] = stepQualityByBudget(report);
    const teacher = report.stepQuality.find((entry) => entry.model === "base" && entry.source === "teacher-forced");
    const row = table?.rows.find((candidate) => candidate.model === "base");
    expect(table?.env).toBe(teacher?.env);
    expect(row?.overall).toEqual(teacher?.overall);
    expect(row?.cells).toEqual(
      table?.budgets.map((budget) => teacher?.byBudget.find((cell) => cell.budget === budget)?.estimate ?? null),
    );
    expect(renderStepQualityByBudget(report)).toContain(`Step quality on the expert's states, ${table?.env}`);
    expect(renderStudyHtml(report).includes(`states, ${table?.env}</h3>`)).toBe(true);
  });

  it("checks every finding and shows the replies", () => {
    expect(report.findings.map((finding) => finding.id)).toEqual([
      "rl-budgets",
      "recovery-horizon",
      "process",
      "budgetmix",
      "hidden-budget",
    ]);
    // Every finding the fixture's roles can test has data; the hidden-budget question needs a BudgetMix trained on
    // hidden budgets, which the fixture has not, and says so.
    for (const finding of report.findings.filter((entry) => entry.id !== "hidden-budget"))
      expect(finding.verdict).not.toBe("no data");
    expect(report.findings.find((finding) => finding.id === "hidden-budget")?.summary).toMatch(
      /^Needs a model with role budgetmix-hidden/,
    );
    // The scripted stand-ins are better at every budget, tight ones included: no trade-off to find.
    expect(report.findings[0]?.scopes.find((scope) => scope.scope === "sokoban")?.comparisons[1]?.outcome).toBe(
      "higher",
    );
    expect(report.findings[3]?.verdict).toBe("supported");
    expect(report.examples.find((example) => example.model === `Evil ${HOSTILE}`)?.turns[0]?.reply).toBe(HOSTILE);
  });

  it("says once, not once per run, that runs sharing a task list repeat tasks", () => {
    const notes = repeatedTaskNotes([
      { run: "base/announced", tasks: 200, distinct: 137 },
      { run: "base/hidden", tasks: 200, distinct: 137 },
      { run: "grpo/announced", tasks: 200, distinct: 137 },
      { run: "grpo/hidden", tasks: 200, distinct: 137 },
      { run: "hanoi", tasks: 4, distinct: 1 },
    ]);
    expect(notes).toEqual([
      "4 runs (base/announced, base/hidden, grpo/announced, ...) list 200 tasks but only 137 distinct ones; repeated tasks played identical episodes (same seeds) and count once",
      "run hanoi lists 4 tasks but only 1 distinct one; repeated tasks played identical episodes (same seeds) and count once",
    ]);
    expect(report.notes.filter((note) => note.includes(" distinct on"))).toEqual([]);
  });
});

describe("the HTML report in headless chromium", () => {
  it("draws every chart with no console error, no network and nothing injected, and saves a screenshot", async () => {
    const page = renderStudyHtml(report);
    // The hostile text is in the page only escaped (the vega-embed bundle has its own "<img" in a template).
    expect(page.includes("<img src=x onerror")).toBe(false);
    expect(page.includes("</script><img")).toBe(false);
    expect(page.match(/<script/g)?.length).toBe(6);
    const file = join(dir, "report.html");
    writeFileSync(file, page);
    const context = await launchChromium(mkdtempSync(join(tmpdir(), "budgetrl-chromium-")));
    const problems: string[] = [];
    try {
      const tab = await context.newPage();
      tab.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning")
          problems.push(`console ${message.type()}: ${message.text()}`);
      });
      tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      tab.on("dialog", (dialog) => problems.push(`dialog: ${dialog.message()}`));
      tab.on("request", (request) => {
        if (!request.url().startsWith("file:")) problems.push(`request: ${request.url()}`);
      });
      await tab.goto(`file://${file}`);
      // Page-side code as text: the tests compile without the DOM's types.
      await tab.waitForFunction('document.body.getAttribute("data-charts") !== null', undefined, { timeout: 60_000 });
      const state = (await tab.evaluate(`({
        charts: document.body.getAttribute("data-charts"),
        title: document.title,
        images: document.querySelectorAll("img").length,
        scripts: document.querySelectorAll("script").length,
        containers: [...document.querySelectorAll(".chart")].map((element) => ({ id: element.id, rendered: element.getAttribute("data-rendered"), drawn: element.querySelector("svg, canvas") !== null })),
        text: document.body.innerText,
      })`)) as PageState;
      mkdirSync(outputDir, { recursive: true });
      await tab.screenshot({ path: join(outputDir, "report.png"), fullPage: true });
      expect(problems).toEqual([]);
      expect(state.charts).toBe("rendered");
      expect(state.containers.length).toBeGreaterThanOrEqual(20);
      expect(state.containers.filter((container) => container.rendered !== "true" || !container.drawn)).toEqual([]);
      expect(state.title).toBe("budgetrl study report");
      expect(state.images).toBe(0);
      expect(state.scripts).toBe(6);
      expect(state.text).toContain(HOSTILE);
      expect(existsSync(join(outputDir, "report.png"))).toBe(true);
      expect(readFileSync(join(outputDir, "report.png")).length).toBeGreaterThan(10_000);
    } finally {
      await context.close();
    }
  }, 120_000);
});
