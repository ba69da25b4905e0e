// The study report's layout in a 1280 x 900 window of Debian's headless chromium, on a small real study of six
// models (the study's own: one a checkpoint of a real training run, whose policy spec is a long path) on two envs,
// with announced and hidden budgets, a teacher-forced and a recovery run and the training curves. Nothing on the
// page is wider than the window and nothing scrolls sideways: every chart fits its section, every table fits; the
// Pass@(K,T) heatmap has a colour legend in %; every forest plot's zero line sits
// inside its axis, away from its ends. The screenshot
// lands in test-output/report-1280.png.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../../src/eval/evaluate.js";
import { renderStudyHtml } from "../../../src/report/html/render.js";
import { buildStudyReport } from "../../../src/report/study-build.js";
import type { ModelRole, StudyReport } from "../../../src/report/study-model.js";
import { train } from "../../../src/rl/train.js";
import { openStore } from "../../../src/store/open.js";
import { launchChromium } from "../../helpers/chromium.js";
import { buildStudyFixture, type FixtureEnv } from "../../helpers/study-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-layout-"));
const db = join(dir, "study.db");
const trainDir = join(dir, "runs", "rl", "budgetmix-hidden-with-a-long-folder-name");
const outputDir = fileURLToPath(new URL("../../../test-output/", import.meta.url));
const ENVS: readonly FixtureEnv[] = [
  { env: "frozenlake" },
  { env: "hanoi", envOptions: { disks: 3, randomStart: true } },
];
const ROLES: Readonly<Record<string, ModelRole>> = {
  base: "base",
  "GRPO-Full": "grpo",
  "GRPO-Full@25%": "other",
  "turn-level": "process",
  BudgetMix: "budgetmix",
  "BudgetMix (hidden)": "budgetmix-hidden",
};

let report: StudyReport;

beforeAll(async () => {
  await train({
    out: trainDir,
    config: {
      env: "frozenlake",
      backend: { kind: "tiny", modelConfig: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 } },
      steps: 2,
      tasksPerStep: 4,
      group: 2,
      evalEvery: 2,
      evalTasks: 8,
      evalSamples: 1,
      evalBudgets: ["50%", "100%"],
      checkpointEvery: 2,
      maxNewTokens: 4,
      learningRate: 5e-4,
      warmupSteps: 1,
      algo: { name: "grpo", reward: "success" },
    },
  });
  const checkpoint = readdirSync(join(trainDir, "checkpoints")).sort().at(-1) as string;
  const policies: Readonly<Record<string, string>> = {
    base: "noisy-oracle:0.5",
    "GRPO-Full": "noisy-oracle:0.3",
    "GRPO-Full@25%": "noisy-oracle:0.35",
    "turn-level": "noisy-oracle:0.25",
    BudgetMix: "noisy-oracle:0.15",
    "BudgetMix (hidden)": `tiny:${join(trainDir, "checkpoints", checkpoint)}`,
  };
  const models = Object.entries(ROLES).map(([name, role]) => ({ name, policy: policies[name] as string, role }));
  const runs = await buildStudyFixture({ db, tasks: 8, samples: 4, envs: ENVS, models });
  const study = {
    env: "frozenlake",
    tasks: 8,
    samples: 4,
    ks: [1, 2, 4],
    budgets: ["25%", "50%", "75%", "100%"],
    seed: 7,
    bootstrap: 0,
    db,
    concurrency: 4,
    now: () => new Date("2026-01-01T00:00:00Z"),
  } as const;
  await evaluate({
    ...study,
    policy: "noisy-oracle:0.5",
    run: "base-frozenlake-teacher-forced",
    intervention: "teacher-forced",
  });
  await evaluate({
    ...study,
    policy: "noisy-oracle:0.3",
    run: "GRPO-Full-frozenlake-recover-2",
    intervention: "recover:2",
  });
  const extra: Readonly<Record<string, string>> = {
    base: "base-frozenlake-teacher-forced",
    "GRPO-Full": "GRPO-Full-frozenlake-recover-2",
  };
  const selection = {
    models: [...runs].map(([name, ids]) => ({
      name,
      runs: [...ids, ...(extra[name] === undefined ? [] : [extra[name]])],
    })),
    roles: ROLES,
  };
  const store = await openStore(db, { readonly: true });
  try {
    report = await buildStudyReport(store, {
      selection,
      training: [{ name: "BudgetMix (hidden)", dir: trainDir, model: "BudgetMix (hidden)" }],
      bootstrap: 200,
      now: () => new Date("2026-01-02T00:00:00Z"),
    });
  } finally {
    await store.close();
  }
}, 180_000);

interface Box {
  readonly what: string;
  readonly left: number;
  readonly right: number;
  readonly width: number;
}

interface Layout {
  readonly rendered: string | null;
  readonly innerWidth: number;
  readonly scrollWidth: number;
  /** Elements whose box ends right of the window. */
  readonly outside: readonly Box[];
  /** Elements that scroll sideways (their content is wider than they are). */
  readonly scrolling: readonly Box[];
  /** Each chart's drawing, and the content box of its section. */
  readonly charts: readonly { readonly id: string; readonly svg: Box | null; readonly section: Box }[];
  readonly heatmapLegends: readonly { readonly id: string; readonly texts: readonly string[] }[];
  readonly forests: readonly {
    readonly id: string;
    readonly axisLeft: number;
    readonly axisRight: number;
    readonly zero: number | null;
    readonly labels: readonly string[];
  }[];
  /** Whether the chart of recovery from forced mistakes was drawn. */
  readonly recovery: boolean;
}

// Page-side code as text: the tests compile without the DOM's types.
const MEASURE = `(() => {
  const box = (element, what) => { const rect = element.getBoundingClientRect(); return { what, left: rect.left, right: rect.right, width: rect.width }; };
  const name = (element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + (typeof element.className === "string" && element.className ? "." + element.className.split(" ").join(".") : "") + " in #" + (element.closest("section")?.id ?? "-");
  const all = [...document.querySelectorAll("body *")];
  const content = (section) => {
    const style = getComputedStyle(section);
    const rect = section.getBoundingClientRect();
    const left = rect.left + parseFloat(style.paddingLeft);
    const right = rect.right - parseFloat(style.paddingRight);
    return { what: "#" + section.id, left, right, width: right - left };
  };
  return {
    rendered: document.body.getAttribute("data-charts"),
    innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    outside: all.filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5).map((element) => box(element, name(element))),
    scrolling: all.filter((element) => element.scrollWidth > element.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(element).overflowX)).map((element) => ({ ...box(element, name(element)), width: element.scrollWidth })),
    charts: [...document.querySelectorAll(".chart")].map((chart) => {
      const svg = chart.querySelector("svg, canvas");
      return { id: chart.id, svg: svg === null ? null : box(svg, chart.id), section: content(chart.closest("section")) };
    }),
    heatmapLegends: [...document.querySelectorAll("[id^=chart-heatmap-]")].map((chart) => ({ id: chart.id, texts: [...chart.querySelectorAll(".role-legend text")].map((text) => text.textContent) })),
    forests: [...document.querySelectorAll("[id^=chart-finding-]")].map((chart) => {
      const domain = [...chart.querySelectorAll(".role-axis-domain line")].map((line) => line.getBoundingClientRect()).find((rect) => rect.height === 0 && rect.width > 0);
      const zero = chart.querySelector("[class*=layer_0_marks] line");
      const xAxis = [...chart.querySelectorAll(".role-axis")].find((axis) => axis.querySelector(".role-axis-title")?.textContent.startsWith("difference"));
      return { id: chart.id, axisLeft: domain?.left ?? NaN, axisRight: domain?.right ?? NaN, zero: zero === null ? null : zero.getBoundingClientRect().left, labels: [...(xAxis?.querySelectorAll(".role-axis-label text") ?? [])].map((text) => text.textContent) };
    }),
    recovery: document.querySelector("#chart-recovery-perturbation") !== null,
  };
})()`;

/** The report as six seeds would give it: each Pass@1 cell's value spread over six seeds (a layout fixture). */
function withSixSeeds(single: StudyReport): StudyReport {
  return {
    ...single,
    budgetTables: single.budgetTables.map((table) => ({
      ...table,
      rows: table.rows.map((row) => ({
        ...row,
        seeds: row.pass1.map((cell) =>
          cell?.value === null || cell === null
            ? []
            : [1, 2, 3, 4, 5, 6].map((seed) => ({
                seed,
                pass1: Math.min(1, Math.max(0, (cell.value ?? 0) + (seed - 3.5) / 25)),
                invalid: seed === 6 ? 0.03 : 0,
              })),
        ),
      })),
    })),
  };
}

const STRIPS = `[...document.querySelectorAll("svg.seed-strip")].map((svg) => {
  const cell = svg.closest("td").getBoundingClientRect();
  const box = svg.getBoundingClientRect();
  return { dots: svg.querySelectorAll("circle").length, title: svg.querySelector("circle title").textContent, inside: box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5 };
})`;

describe("the study report at 1280 x 900", () => {
  it("has six models, a budget table with invalid replies, and findings with paired differences", () => {
    expect(report.models.map((model) => model.name)).toEqual(Object.keys(ROLES));
    expect(report.invalidReplies.map((table) => table.rows.length)).toEqual([12, 12]);
    expect(
      report.findings.filter((finding) => finding.scopes.some((scope) => scope.comparisons.length > 0)).length,
    ).toBeGreaterThanOrEqual(4);
    expect(report.notes.join("\n")).not.toContain("--role");
  });

  it("fits the window: no element wider than it, nothing scrolling sideways, every chart inside its section", async () => {
    const file = join(dir, "report.html");
    writeFileSync(file, renderStudyHtml(withSixSeeds(report)));
    const context = await launchChromium(mkdtempSync(join(tmpdir(), "budgetrl-chromium-")));
    try {
      const tab = await context.newPage();
      await tab.setViewportSize({ width: 1280, height: 900 });
      await tab.goto(`file://${file}`);
      await tab.waitForFunction('document.body.getAttribute("data-charts") !== null', undefined, { timeout: 60_000 });
      const layout = (await tab.evaluate(MEASURE)) as Layout;
      mkdirSync(outputDir, { recursive: true });
      await tab.screenshot({ path: join(outputDir, "report-1280.png"), fullPage: true });
      expect(layout.rendered).toBe("rendered");
      expect(layout.innerWidth).toBe(1280);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
      expect(layout.outside).toEqual([]);
      expect(layout.scrolling).toEqual([]);
      expect(layout.charts.length).toBeGreaterThanOrEqual(20);
      // Every Pass@1 cell of the budget tables has its strip of six seeds, inside the cell.
      const strips = (await tab.evaluate(STRIPS)) as { dots: number; title: string; inside: boolean }[];
      const cells = report.budgetTables.reduce(
        (sum, table) =>
          sum + table.rows.reduce((rows, row) => rows + row.pass1.filter((cell) => cell !== null).length, 0),
        0,
      );
      expect(strips).toHaveLength(cells);
      expect(strips.every((strip) => strip.dots === 6 && strip.inside)).toBe(true);
      expect(strips[0]?.title).toMatch(/^seed 1: Pass@1 \d+\.\d%, invalid replies \d+\.\d%$/);
      for (const chart of layout.charts) {
        expect(chart.svg, chart.id).not.toBeNull();
        expect(chart.svg?.left, chart.id).toBeGreaterThanOrEqual(chart.section.left - 0.5);
        expect(chart.svg?.right, chart.id).toBeLessThanOrEqual(chart.section.right + 0.5);
      }
      // One heatmap per env variant, each with its colour legend in %.
      expect(layout.heatmapLegends.map((legend) => legend.id)).toEqual([
        "chart-heatmap-frozenlake",
        "chart-heatmap-hanoi-disks-3-randomstart-true",
      ]);
      for (const legend of layout.heatmapLegends)
        expect(legend.texts).toEqual(expect.arrayContaining(["Pass@(K,T) (%)", "0", "100"]));
      // Every forest plot's axis holds zero, with the dashed zero line inside it, away from its ends.
      expect(layout.forests.length).toBeGreaterThanOrEqual(4);
      for (const forest of layout.forests) {
        expect(forest.zero, forest.id).not.toBeNull();
        expect(forest.zero as number, forest.id).toBeGreaterThan(forest.axisLeft + 2);
        expect(forest.zero as number, forest.id).toBeLessThan(forest.axisRight - 2);
        expect(
          forest.labels.map((label) => Number(label.replace("\u2212", "-"))),
          forest.id,
        ).toContain(0);
      }
      // The recovery chart shows success after a forced mistake on a fixed 0-100% axis.
      expect(report.perturbation[0]?.cells.find((cell) => cell.budget === "pooled")?.recovery.value).not.toBeNull();
      expect(layout.recovery).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);
});
