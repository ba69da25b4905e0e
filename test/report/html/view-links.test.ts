// report.html given a view's address (--view-url): each Pass@1 and Pass@K cell of the budget table opens its episodes
// there, the run's episodes at that budget, or the view's list of the runs a row pools (several seeds' runs of one
// model); without the address, no link.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderStudyHtml } from "../../../src/report/html/render.js";
import { buildStudyReport } from "../../../src/report/study-build.js";
import type { StudyReport } from "../../../src/report/study-model.js";
import { openStore } from "../../../src/store/open.js";
import { buildViewStore, VIEW_RUNS } from "../../view/fixture.js";

const VIEW = "http://127.0.0.1:8400";
let report: StudyReport;

beforeAll(async () => {
  const store = await openStore(await buildViewStore(mkdtempSync(join(tmpdir(), "budgetrl-report-links-"))), {
    mode: "read",
  });
  try {
    report = await buildStudyReport(store, {
      selection: {
        runs: [VIEW_RUNS.strong],
        models: [{ name: "pooled", runs: [VIEW_RUNS.weak, VIEW_RUNS.hostile] }],
        roles: {},
      },
      bootstrap: 0,
    });
  } finally {
    await store.close();
  }
});

const links = (page: string): string[] =>
  [...page.slice(page.indexOf('id="budget-table"')).matchAll(/<td[^>]*><a href="([^"]+)"/g)].map((match) =>
    match[1]!.replace(/&amp;/g, "&"),
  );

describe("report.html with a view's address", () => {
  it("links each budget table cell to its episodes in the view", () => {
    const found = links(renderStudyHtml(report, { viewUrl: `${VIEW}/` }));
    expect(found).toContain(`${VIEW}/run?id=${VIEW_RUNS.strong}&budget=50%25#episodes`);
    expect(found).toContain(`${VIEW}/run?id=${VIEW_RUNS.strong}&budget=100%25#episodes`);
    expect(found).toContain(`${VIEW}/?run=${VIEW_RUNS.weak}&run=${VIEW_RUNS.hostile}`);
  });

  it("links nothing without one", () => {
    expect(links(renderStudyHtml(report))).toEqual([]);
  });
});
