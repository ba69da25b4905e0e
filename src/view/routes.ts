// What each path of the view answers: the four pages (runs, a run, an episode, a comparison), read from the store for
// this request (a run still being written shows what is stored now), and the two assets. A query that cannot be
// read is a 400 naming its parameter, a run or episode the store does not hold a 404, each as a page; anything
// else (a store that failed) goes up to the server, which answers 500.
import type { SafeHtml } from "../report/html/escape.js";
import { VIEW_PATHS } from "../report/view-links.js";
import { HttpError } from "../serve/errors.js";
import type { StudyRunGroup } from "../study/run-groups.js";
import { episodeNeighbours } from "../store/episode-list.js";
import { readEpisode } from "../store/episode-read.js";
import { getRun, runExists, type RunRecord } from "../store/runs.js";
import type { Store } from "../store/store.js";
import { VIEW_CSS, VIEW_SCRIPT } from "./assets.js";
import { budgetDifferences, compareTaskRows, comparedRun, sharedBudgets } from "./compare-data.js";
import { comparePage } from "./compare-page.js";
import { episodePage } from "./episode-page.js";
import { firstDivergence } from "./first-divergence.js";
import { ASSET_PATHS, errorPage, page, type PageFrame } from "./layout.js";
import {
  episodeKeyParam,
  filterParam,
  integerParam,
  pageParam,
  requiredParam,
  runsQueryParam,
  sortParam,
  textParam,
} from "./query.js";
import { pageOf, runEpisodes, runTables, type RunMemo } from "./run-data.js";
import { runFacts, type RunFacts } from "./run-facts.js";
import { runPage } from "./run-page.js";
import { runsView } from "./runs-data.js";
import { runsPage } from "./runs-page.js";
import type { SideBySide } from "./side-by-side.js";

/** What the view serves from: the store, a study's groups (or null), and the top bar's text. */
export interface ViewContext {
  readonly store: Store;
  readonly groups: ReadonlyMap<string, StudyRunGroup> | null;
  readonly frame: PageFrame;
  readonly memo: RunMemo;
}

export interface ViewResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const htmlResponse = (status: number, body: string): ViewResponse => ({
  status,
  contentType: "text/html; charset=utf-8",
  body,
});

async function runsRoute(context: ViewContext, params: URLSearchParams): Promise<[string, SafeHtml]> {
  const query = runsQueryParam(params);
  const view = await runsView(context.store, context.groups, query);
  return ["Runs", runsPage(view, query, params, context.groups !== null)];
}

/** A stored run's record; a 404 naming it when the store has no such run. */
async function storedRun(store: Store, run: string): Promise<RunRecord> {
  if (!(await runExists(store, run))) throw new HttpError(404, `no run "${run}" in this store`);
  return getRun(store, run);
}

const factsOf = async (store: Store, run: string): Promise<RunFacts> => runFacts(await storedRun(store, run));

async function runRoute(context: ViewContext, params: URLSearchParams): Promise<[string, SafeHtml]> {
  const facts = await factsOf(context.store, requiredParam(params, "id"));
  const filter = filterParam(params);
  const taskSort = sortParam(params, "tsort", "index");
  const tasks = { sort: taskSort, page: pageParam(params, "tpage") };
  const [tables, episodes] = await Promise.all([
    facts.config === null ? null : runTables(context.store, context.memo, facts, tasks),
    runEpisodes(context.store, facts.record.id, filter, pageParam(params, "page")),
  ]);
  return [facts.record.id, runPage({ facts, tables, taskSort, filter, episodes }, params)];
}

async function episodeRoute(context: ViewContext, params: URLSearchParams): Promise<[string, SafeHtml]> {
  const { store } = context;
  const record = await storedRun(store, requiredParam(params, "run"));
  const key = episodeKeyParam(params);
  const filter = filterParam(params, "in-");
  const [episode, { previous, next }] = await Promise.all([
    readEpisode(store, record.id, record.env, key),
    episodeNeighbours(store, record.id, filter, key),
  ]);
  if (episode === undefined)
    throw new HttpError(404, `run ${record.id} has no episode of task ${key[0]} at T = ${key[1]}, sample ${key[2]}`);
  return [`${record.id} task ${episode.taskId}`, episodePage({ episode, filter, previous, next })];
}

async function sideBySideOf(
  store: Store,
  runs: Awaited<ReturnType<typeof comparedRun>>[],
  focus: { readonly taskId: string; readonly budget: string; readonly sample: number },
): Promise<SideBySide> {
  const episodes = await Promise.all(
    runs.map(async ({ facts, indices }) => {
      const index = indices.get(focus.taskId);
      if (index === undefined) return undefined;
      return readEpisode(store, facts.record.id, facts.record.env, [index, focus.budget, focus.sample]);
    }),
  );
  const present = episodes.flatMap((episode) => (episode === undefined ? [] : [episode.turns]));
  return {
    ...focus,
    runs: runs.map(({ facts }) => facts.record.id),
    episodes,
    divergence: firstDivergence(present),
  };
}

async function compareRoute(context: ViewContext, params: URLSearchParams): Promise<[string, SafeHtml]> {
  const { store } = context;
  const ids = [...new Set(params.getAll("run").filter((run) => run !== ""))];
  if (ids.length < 2) throw new HttpError(400, "compare needs two or more runs: tick them in the runs list");
  const facts = await Promise.all(ids.map((id) => factsOf(store, id)));
  const unreadable = facts.find((run) => run.config === null);
  if (unreadable !== undefined)
    throw new HttpError(400, `run ${unreadable.record.id} cannot be compared: ${unreadable.problem}`);
  const runs = await Promise.all(facts.map((run) => comparedRun(store, run)));
  const budgets = sharedBudgets(runs);
  const asked = textParam(params, "budget");
  if (asked !== undefined && !budgets.includes(asked))
    throw new HttpError(
      400,
      `query parameter "budget": the runs share no budget "${asked}" (they share ${budgets.join(", ") || "none"})`,
    );
  const budget = asked ?? budgets[0];
  const sample = integerParam(params, "sample") ?? 0;
  const config = facts[0]!.config!;
  const differences = budgets.map((label) =>
    budgetDifferences(runs, label, { bootstrap: config.bootstrap, seed: config.seed }),
  );
  const tasks = pageOf(budget === undefined ? [] : compareTaskRows(runs, budget), pageParam(params, "cpage"), 50);
  const taskId = textParam(params, "task");
  const side =
    taskId === undefined || budget === undefined ? null : await sideBySideOf(store, runs, { taskId, budget, sample });
  return ["Compare", comparePage({ runs, budgets, budget, sample, differences, tasks, side }, params)];
}

const PAGES: Readonly<Record<string, (context: ViewContext, params: URLSearchParams) => Promise<[string, SafeHtml]>>> =
  {
    [VIEW_PATHS.runs]: runsRoute,
    [VIEW_PATHS.run]: runRoute,
    [VIEW_PATHS.episode]: episodeRoute,
    [VIEW_PATHS.compare]: compareRoute,
  };

export async function respond(context: ViewContext, url: URL): Promise<ViewResponse> {
  if (url.pathname === ASSET_PATHS.css) return { status: 200, contentType: "text/css; charset=utf-8", body: VIEW_CSS };
  if (url.pathname === ASSET_PATHS.script)
    return { status: 200, contentType: "text/javascript; charset=utf-8", body: VIEW_SCRIPT };
  if (url.pathname === "/favicon.ico") return { status: 204, contentType: "image/x-icon", body: "" };
  const route = PAGES[url.pathname];
  if (route === undefined) return htmlResponse(404, errorPage(context.frame, 404, `no page ${url.pathname} here`));
  try {
    const [title, body] = await route(context, url.searchParams);
    return htmlResponse(200, page(context.frame, title, body));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return htmlResponse(error.status, errorPage(context.frame, error.status, error.message));
  }
}
