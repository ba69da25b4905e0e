// `budgetrl view` in Debian's headless chromium (playwright-core), on a real store (fixture.ts): open the runs list,
// open a run, filter its failed episodes, open one, step to the next with the keyboard (and back), compare two runs
// and open a task's episodes side by side; a model's markup and script stay text on the page (this test fails when
// the pages stop escaping); and the browser asks nothing of any other origin (the view works offline).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openViewSource, type ViewSource } from "../../src/view/source.js";
import { startViewServer, type ViewServer } from "../../src/view/server.js";
import { launchChromium } from "../helpers/chromium.js";
import { buildViewStore, HOSTILE_REPLIES, VIEW_RUNS } from "./fixture.js";

let source: ViewSource;
let server: ViewServer;
let browser: BrowserContext;
let tab: Page;
const elsewhere: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-view-browser-"));
  source = await openViewSource(await buildViewStore(dir));
  server = await startViewServer({
    source: source,
    port: 0,
  });
  browser = await launchChromium(join(dir, "profile"));
  tab = await browser.newPage();
  const origin = new URL(server.url).origin;
  await tab.route(
    (url) => url.origin !== origin,
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    },
  );
  tab.on("pageerror", (error) => problems.push(error.message));
  tab.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    return dialog.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await source?.store.close();
});

const outcomes = (page: Page) => page.locator("#episode-table td .tag").allTextContents();

describe("budgetrl view in a browser", () => {
  it("opens the runs list, a run, its failed episodes, one of them, and steps to the next and back", async () => {
    await tab.goto(server.url);
    await expect.poll(() => tab.locator("#runs tr[data-run]").count()).toBe(Object.keys(VIEW_RUNS).length);
    await tab.locator("#runs a", { hasText: VIEW_RUNS.weak }).click();
    await tab.waitForURL(/\/run\?id=fl-weak/);
    expect(await tab.locator("#pass-heatmap rect").count()).toBe(2 * 3);
    expect(await tab.locator("#pass-table").textContent()).toContain("K \\ T");

    await tab.locator("#episode-filters select[name=outcome]").selectOption("failure");
    await tab.waitForURL(/outcome=failure/);
    const count = Number(/(\d+) episodes/.exec((await tab.locator("#episode-count").textContent()) ?? "")?.[1]);
    expect(count).toBeGreaterThan(1);
    expect(new Set(await outcomes(tab))).not.toContain("success");

    await tab.locator("#episode-table a", { hasText: "open" }).first().click();
    await tab.waitForURL(/\/episode\?/);
    const first = tab.url();
    expect(first).toContain("in-outcome=failure");
    expect(await tab.locator("section.turn").count()).toBeGreaterThan(0);
    expect(await tab.locator(".facts .tag").first().textContent()).not.toBe("success");

    await tab.keyboard.press("j");
    await tab.waitForURL((url) => url.href !== first);
    expect(tab.url()).toContain("in-outcome=failure");
    expect(await tab.locator(".facts .tag").first().textContent()).not.toBe("success");
    await tab.keyboard.press("ArrowLeft");
    await tab.waitForURL(first);
    expect(problems).toEqual([]);
  });

  it("compares two runs: paired differences, tasks, and one task's episodes side by side", async () => {
    await tab.goto(server.url);
    await tab.locator(`input[name=run][value="${VIEW_RUNS.strong}"]`).check();
    await tab.locator(`input[name=run][value="${VIEW_RUNS.weak}"]`).check();
    await tab.locator("#compare").click();
    // The form sends the ticked runs in the list's order, newest first: the weak run is the reference.
    await tab.waitForURL(/\/compare\?run=fl-weak&run=fl-strong/);
    expect(await tab.locator("#difference-table tr").count()).toBe(1 + 2);
    await tab.locator("#compare-tasks a").first().click();
    await tab.waitForURL(/task=/);
    expect(await tab.locator("#side-table th a").allTextContents()).toEqual([VIEW_RUNS.weak, VIEW_RUNS.strong]);
    const note = (await tab.locator("#divergence-note").textContent()) ?? "";
    const turn = /part at turn (\d+)/.exec(note.replace(/\s+/g, " "))?.[1];
    expect(turn).toBeDefined();
    const row = tab.locator("#first-divergence");
    expect(await row.locator("th").first().textContent()).toBe(turn);
    expect(await row.getAttribute("class")).toBe("diverge");
    expect(problems).toEqual([]);
  });

  it("shows a model's markup and script as text: no element, no script, no dialog", async () => {
    await tab.goto(`${server.url}episode?run=${VIEW_RUNS.hostile}&task=0&budget=50%25&sample=0`);
    const text = (await tab.locator("main").textContent()) ?? "";
    for (const reply of HOSTILE_REPLIES) expect(text).toContain(reply);
    for (const id of ["injected-bold", "injected-img", "injected-div"])
      expect(await tab.locator(`#${id}`).count(), id).toBe(0);
    expect(await tab.evaluate("typeof window.__xss")).toBe("undefined");
    expect(await tab.locator("script").count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("asks nothing of any other origin", () => {
    expect(elsewhere).toEqual([]);
  });
});
