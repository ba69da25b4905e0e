// The view over HTTP on a real store (fixture.ts): every page answers, with a Content-Security-Policy that loads
// nothing but the view's own files; a run page's Pass@(K,T) table is the text `budgetrl show` prints; the episode
// list's filters keep what the store says; model replies reach the page only escaped; unknown runs and episodes are
// 404 pages, bad parameters 400s naming them; the view only reads (GET and HEAD; its SQLite store is opened
// read-only), answers only loopback names on loopback, and with an API key nothing without it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodeTotals } from "../../src/store/episodes.js";
import { openViewSource, type ViewSource } from "../../src/view/source.js";
import { startViewServer, type ViewServer } from "../../src/view/server.js";
import { cli } from "../cli/helpers.js";
import { buildViewStore, HOSTILE_REPLIES, VIEW_RUNS } from "./fixture.js";
import { get, unescapeHtml } from "./http.js";

let db: string;
let source: ViewSource;
let server: ViewServer;
let keyed: ViewServer;

beforeAll(async () => {
  db = await buildViewStore(mkdtempSync(join(tmpdir(), "budgetrl-view-")));
  source = await openViewSource(db);
  server = await startViewServer({ source, port: 0 });
  keyed = await startViewServer({ source, port: 0, apiKey: "k3y" });
});

afterAll(async () => {
  await server?.close();
  await keyed?.close();
  await source?.store.close();
});

const page = (path: string, headers?: Record<string, string>) => get(server.url, path, headers);
const element = (body: string, id: string): string =>
  unescapeHtml(new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</pre`).exec(body)?.[1] ?? "");

describe("budgetrl view's pages", () => {
  it("lists the runs, searched and filtered, each with Pass@1 per budget", async () => {
    const all = await page("/");
    expect(all.status).toBe(200);
    for (const run of Object.values(VIEW_RUNS)) expect(all.body).toContain(`data-run="${run}"`);
    const weak = await page("/?q=oracle%3A0.6");
    expect(weak.body).toContain(`data-run="${VIEW_RUNS.weak}"`);
    expect(weak.body).not.toContain(`data-run="${VIEW_RUNS.strong}"`);
    const bfcl = await page("/?env=bfcl");
    expect([...bfcl.body.matchAll(/data-run="([^"]+)"/g)].map((match) => match[1])).toEqual([VIEW_RUNS.bfcl]);
    const named = await page(`/?run=${VIEW_RUNS.strong}&run=${VIEW_RUNS.forced}`);
    expect([...named.body.matchAll(/data-run="([^"]+)"/g)].map((match) => match[1]).sort()).toEqual(
      [VIEW_RUNS.forced, VIEW_RUNS.strong].sort(),
    );
    expect(all.body).toMatch(/href="\/run\?id=fl-strong&amp;budget=50%25#episodes"[^>]*>\s*50%: 94\.4%/);
  });

  it("shows a run's Pass@(K,T) table as `show` prints it, with the heatmap, tasks and episodes", async () => {
    const run = await page(`/run?id=${VIEW_RUNS.strong}`);
    expect(run.status).toBe(200);
    const shown = await cli("show", VIEW_RUNS.strong, "--db", db);
    const printed = shown.stdout.slice(0, shown.stdout.indexOf("\n\nstored in"));
    expect(element(run.body, "pass-table")).toBe(printed);
    expect(run.body).toContain('id="pass-heatmap"');
    expect(run.body).toContain('id="task-table"');
    expect(run.body).toContain("36 episodes");
  });

  it("filters a run's episodes as the store counts them", async () => {
    const store = source.store;
    const totals = await episodeTotals(store, VIEW_RUNS.weak);
    const [row] = await store.sql.rows<[number]>(
      "SELECT SUM(success) FROM episodes WHERE run_id = ? AND stop_reason != 'error'",
      [VIEW_RUNS.weak],
    );
    const failures = totals.done - row![0];
    const failed = await page(`/run?id=${VIEW_RUNS.weak}&outcome=failure`);
    expect(failed.body).toContain(`${failures} episodes`);
    const halves = await page(`/run?id=${VIEW_RUNS.weak}&budget=50%25&sample=0`);
    expect(halves.body).toContain("6 episodes");
  });

  it("shows model replies only as escaped text", async () => {
    const episode = await page(`/episode?run=${VIEW_RUNS.hostile}&task=0&budget=50%25&sample=0`);
    expect(episode.status).toBe(200);
    for (const reply of HOSTILE_REPLIES) {
      expect(episode.body).not.toContain(reply);
      expect(unescapeHtml(episode.body)).toContain(reply);
    }
    expect(episode.body).not.toMatch(/<(b|img|div) id="injected/);
    expect(episode.body).not.toContain("<script>window");
    const list = await page(`/run?id=${VIEW_RUNS.hostile}`);
    expect(list.body).not.toMatch(/<(b|img|div) id="injected/);
  });

  it("answers unknown runs, episodes and pages with 404 pages, bad parameters with 400s naming them", async () => {
    for (const path of [
      "/run?id=nope",
      `/episode?run=${VIEW_RUNS.strong}&task=0&budget=50%25&sample=99`,
      "/episode?run=nope&task=0&budget=50%25&sample=0",
      "/nowhere",
    ]) {
      const answer = await page(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    }
    const bad = await page(`/run?id=${VIEW_RUNS.strong}&sample=x`);
    expect(bad.status).toBe(400);
    expect(unescapeHtml(bad.body)).toContain('query parameter "sample": expected a whole number');
    expect((await page(`/compare?run=${VIEW_RUNS.strong}`)).status).toBe(400);
    expect((await page(`/compare?run=${VIEW_RUNS.strong}&run=${VIEW_RUNS.weak}&budget=7`)).status).toBe(400);
  });

  it("sends a policy that loads only the view's own files, and serves them", async () => {
    const answer = await page("/");
    expect(answer.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.body).not.toMatch(/<script>|style="|https?:\/\/(?!www\.w3\.org)/);
    expect((await page("/assets/view.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    expect((await page("/assets/view.js")).headers["content-type"]).toBe("text/javascript; charset=utf-8");
  });
});

describe("budgetrl view only reads", () => {
  it("takes GET and HEAD only", async () => {
    const post = await get(server.url, "/", {}, "POST");
    expect(post.status).toBe(405);
    expect(post.headers["allow"]).toBe("GET, HEAD");
    const head = await get(server.url, "/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("opens an SQLite store read-only: a write through its handle is refused", async () => {
    await expect(Promise.resolve().then(() => source.store.sql.run("DELETE FROM runs"))).rejects.toThrow(/readonly/);
    expect((await page("/")).body).toContain(`data-run="${VIEW_RUNS.strong}"`);
  });

  it("answers on loopback only requests addressed to a loopback name", async () => {
    expect((await page("/", { host: "evil.example" })).status).toBe(403);
    expect((await page("/", { host: `localhost:${server.port}` })).status).toBe(200);
    expect((await page("/", { host: `[::1]:${server.port}` })).status).toBe(200);
  });

  it("with an API key, answers nothing without it; the key in the address once sets a cookie", async () => {
    const refused = await get(keyed.url, "/run?id=fl-strong");
    expect(refused.status).toBe(401);
    expect(refused.body).not.toContain(VIEW_RUNS.weak);
    expect((await get(keyed.url, "/assets/view.js")).status).toBe(401);
    const remembered = await get(keyed.url, "/run?id=fl-strong&key=k3y");
    expect(remembered.status).toBe(303);
    expect(remembered.headers["location"]).toBe("/run?id=fl-strong");
    const cookie = String(remembered.headers["set-cookie"]).split(";")[0]!;
    expect((await get(keyed.url, "/run?id=fl-strong", { cookie })).status).toBe(200);
    expect((await get(keyed.url, "/", { authorization: "Bearer k3y" })).status).toBe(200);
    expect((await get(keyed.url, "/", { authorization: "Bearer k3" })).status).toBe(401);
  });
});
