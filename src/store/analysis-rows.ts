// Read-only queries behind the study's analyses: each returns rows already aggregated per task (SQL GROUP BY
// over `episodes` and `turns`), or streams one row per episode a page at a time (pages.ts), so a 1M-episode run
// never sits in memory. The SQL is shared by both backends; JSON access comes from the dialect.
// Policy errors (stop_reason 'error') are left out everywhere, as in outcomeCounts. The row shapes live in
// core/analysis-rows.ts; metrics/episode-rows.ts computes the same rows from episodes in memory. Each reader takes
// the run's budgets (its config's BudgetSpec values, decoded once where the run's config is read) and gives every
// row the spec its episodes' stored label names.
import {
  positionsInScope,
  type EpisodeOutcome,
  type FirstErrorCounts,
  type HorizonCounts,
  type InvalidCounts,
  type StepCounts,
} from "../core/analysis-rows.js";
import { budgetsByLabel, type BudgetSpec } from "../core/budget.js";
import { DataError } from "../core/errors.js";
import { afterKey, keyParams, BEFORE_FIRST_KEY, type EpisodeKeyValues } from "./pages.js";
import type { Store } from "./store.js";

const EPISODE_KEY =
  "t.run_id = e.run_id AND t.task_index = e.task_index AND t.budget_label = e.budget_label AND t.sample = e.sample";
/** Was the policy's own decision optimal: its judged reply where an intervention played in its place
 * (teacher-forced: the expert's state), else the played action's annotation. */
const policyOptimal = (store: Store): string =>
  `COALESCE(${store.sql.dialect.jsonFlag("t.forced", "policyOptimal")}, t.optimal)`;
const PAGE = 2048;

/** The run's budget of each stored label (episodes are stored under their spec's label); a label that the budgets
 * given do not list is refused, since its rows would have no place on the budget axis. */
function budgetOf(runId: string, budgets: readonly BudgetSpec[]): (label: string) => BudgetSpec {
  const byLabel = budgetsByLabel(budgets);
  return (label) => {
    const spec = byLabel.get(label);
    if (spec === undefined)
      throw new DataError(
        `run ${runId} has episodes under budget "${label}", which its budgets (${budgets.map((known) => known.label).join(", ") || "none"}) do not list`,
        "pass the run's own budgets: the budgets of its stored config",
      );
    return spec;
  };
}

/** Task ids of a run, by task index. */
export async function taskIdsOf(store: Store, runId: string): Promise<string[]> {
  return (
    await store.sql.rows<[string]>("SELECT task_id FROM tasks WHERE run_id = ? ORDER BY task_index", [runId])
  ).map(([id]) => id);
}

/** True when some turn of the run carries an oracle annotation (step quality, recovery and horizon need them). */
export async function hasAnnotations(store: Store, runId: string): Promise<boolean> {
  return (
    (await store.sql.rows("SELECT 1 FROM turns WHERE run_id = ? AND optimal IS NOT NULL LIMIT 1", [runId])).length > 0
  );
}

async function hasPolicyErrors(store: Store, runId: string): Promise<boolean> {
  return (
    (await store.sql.rows("SELECT 1 FROM episodes WHERE run_id = ? AND stop_reason = 'error' LIMIT 1", [runId]))
      .length > 0
  );
}

/** Annotated turns per (task, budget, turn index, turns left), with how many of the policy's decisions were optimal. */
export async function stepCounts(store: Store, runId: string, budgets: readonly BudgetSpec[]): Promise<StepCounts[]> {
  const budget = budgetOf(runId, budgets);
  const scopes = await store.sql.rows<[string]>("SELECT DISTINCT budget_scope FROM episodes WHERE run_id = ?", [runId]);
  if (scopes.some(([scope]) => scope !== "episode")) return stepCountsBySegment(store, runId, budget);
  // Scope "episode": turns left = budget turns - turn index + 1, and the budget's turns are the same for every
  // sample of a (task, budget label), so the turns aggregate on their own, without a join per turn.
  const budgetTurns = new Map<string, number>();
  const resolved = await store.sql.rows<[number, string, number]>(
    "SELECT task_index, budget_label, MAX(budget_turns) FROM episodes WHERE run_id = ? GROUP BY task_index, budget_label",
    [runId],
  );
  for (const [task, label, turns] of resolved) budgetTurns.set(`${task}\u0000${label}`, turns);
  const optimal = policyOptimal(store);
  const sql = (await hasPolicyErrors(store, runId))
    ? `SELECT t.task_index, t.budget_label, t.turn_index, SUM(${optimal}), COUNT(*) FROM turns t JOIN episodes e ON ${EPISODE_KEY}
       WHERE t.run_id = ? AND t.optimal IS NOT NULL AND e.stop_reason != 'error' GROUP BY t.task_index, t.budget_label, t.turn_index`
    : `SELECT task_index, budget_label, turn_index, SUM(${optimal}), COUNT(*) FROM turns t WHERE run_id = ? AND optimal IS NOT NULL GROUP BY task_index, budget_label, turn_index`;
  const rows = await store.sql.rows<[number, string, number, number, number]>(sql, [runId]);
  return rows.map(([taskIndex, label, turn, optimalCount, total]) => ({
    taskIndex,
    budget: budget(label),
    turn,
    turnsLeft: (budgetTurns.get(`${taskIndex}\u0000${label}`) ?? turn) - turn + 1,
    optimal: optimalCount,
    total,
  }));
}

type SegmentTurn = readonly [number, number, number | null];

/** Scope "user-turn": the count of the budget restarts with each user turn, so turns left come from each
 * episode's segments (a page of episodes at a time, aggregated as they pass). */
async function stepCountsBySegment(
  store: Store,
  runId: string,
  budget: (label: string) => BudgetSpec,
): Promise<StepCounts[]> {
  const counts = new Map<
    string,
    { taskIndex: number; budget: BudgetSpec; turn: number; turnsLeft: number; optimal: number; total: number }
  >();
  const tally = (
    task: number,
    label: string,
    budgetTurns: number,
    scope: "episode" | "user-turn",
    turns: readonly SegmentTurn[],
  ): void => {
    const positions = positionsInScope(
      scope,
      turns.map((turn) => turn[1]),
    );
    turns.forEach(([turn, , optimal], i) => {
      if (optimal === null) return;
      const turnsLeft = budgetTurns - positions[i]! + 1;
      const key = `${task}\u0000${label}\u0000${turn}\u0000${turnsLeft}`;
      let row = counts.get(key);
      if (row === undefined)
        counts.set(key, (row = { taskIndex: task, budget: budget(label), turn, turnsLeft, optimal: 0, total: 0 }));
      row.total += 1;
      row.optimal += optimal;
    });
  };
  const optimal = policyOptimal(store);
  let after: EpisodeKeyValues = BEFORE_FIRST_KEY;
  for (;;) {
    const episodes = await store.sql.rows<[number, string, number, number, "episode" | "user-turn"]>(
      `SELECT task_index, budget_label, sample, budget_turns, budget_scope FROM episodes WHERE run_id = ? AND stop_reason != 'error' AND ${afterKey()} ORDER BY task_index, budget_label, sample LIMIT ?`,
      [runId, ...keyParams(after), PAGE],
    );
    const first = episodes[0];
    const last = episodes[episodes.length - 1];
    if (first === undefined || last === undefined) break;
    const turns = await store.sql.rows<[number, string, number, number, number, number | null]>(
      `SELECT task_index, budget_label, sample, turn_index, segment, CASE WHEN t.optimal IS NULL THEN NULL ELSE ${optimal} END FROM turns t
       WHERE run_id = ? AND (task_index, budget_label, sample) >= (?, ?, ?) AND (task_index, budget_label, sample) <= (?, ?, ?) ORDER BY task_index, budget_label, sample, turn_index`,
      [runId, first[0], first[1], first[2], last[0], last[1], last[2]],
    );
    const byEpisode = new Map<string, SegmentTurn[]>();
    for (const [task, label, sample, turn, segment, flag] of turns) {
      const key = `${task}\u0000${label}\u0000${sample}`;
      let list = byEpisode.get(key);
      if (list === undefined) byEpisode.set(key, (list = []));
      list.push([turn, segment, flag]);
    }
    for (const [task, label, sample, budgetTurns, scope] of episodes)
      tally(task, label, budgetTurns, scope, byEpisode.get(`${task}\u0000${label}\u0000${sample}`) ?? []);
    if (episodes.length < PAGE) break;
    after = [last[0], last[1], last[2]];
  }
  return [...counts.values()];
}

/** Annotated episodes per (task, budget, first non-optimal turn), with successes. */
export async function firstErrorCounts(
  store: Store,
  runId: string,
  budgets: readonly BudgetSpec[],
): Promise<FirstErrorCounts[]> {
  const budget = budgetOf(runId, budgets);
  const rows = await store.sql.rows<[number, string, number | null, number, number]>(
    `SELECT task_index, budget_label, first_error, COUNT(*), SUM(success) FROM (
       SELECT e.task_index, e.budget_label, e.success,
         (SELECT MIN(t.turn_index) FROM turns t WHERE ${EPISODE_KEY} AND t.optimal = 0) AS first_error
       FROM episodes e
       WHERE e.run_id = ? AND e.stop_reason != 'error' AND EXISTS (SELECT 1 FROM turns t WHERE ${EPISODE_KEY} AND t.optimal IS NOT NULL)
     ) AS annotated GROUP BY task_index, budget_label, first_error`,
    [runId],
  );
  return rows.map(([taskIndex, label, firstError, n, c]) => ({ taskIndex, budget: budget(label), firstError, n, c }));
}

/** Episodes per (task, budget, budget turns, optimal length at turn 1), with successes. */
export async function horizonCounts(
  store: Store,
  runId: string,
  budgets: readonly BudgetSpec[],
): Promise<HorizonCounts[]> {
  const budget = budgetOf(runId, budgets);
  const rows = await store.sql.rows<[number, string, number, number | null, number, number]>(
    `SELECT e.task_index, e.budget_label, e.budget_turns, t.remaining_before, COUNT(*), SUM(e.success)
     FROM episodes e LEFT JOIN turns t ON ${EPISODE_KEY} AND t.turn_index = 1
     WHERE e.run_id = ? AND e.stop_reason != 'error'
     GROUP BY e.task_index, e.budget_label, e.budget_turns, t.remaining_before`,
    [runId],
  );
  return rows.map(([taskIndex, label, budgetTurns, optimalLength, n, c]) => ({
    taskIndex,
    budget: budget(label),
    budgetTurns,
    optimalLength,
    n,
    c,
  }));
}

/** The policy's own turns per (task, budget), with how many of its replies were invalid (turns an intervention
 * played are left out). */
export async function invalidCounts(
  store: Store,
  runId: string,
  budgets: readonly BudgetSpec[],
): Promise<InvalidCounts[]> {
  const budget = budgetOf(runId, budgets);
  const sql = (await hasPolicyErrors(store, runId))
    ? `SELECT t.task_index, t.budget_label, SUM(t.invalid), COUNT(*) FROM turns t JOIN episodes e ON ${EPISODE_KEY}
       WHERE t.run_id = ? AND t.forced IS NULL AND e.stop_reason != 'error' GROUP BY t.task_index, t.budget_label`
    : "SELECT task_index, budget_label, SUM(invalid), COUNT(*) FROM turns WHERE run_id = ? AND forced IS NULL GROUP BY task_index, budget_label";
  const rows = await store.sql.rows<[number, string, number, number]>(sql, [runId]);
  return rows.map(([taskIndex, label, invalid, turns]) => ({ taskIndex, budget: budget(label), invalid, turns }));
}

const OUTCOME_COLUMNS = "task_index, budget_label, sample, seed, success, turns_used";
type OutcomeRow = [number, string, number, number, number, number];
const outcome = (row: OutcomeRow, budget: (label: string) => BudgetSpec): EpisodeOutcome => ({
  taskIndex: row[0],
  budget: budget(row[1]),
  sample: row[2],
  seed: row[3],
  success: row[4] === 1,
  turnsUsed: row[5],
});

/** Every finished episode's outcome, streamed in key order. */
export async function* episodeOutcomes(
  store: Store,
  runId: string,
  budgets: readonly BudgetSpec[],
): AsyncGenerator<EpisodeOutcome> {
  const budget = budgetOf(runId, budgets);
  let after: EpisodeKeyValues = BEFORE_FIRST_KEY;
  for (;;) {
    const rows = await store.sql.rows<OutcomeRow>(
      `SELECT ${OUTCOME_COLUMNS} FROM episodes WHERE run_id = ? AND stop_reason != 'error' AND ${afterKey()} ORDER BY task_index, budget_label, sample LIMIT ?`,
      [runId, ...keyParams(after), PAGE],
    );
    for (const row of rows) yield outcome(row, budget);
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    after = [last[0], last[1], last[2]];
  }
}

type RecoveryRow = [number, string, number, number, number, number, number];

/**
 * The episodes of a recover:J run, streamed in key order, each with whether its turn J carried a forced action
 * (false when the expert finished before J or every valid action at J was optimal).
 */
export async function* recoveryRows(
  store: Store,
  runId: string,
  budgets: readonly BudgetSpec[],
  perturbTurn: number,
): AsyncGenerator<{ outcome: EpisodeOutcome; forced: boolean }> {
  const budget = budgetOf(runId, budgets);
  let after: EpisodeKeyValues = BEFORE_FIRST_KEY;
  for (;;) {
    const rows = await store.sql.rows<RecoveryRow>(
      `SELECT e.task_index, e.budget_label, e.sample, e.seed, e.success, e.turns_used,
         CASE WHEN EXISTS (SELECT 1 FROM turns t WHERE t.run_id = e.run_id AND t.task_index = e.task_index AND t.budget_label = e.budget_label AND t.sample = e.sample AND t.turn_index = ? AND t.forced IS NOT NULL) THEN 1 ELSE 0 END
       FROM episodes e WHERE e.run_id = ? AND e.stop_reason != 'error' AND ${afterKey("e")} ORDER BY e.task_index, e.budget_label, e.sample LIMIT ?`,
      [perturbTurn, runId, ...keyParams(after), PAGE],
    );
    for (const [task, label, sample, seed, success, turnsUsed, forced] of rows)
      yield { outcome: outcome([task, label, sample, seed, success, turnsUsed], budget), forced: forced === 1 };
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    after = [last[0], last[1], last[2]];
  }
}

export interface ExampleTurn {
  readonly turn: number;
  /** The policy's reply as written (tool calls as `name(arguments)` lines after the text). */
  readonly reply: string;
  readonly parsedAction: string | null;
  readonly invalid: boolean;
  readonly optimal: boolean | null;
}

export interface ExampleEpisode {
  readonly taskIndex: number;
  readonly taskId: string;
  readonly budget: string;
  readonly budgetTurns: number;
  readonly sample: number;
  readonly success: boolean;
  readonly stopReason: string;
  readonly turns: readonly ExampleTurn[];
}

function replyText(action: string): string {
  const message = JSON.parse(action) as { content?: unknown; toolCalls?: { name?: unknown; arguments?: unknown }[] };
  const text = typeof message.content === "string" ? message.content : "";
  const calls = (message.toolCalls ?? []).map((call) => `${String(call.name)}(${String(call.arguments)})`);
  return [text, ...calls].filter((part) => part !== "").join("\n");
}

/** The first finished episode (in key order) under a budget with the given outcome, with its replies. */
export async function exampleEpisode(
  store: Store,
  runId: string,
  budgetLabel: string,
  success: boolean,
): Promise<ExampleEpisode | null> {
  const [row] = await store.sql.rows<[number, string, string, number, number, number, string]>(
    `SELECT e.task_index, k.task_id, e.budget_label, e.budget_turns, e.sample, e.success, e.stop_reason FROM episodes e JOIN tasks k ON k.run_id = e.run_id AND k.task_index = e.task_index
     WHERE e.run_id = ? AND e.budget_label = ? AND e.success = ? AND e.stop_reason != 'error' ORDER BY e.task_index, e.sample LIMIT 1`,
    [runId, budgetLabel, success ? 1 : 0],
  );
  if (row === undefined) return null;
  const [taskIndex, taskId, budget, budgetTurns, sample, won, stopReason] = row;
  const turns = await store.sql.rows<[number, string, string | null, number, number | null]>(
    "SELECT turn_index, action, parsed_action, invalid, optimal FROM turns WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ? ORDER BY turn_index",
    [runId, taskIndex, budget, sample],
  );
  return {
    taskIndex,
    taskId,
    budget,
    budgetTurns,
    sample,
    success: won === 1,
    stopReason,
    turns: turns.map(([turn, action, parsedAction, invalid, optimal]) => ({
      turn,
      reply: replyText(action),
      parsedAction,
      invalid: invalid === 1,
      optimal: optimal === null ? null : optimal === 1,
    })),
  };
}
