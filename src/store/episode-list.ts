// A run's episodes as a viewer lists them: one page at a time under a filter (budget, sample, task, and an outcome:
// success, failure, policy error, an invalid reply, truncated at the budget), how many match, and the episodes before
// and after one under the same filter (what "next" and "previous" step to). Pages are in the list's order (task index,
// the budget's turns, then its label, sample: 25% before 100%) and read from the primary key's task order; an
// episode's invalid replies are counted from its turns through theirs. Read-only; the SQL is shared by both backends.
import type { StopReason } from "../core/env.js";
import type { EpisodeKeyValues } from "./pages.js";
import type { SqlValue } from "./sql.js";
import type { Store } from "./store.js";

export const EPISODE_OUTCOMES = ["success", "failure", "error", "invalid", "truncated"] as const;
/** success; failure (not a success, policy errors left out); error (a policy error); invalid (an invalid reply at
 * some turn); truncated (ended by the turn budget). */
export type EpisodeOutcomeFilter = (typeof EPISODE_OUTCOMES)[number];

export interface EpisodeFilter {
  readonly budget?: string;
  readonly sample?: number;
  readonly task?: number;
  readonly outcome?: EpisodeOutcomeFilter;
}

/** An episode as a list shows it (its turns are read on its own page). */
export interface EpisodeListRow {
  readonly taskIndex: number;
  readonly taskId: string;
  readonly budget: string;
  readonly sample: number;
  readonly seed: number;
  readonly budgetTurns: number;
  readonly success: boolean;
  readonly stopReason: StopReason;
  readonly turnsUsed: number;
  readonly return: number;
  readonly invalidTurns: number;
  readonly error: string | null;
}

const SAME_EPISODE =
  "t.run_id = e.run_id AND t.task_index = e.task_index AND t.budget_label = e.budget_label AND t.sample = e.sample";

const OUTCOME_SQL: Readonly<Record<Exclude<EpisodeOutcomeFilter, "invalid">, string>> = {
  success: "e.success = 1",
  failure: "e.success = 0 AND e.stop_reason != 'error'",
  error: "e.stop_reason = 'error'",
  truncated: "e.stop_reason = 'max_turns'",
};

/** Keys before (<) or after (>) an episode's: where a neighbour is looked for. */
interface KeyBound {
  readonly direction: "<" | ">";
  readonly key: EpisodeKeyValues;
}

/** The list's order: by task, then budget by its number of turns (25% before 100%, 7 before 10), then sample. */
const ORDER = ["e.task_index", "e.budget_turns", "e.budget_label", "e.sample"];
const orderBy = (direction = ""): string => ORDER.map((column) => `${column}${direction}`).join(", ");

/** Episodes before or after a key in the list's order; the key's budget turns are the stored ones of its (task,
 * budget) (the same for every sample). The task term repeats what the tuple implies, so that the planners read the
 * primary key from the bound's task on. */
const keyTerm = (bound: KeyBound): { readonly term: string; readonly params: SqlValue[] } => {
  const [task, budget, sample] = bound.key;
  const turns =
    "(SELECT MIN(b.budget_turns) FROM episodes b WHERE b.run_id = e.run_id AND b.task_index = ? AND b.budget_label = ?)";
  return {
    term: `e.task_index ${bound.direction}= ? AND (${ORDER.join(", ")}) ${bound.direction} (?, ${turns}, ?, ?)`,
    params: [task, task, task, budget, budget, sample],
  };
};

/** The WHERE clause of a filter over `episodes e` of one run (within `bound`), with its parameters. The episodes with
 * an invalid reply are the keys of the run's invalid turns, read once from their partial index (turns_invalid): a
 * correlated probe per episode let SQLite turn it into a pass over the run's turns up to the bound. */
function filterClause(
  runId: string,
  filter: EpisodeFilter,
  bound?: KeyBound,
): { readonly where: string; readonly params: SqlValue[] } {
  const terms = ["e.run_id = ?"];
  const params: SqlValue[] = [runId];
  const add = (term: string, ...values: SqlValue[]): void => {
    terms.push(term);
    params.push(...values);
  };
  if (filter.task !== undefined) add("e.task_index = ?", filter.task);
  if (filter.budget !== undefined) add("e.budget_label = ?", filter.budget);
  if (filter.sample !== undefined) add("e.sample = ?", filter.sample);
  if (bound !== undefined) {
    const { term, params: values } = keyTerm(bound);
    add(term, ...values);
  }
  if (filter.outcome === "invalid")
    add(
      "(e.task_index, e.budget_label, e.sample) IN (SELECT t.task_index, t.budget_label, t.sample FROM turns t WHERE t.run_id = ? AND t.invalid = 1)",
      runId,
    );
  else if (filter.outcome !== undefined) terms.push(OUTCOME_SQL[filter.outcome]);
  return { where: terms.join(" AND "), params };
}

type ListRecord = [
  number,
  string | null,
  string,
  number,
  number,
  number,
  number,
  string,
  number,
  number,
  number,
  string | null,
];

const LIST_COLUMNS = `e.task_index, k.task_id, e.budget_label, e.sample, e.seed, e.budget_turns, e.success, e.stop_reason,
  e.turns_used, e.return, (SELECT COUNT(*) FROM turns t WHERE ${SAME_EPISODE} AND t.invalid = 1), e.error`;

function toRow(record: ListRecord): EpisodeListRow {
  const [taskIndex, taskId, budget, sample, seed, budgetTurns, success, stopReason, turnsUsed, total, invalid, error] =
    record;
  return {
    taskIndex,
    taskId: taskId ?? String(taskIndex),
    budget,
    sample,
    seed,
    budgetTurns,
    success: success === 1,
    stopReason: stopReason as StopReason,
    turnsUsed,
    return: total,
    invalidTurns: invalid,
    error,
  };
}

/** The episodes of a run under `filter`, `limit` of them from position `offset`, in the list's order. */
export async function episodePage(
  store: Store,
  runId: string,
  filter: EpisodeFilter,
  page: { readonly offset: number; readonly limit: number },
): Promise<EpisodeListRow[]> {
  const { where, params } = filterClause(runId, filter);
  // The page's episodes first, then their task ids and invalid replies: PostgreSQL would count the turns of every
  // episode OFFSET skips.
  const records = await store.sql.rows<ListRecord>(
    `SELECT ${LIST_COLUMNS} FROM (SELECT * FROM episodes e WHERE ${where} ORDER BY ${orderBy()} LIMIT ? OFFSET ?) e
     LEFT JOIN tasks k ON k.run_id = e.run_id AND k.task_index = e.task_index
     ORDER BY ${orderBy()}`,
    [...params, page.limit, page.offset],
  );
  return records.map(toRow);
}

/** How many episodes of a run match `filter`. */
export async function episodeCount(store: Store, runId: string, filter: EpisodeFilter): Promise<number> {
  const { where, params } = filterClause(runId, filter);
  const [row] = await store.sql.rows<[number]>(`SELECT COUNT(*) FROM episodes e WHERE ${where}`, params);
  return row?.[0] ?? 0;
}

/** The keys of the episodes just before and just after `key` under `filter` (null at either end). */
export async function episodeNeighbours(
  store: Store,
  runId: string,
  filter: EpisodeFilter,
  key: EpisodeKeyValues,
): Promise<{ readonly previous: EpisodeKeyValues | null; readonly next: EpisodeKeyValues | null }> {
  const neighbour = async (direction: "<" | ">"): Promise<EpisodeKeyValues | null> => {
    const { where, params } = filterClause(runId, filter, { direction, key });
    const order = direction === "<" ? "DESC" : "ASC";
    const [row] = await store.sql.rows<[number, string, number]>(
      `SELECT e.task_index, e.budget_label, e.sample FROM episodes e WHERE ${where} ORDER BY ${orderBy(` ${order}`)} LIMIT 1`,
      params,
    );
    return row === undefined ? null : [row[0], row[1], row[2]];
  };
  const [previous, next] = await Promise.all([neighbour("<"), neighbour(">")]);
  return { previous, next };
}
