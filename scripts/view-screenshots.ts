// Pictures of `budgetrl view` for the docs, from a real store or study folder: the view served as the command serves
// it (read-only, loopback), its pages opened in Debian's headless chromium (no network, a fresh profile, a 1300 x 900
// window) and saved: the runs list, a run's page and its failed episodes, an episode that ran out of turns, turn by
// turn, and two runs compared with one task's episodes side by side.
//
//   npx tsx scripts/view-screenshots.ts STORE_OR_STUDY OUT_DIR [--run RUN] [--compare RUN,RUN]
//
// Without --run, the run with the most episodes among those without an intervention; without --compare, the first
// run after it (in the list's order) on the same env and budgets, and that run. Saves OUT_DIR/view-runs.png,
// view-run.png, view-episodes.png, view-episode.png and view-compare.png.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { compareUrl, runUrl, runsUrl } from "../src/report/view-links.js";
import { runOutcomeCounts, runRecords } from "../src/store/run-list.js";
import { runFacts, type RunFacts } from "../src/view/run-facts.js";
import { openViewSource } from "../src/view/source.js";
import { startViewServer } from "../src/view/server.js";
import type { Store } from "../src/store/store.js";
import { launchChromium } from "../test/helpers/chromium.js";

const budgetsOf = (facts: RunFacts): string => facts.config?.budgets.map((spec) => spec.label).join(",") ?? "";

/** The run to show and the two to compare, as the header says. */
async function chosenRuns(
  store: Store,
  run: string | undefined,
  compare: string | undefined,
): Promise<{ run: string; compare: [string, string] }> {
  const all = (await runRecords(store)).map(runFacts).filter((facts) => facts.config !== null);
  const plain = all.filter((facts) => facts.config!.intervention.kind === "none");
  const totals = await runOutcomeCounts(
    store,
    plain.map((facts) => facts.record.id),
  );
  const episodes = (facts: RunFacts): number =>
    (totals.get(facts.record.id)?.counts ?? []).reduce((sum, entry) => sum + entry.n, 0);
  const main = run ?? [...plain].sort((a, b) => episodes(b) - episodes(a))[0]?.record.id;
  if (main === undefined) throw new Error("the store has no run without an intervention to show");
  if (compare !== undefined) {
    const [a, b] = compare.split(",");
    if (a === undefined || b === undefined) throw new Error("--compare takes RUN,RUN");
    return { run: main, compare: [a, b] };
  }
  const facts = all.find((one) => one.record.id === main)!;
  const partner = plain.find(
    (one) => one.record.id !== main && one.record.env === facts.record.env && budgetsOf(one) === budgetsOf(facts),
  );
  if (partner === undefined) throw new Error(`no run to compare with ${main}: give --compare RUN,RUN`);
  return { run: main, compare: [partner.record.id, main] };
}

async function shot(tab: Page, url: string, path: string, wait: string): Promise<void> {
  await tab.goto(url);
  await tab.locator(wait).first().waitFor();
  await tab.screenshot({ path });
  console.log(`${url} -> ${path}`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { run: { type: "string" }, compare: { type: "string" } },
  });
  const [target, outDir] = positionals;
  if (target === undefined || outDir === undefined)
    throw new Error("usage: npx tsx scripts/view-screenshots.ts STORE_OR_STUDY OUT_DIR [--run RUN] [--compare A,B]");
  mkdirSync(outDir, { recursive: true });
  const source = await openViewSource(target);
  const server = await startViewServer({
    source: source,
    port: 0,
  });
  const profile = mkdtempSync(join(tmpdir(), "budgetrl-view-shots-"));
  const browser = await launchChromium(profile);
  try {
    const { run, compare } = await chosenRuns(source.store, values.run, values.compare);
    const base = server.url;
    const tab = await browser.newPage();
    const origin = new URL(base).origin;
    await tab.route(
      (url) => url.origin !== origin,
      (route) => route.abort(),
    );
    await shot(tab, runsUrl(base), join(outDir, "view-runs.png"), "#runs");
    await shot(tab, runUrl(base, run), join(outDir, "view-run.png"), "#pass-heatmap");
    await shot(tab, runUrl(base, run, { outcome: "failure" }), join(outDir, "view-episodes.png"), "#episode-table");
    // An episode that ran out of turns: a whole trajectory to read.
    await tab.goto(runUrl(base, run, { outcome: "truncated" }));
    await tab.locator("#episode-table a", { hasText: "open" }).first().click();
    await tab.locator("section.turn").first().waitFor();
    await tab.screenshot({ path: join(outDir, "view-episode.png") });
    console.log(`${tab.url()} -> ${join(outDir, "view-episode.png")}`);
    await tab.goto(compareUrl(base, compare));
    await tab.locator("#compare-tasks a").first().click();
    await tab.locator("#side-table").waitFor();
    await tab.locator("#side-by-side").scrollIntoViewIfNeeded();
    await tab.evaluate("document.getElementById('side-by-side').scrollIntoView()");
    await tab.screenshot({ path: join(outDir, "view-compare.png") });
    console.log(`${tab.url()} -> ${join(outDir, "view-compare.png")}`);
  } finally {
    await browser.close();
    await server.close();
    await source.store.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
