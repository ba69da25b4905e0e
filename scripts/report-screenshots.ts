// Screenshots of a study report for documentation: opens report.html in Debian's headless chromium (no
// network, a fresh profile), waits until every chart is drawn, and saves the page and chosen parts of it.
//
//   npx tsx scripts/report-screenshots.ts REPORT.html OUT_DIR [SELECTOR=NAME ...]
//
// Each SELECTOR=NAME pair saves the first element matching the CSS selector to OUT_DIR/NAME.png (for example
// "#budget-table=budget-table" or "#chart-pass-t-base=pass-t"); the whole page always goes to OUT_DIR/report.png.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launchChromium } from "../test/helpers/chromium.js";

async function main(args: readonly string[]): Promise<void> {
  const [report, outDir, ...parts] = args;
  if (report === undefined || outDir === undefined)
    throw new Error("usage: npx tsx scripts/report-screenshots.ts REPORT.html OUT_DIR [SELECTOR=NAME ...]");
  const wanted = parts.map((part) => {
    const at = part.lastIndexOf("=");
    if (at <= 0 || at === part.length - 1) throw new Error(`expected SELECTOR=NAME, got ${part}`);
    return { selector: part.slice(0, at), name: part.slice(at + 1) };
  });
  mkdirSync(outDir, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "budgetrl-screenshots-"));
  const context = await launchChromium(profile);
  try {
    const tab = await context.newPage();
    await tab.route(
      (url) => url.protocol !== "file:",
      (route) => route.abort(),
    );
    await tab.goto(`file://${resolve(report)}`);
    await tab.waitForFunction('document.body.getAttribute("data-charts") !== null', undefined, { timeout: 120_000 });
    const state = await tab.evaluate('document.body.getAttribute("data-charts")');
    if (state !== "rendered") throw new Error(`the report's charts did not render (${String(state)})`);
    await tab.screenshot({ path: join(outDir, "report.png"), fullPage: true });
    // The table of contents sticks to the top of the window; in a picture of one section it would cover the heading.
    await tab.addStyleTag({ content: "nav.toc { position: static !important; }" });
    for (const { selector, name } of wanted) {
      const element = tab.locator(selector).first();
      if ((await element.count()) === 0) throw new Error(`no element matches ${selector}`);
      await element.screenshot({ path: join(outDir, `${name}.png`) });
      console.log(`${selector} -> ${join(outDir, `${name}.png`)}`);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
