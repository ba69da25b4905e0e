// A run page's data: the Pass@(K,T) table `show` prints (the same outcomes, the same bootstrap and seed), the policy
// errors left out of it, the invalid replies per budget (the report's statistic: the policy's own turns, a bootstrap
// interval over tasks), the task table (each task's optimal length and success at each budget, sorted and paged on
// the server) and one page of the episode list under its filter. A complete run's statistics are kept between
// requests (RunMemo).
import { deleteOldest } from "../core/oldest-key.js";
import type { OutcomeCounts } from "../core/outcome.js";
import { countsOf, storedRunOutcomes, tableFor } from "../eval/table.js";
import { invalidReplies, type InvalidRate } from "../metrics/invalid-replies.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { invalidCounts } from "../store/analysis-rows.js";
import { episodeCount, episodePage, type EpisodeFilter, type EpisodeListRow } from "../store/episode-list.js";
import { episodeTotals } from "../store/episodes.js";
import { taskHeads, type TaskHead } from "../store/runs.js";
import type { Store } from "../store/store.js";
import type { SortDirection } from "./query.js";
import type { RunFacts } from "./run-facts.js";

export const EPISODES_PER_PAGE = 50;
export const TASKS_PER_PAGE = 50;

/** A task's successes at one budget (null: no finished episode there). */
export interface TaskCell {
  readonly c: number;
  readonly n: number;
}

export interface TaskRow {
  readonly head: TaskHead;
  /** By budget label. */
  readonly cells: ReadonlyMap<string, TaskCell>;
}

export interface TaskSort {
  /** "index", "id", "reference", "optimal", or a budget label (its success rate). */
  readonly column: string;
  readonly direction: SortDirection;
}

export interface Paged<T> {
  readonly rows: readonly T[];
  readonly total: number;
  readonly page: number;
  readonly pages: number;
}

export interface RunTables {
  readonly table: PassAtKTTable;
  readonly errors: { readonly errors: number; readonly of: number; readonly first?: string };
  readonly invalid: readonly InvalidRate[];
  readonly tasks: Paged<TaskRow>;
}

function taskRows(heads: readonly TaskHead[], counts: readonly OutcomeCounts[]): TaskRow[] {
  const cells = new Map<number, Map<string, TaskCell>>();
  for (const { taskIndex, budget, n, c } of counts) {
    let row = cells.get(taskIndex);
    if (row === undefined) cells.set(taskIndex, (row = new Map()));
    row.set(budget, { c, n });
  }
  return heads.map((head) => ({ head, cells: cells.get(head.index) ?? new Map() }));
}

/** The sort key of a task row in a column: numbers first, missing values last whichever the direction. */
function sortKey(row: TaskRow, column: string): number | string | null {
  if (column === "index") return row.head.index;
  if (column === "id") return row.head.id;
  if (column === "reference") return row.head.referenceBudget;
  if (column === "optimal") return row.head.optimalTurns;
  const cell = row.cells.get(column);
  return cell === undefined || cell.n === 0 ? null : cell.c / cell.n;
}

export function sortTasks(rows: readonly TaskRow[], sort: TaskSort): TaskRow[] {
  const sign = sort.direction === "desc" ? -1 : 1;
  return [...rows].sort((a, b) => {
    const [x, y] = [sortKey(a, sort.column), sortKey(b, sort.column)];
    if (x === null || y === null) return x === y ? a.head.index - b.head.index : x === null ? 1 : -1;
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return order === 0 ? a.head.index - b.head.index : sign * order;
  });
}

export function pageOf<T>(rows: readonly T[], page: number, size: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const at = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((at - 1) * size, at * size), total: rows.length, page: at, pages };
}

/** What a run's tables are made of, before the task table is sorted and paged. */
export interface RunStatistics {
  readonly table: PassAtKTTable;
  readonly errors: RunTables["errors"];
  readonly invalid: readonly InvalidRate[];
  readonly taskRows: readonly TaskRow[];
}

async function runStatistics(
  store: Store,
  facts: RunFacts,
  totals: Awaited<ReturnType<typeof episodeTotals>>,
): Promise<RunStatistics> {
  const config = facts.config!;
  const run = facts.record.id;
  // The reads at once: a PostgreSQL server answers them side by side (SQLite answers one after the other anyway).
  const [outcomes, invalidRows, heads] = await Promise.all([
    storedRunOutcomes(store, run, config),
    invalidCounts(store, run, config.budgets),
    taskHeads(store, run),
  ]);
  return {
    table: tableFor(config, outcomes),
    errors: {
      errors: totals.errors,
      of: totals.done + totals.errors,
      ...(totals.firstError === undefined ? {} : { first: totals.firstError }),
    },
    invalid: invalidReplies(invalidRows, { bootstrap: config.bootstrap, seed: config.seed }),
    taskRows: taskRows(heads, countsOf(config, outcomes)),
  };
}

/** Complete runs' statistics kept between requests (the bootstraps of a large run take a while), each under its
 * episode totals: a complete run resumed later (its policy errors retried) is computed again. Runs being written are
 * computed at every request. */
export interface RunMemo {
  statistics(store: Store, facts: RunFacts): Promise<RunStatistics>;
}

export function createRunMemo(limit = 8): RunMemo {
  const kept = new Map<string, RunStatistics>();
  return {
    async statistics(store, facts) {
      const totals = await episodeTotals(store, facts.record.id);
      if (facts.record.status !== "complete") return runStatistics(store, facts, totals);
      const key = [facts.record.id, totals.done, totals.errors].join("\u0000");
      const found = kept.get(key);
      if (found !== undefined) return found;
      const made = await runStatistics(store, facts, totals);
      if (kept.size >= limit) deleteOldest(kept);
      kept.set(key, made);
      return made;
    },
  };
}

/** The run's tables, the task table sorted and paged; its config must be readable (facts.config not null). */
export async function runTables(
  store: Store,
  memo: RunMemo,
  facts: RunFacts,
  tasks: { readonly sort: TaskSort; readonly page: number },
): Promise<RunTables> {
  const { taskRows: rows, ...statistics } = await memo.statistics(store, facts);
  return { ...statistics, tasks: pageOf(sortTasks(rows, tasks.sort), tasks.page, TASKS_PER_PAGE) };
}

/** One page of the run's episodes under `filter`. */
export async function runEpisodes(
  store: Store,
  run: string,
  filter: EpisodeFilter,
  page: number,
): Promise<Paged<EpisodeListRow>> {
  const total = await episodeCount(store, run, filter);
  const pages = Math.max(1, Math.ceil(total / EPISODES_PER_PAGE));
  const at = Math.min(page, pages);
  const rows = await episodePage(store, run, filter, {
    offset: (at - 1) * EPISODES_PER_PAGE,
    limit: EPISODES_PER_PAGE,
  });
  return { rows, total, page: at, pages };
}
