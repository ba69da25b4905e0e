// Writing and reading episodes. The writer batches episodes into transactions (each episode with all its turns),
// ignores an episode whose key is already stored, and flushes on demand, so a kill -9 loses only episodes that
// were never committed, and those are recomputed identically on resume; a queue job delivered twice writes its
// episode once. Readers stream in key order a page at a time (pages.ts), on either backend.
import type { Episode, ForcedAction, Turn } from "../core/episode.js";
import type { Message } from "../core/message.js";
import type { Json } from "../core/json.js";
import type { FirstSuccess, OutcomeCounts } from "../core/outcome.js";
import { afterKey, BEFORE_FIRST_KEY, keyParams, type EpisodeKeyValues } from "./pages.js";
import type { InsertStatement, SqlQueries, SqlValue } from "./sql.js";
import type { Store } from "./store.js";
import {
  hasTurnTokenTable,
  tokenFields,
  TURN_TOKEN_INSERT,
  turnTokenRow,
  type TurnTokenFields,
  type TurnTokenRecord,
} from "./turn-tokens.js";

export interface EpisodeWriter {
  /** Queue an episode; when the batch is full it is committed, and the promise settles after that. */
  write(episode: Episode): Promise<void>;
  /** Commit the queued episodes (batches commit one after the other, in order). */
  flush(): Promise<void>;
  /** Episodes committed so far by this writer (duplicates excluded). */
  readonly written: () => number;
}

const EPISODE_KEY = ["run_id", "task_index", "budget_label", "sample"];

const EPISODE_INSERT: InsertStatement = {
  table: "episodes",
  columns: [
    ...EPISODE_KEY,
    "seed",
    "budget_turns",
    "budget_mode",
    "budget_scope",
    "success",
    "stop_reason",
    "stop_limit",
    "turns_used",
    "success_turn",
    "return",
    "initial_progress",
    "error",
    "preamble",
  ],
  key: EPISODE_KEY,
  onConflict: "nothing",
};

const TURN_INSERT: InsertStatement = {
  table: "turns",
  columns: [
    ...EPISODE_KEY,
    "turn_index",
    "segment",
    "observation",
    "action",
    "parsed_action",
    "invalid",
    "reward",
    "terminated",
    "truncated",
    "progress",
    "state_key",
    "optimal",
    "remaining_before",
    "value_before",
    "details",
    "forced",
  ],
  key: [...EPISODE_KEY, "turn_index"],
  onConflict: "nothing",
};

type KeyTuple = readonly [string, number, string, number];
const keyOf = (episode: Episode): KeyTuple => [episode.run, episode.taskIndex, episode.budget.label, episode.sample];

function episodeRow(episode: Episode): SqlValue[] {
  return [
    ...keyOf(episode),
    episode.seed,
    episode.budget.turns,
    episode.budget.mode,
    episode.budget.scope,
    episode.success ? 1 : 0,
    episode.stopReason,
    episode.stopLimit,
    episode.turnsUsed,
    episode.successTurn,
    episode.return,
    episode.initialProgress,
    episode.error ?? null,
    JSON.stringify(episode.preamble),
  ];
}

function turnRow(key: KeyTuple, turn: Turn): SqlValue[] {
  return [
    ...key,
    turn.index,
    turn.segment,
    JSON.stringify(turn.observation),
    JSON.stringify(turn.action),
    turn.parsedAction,
    turn.invalid ? 1 : 0,
    turn.reward,
    turn.terminated ? 1 : 0,
    turn.truncated ? 1 : 0,
    turn.progress,
    turn.stateKey,
    turn.optimal === undefined ? null : turn.optimal ? 1 : 0,
    turn.remainingBefore === undefined || !Number.isFinite(turn.remainingBefore) ? null : turn.remainingBefore,
    turn.valueBefore ?? null,
    turn.details === undefined ? null : JSON.stringify(turn.details),
    turn.forced === undefined ? null : JSON.stringify(turn.forced),
  ];
}

const KEYS_PER_STATEMENT = 100;
const KEY_MATCH = "(run_id = ? AND task_index = ? AND budget_label = ? AND sample = ?)";

/** Remove the stored attempts of these episodes that ended in a policy error, with their turns and token data. */
async function deleteErroredAttempts(tx: SqlQueries, keys: readonly KeyTuple[]): Promise<void> {
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
    const chunk = keys.slice(start, start + KEYS_PER_STATEMENT);
    const deleted = await tx.rows<[string, number, string, number]>(
      `DELETE FROM episodes WHERE stop_reason = 'error' AND (${chunk.map(() => KEY_MATCH).join(" OR ")}) RETURNING run_id, task_index, budget_label, sample`,
      chunk.flat(),
    );
    if (deleted.length === 0) continue;
    const match = deleted.map(() => KEY_MATCH).join(" OR ");
    await tx.run(`DELETE FROM turns WHERE ${match}`, deleted.flat());
    await tx.run(`DELETE FROM turn_tokens WHERE ${match}`, deleted.flat());
  }
}

/** Commit a batch of episodes in one transaction; returns how many were new. An earlier attempt that ended in a
 * policy error is replaced by the new one; an episode already stored otherwise is left as it is. */
export async function writeEpisodes(store: Store, batch: readonly Episode[]): Promise<number> {
  if (batch.length === 0) return 0;
  // Rows are made before the write lock is taken, so that other writers wait only for the inserts.
  const episodes = batch.map(episodeRow);
  const turnsOf = batch.map((episode) => episode.turns.map((turn) => turnRow(keyOf(episode), turn)));
  const tokensOf = batch.map((episode) =>
    episode.turns.map((turn) => turnTokenRow([...keyOf(episode), turn.index], turn)).filter((row) => row !== undefined),
  );
  return store.sql.transaction(async (tx) => {
    await deleteErroredAttempts(tx, batch.map(keyOf));
    const inserted = await tx.insertNewRows(EPISODE_INSERT, episodes);
    const turns = turnsOf.filter((_, i) => inserted[i] === true).flat();
    const tokens = tokensOf.filter((_, i) => inserted[i] === true).flat();
    if (turns.length > 0) await tx.insertRows(TURN_INSERT, turns);
    if (tokens.length > 0) await tx.insertRows(TURN_TOKEN_INSERT, tokens);
    return inserted.filter(Boolean).length;
  });
}

export function createEpisodeWriter(store: Store, options: { readonly batchSize?: number } = {}): EpisodeWriter {
  const batchSize = options.batchSize ?? 64;
  let pending: Episode[] = [];
  let written = 0;
  let committed: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (pending.length === 0) return committed;
    const batch = pending;
    pending = [];
    // Batches commit in order; after a failure every later flush fails with it (nothing is written out of order).
    committed = committed.then(async () => {
      written += await writeEpisodes(store, batch);
    });
    return committed;
  };
  return {
    write(episode) {
      pending.push(episode);
      return pending.length >= batchSize ? flush() : Promise.resolve();
    },
    flush,
    written: () => written,
  };
}

export function episodeKey(taskIndex: number, budgetLabel: string, sample: number): string {
  return `${taskIndex}\u0000${budgetLabel}\u0000${sample}`;
}

/** Keys of the stored episodes of a run that need no re-run (policy errors excluded, unless `withErrors`),
 * optionally only those of tasks with index in [from, to) (a streamed plan reads them one chunk of tasks at a time). */
export async function completedEpisodeKeys(
  store: Store,
  runId: string,
  range: { readonly from: number; readonly to: number } = { from: 0, to: Number.MAX_SAFE_INTEGER },
  options: { readonly withErrors?: boolean } = {},
): Promise<Set<string>> {
  const errors = options.withErrors === true ? "" : " AND stop_reason != 'error'";
  const rows = await store.sql.rows<[number, string, number]>(
    `SELECT task_index, budget_label, sample FROM episodes WHERE run_id = ? AND task_index >= ? AND task_index < ?${errors}`,
    [runId, range.from, range.to],
  );
  return new Set(rows.map(([taskIndex, label, sample]) => episodeKey(taskIndex, label, sample)));
}

/** Number of stored episodes of a run that need no re-run (policy errors excluded). */
export async function completedEpisodeCount(store: Store, runId: string): Promise<number> {
  const [row] = await store.sql.rows<[number]>(
    "SELECT COUNT(*) FROM episodes WHERE run_id = ? AND stop_reason != 'error'",
    [runId],
  );
  return row?.[0] ?? 0;
}

/** What a run's stored episodes came to: finished ones (policy errors excluded), policy errors (with the first
 * one's text, in key order), and episodes ended by the model's context length. */
export async function episodeTotals(
  store: Store,
  runId: string,
): Promise<{
  readonly done: number;
  readonly errors: number;
  readonly contextLength: number;
  readonly firstError?: string;
}> {
  const [row] = await store.sql.rows<[number, number | null, number | null]>(
    "SELECT COUNT(*), SUM(CASE WHEN stop_reason = 'error' THEN 1 ELSE 0 END), SUM(CASE WHEN stop_reason = 'context_length' THEN 1 ELSE 0 END) FROM episodes WHERE run_id = ?",
    [runId],
  );
  const [total, errors, contextLength] = [row?.[0] ?? 0, row?.[1] ?? 0, row?.[2] ?? 0];
  const [first] =
    errors === 0
      ? []
      : await store.sql.rows<[string | null]>(
          "SELECT error FROM episodes WHERE run_id = ? AND stop_reason = 'error' ORDER BY task_index, budget_label, sample LIMIT 1",
          [runId],
        );
  return {
    done: total - errors,
    errors,
    contextLength,
    ...(first?.[0] === undefined || first[0] === null ? {} : { firstError: first[0] }),
  };
}

/** Successes and samples per (task, budget), policy errors excluded: the input of Pass@(K,T). */
export async function outcomeCounts(store: Store, runId: string): Promise<OutcomeCounts[]> {
  const rows = await store.sql.rows<[number, string, number, number]>(
    "SELECT task_index, budget_label, COUNT(*), SUM(success) FROM episodes WHERE run_id = ? AND stop_reason != 'error' GROUP BY task_index, budget_label",
    [runId],
  );
  return rows.map(([taskIndex, budget, n, c]) => ({ taskIndex, budget, n, c }));
}

/** First-success turns of every episode under one budget label (protocol b). */
export async function firstSuccesses(store: Store, runId: string, budgetLabel: string): Promise<FirstSuccess[]> {
  const rows = await store.sql.rows<[number, number | null]>(
    "SELECT task_index, success_turn FROM episodes WHERE run_id = ? AND budget_label = ? AND stop_reason != 'error'",
    [runId, budgetLabel],
  );
  return rows.map(([taskIndex, successTurn]) => ({ taskIndex, successTurn }));
}

/** A row of the turns table, as the store wrote it (value_before and forced are absent from older stores). */
export interface TurnRecord {
  readonly task_index: number;
  readonly budget_label: string;
  readonly sample: number;
  readonly turn_index: number;
  readonly segment: number;
  readonly observation: string;
  readonly action: string;
  readonly parsed_action: string | null;
  readonly invalid: number;
  readonly reward: number;
  readonly terminated: number;
  readonly truncated: number;
  readonly progress: number;
  readonly state_key: string;
  readonly optimal: number | null;
  readonly remaining_before: number | null;
  readonly value_before?: number | null;
  readonly details: string | null;
  readonly forced?: string | null;
}

/** A row of the episodes table, as the store wrote it. */
export interface EpisodeRecord {
  readonly task_index: number;
  readonly budget_label: string;
  readonly sample: number;
  readonly budget_turns: number;
  readonly budget_mode: Episode["budget"]["mode"];
  readonly budget_scope: Episode["budget"]["scope"];
  readonly seed: number;
  readonly preamble: string;
  readonly success: number;
  readonly stop_reason: Episode["stopReason"];
  readonly stop_limit: string | null;
  readonly turns_used: number;
  readonly success_turn: number | null;
  readonly return: number;
  readonly initial_progress: number;
  readonly error: string | null;
}

const textKey = (taskIndex: unknown, label: unknown, sample: unknown): string =>
  `${String(taskIndex)}\u0000${String(label)}\u0000${String(sample)}`;
const RANGE = "(task_index, budget_label, sample) >= (?, ?, ?) AND (task_index, budget_label, sample) <= (?, ?, ?)";

function toTurn(turn: TurnRecord, tokens: TurnTokenFields | undefined): Turn {
  return {
    index: turn.turn_index,
    segment: turn.segment,
    observation: JSON.parse(turn.observation) as Message[],
    action: JSON.parse(turn.action) as Message,
    parsedAction: turn.parsed_action,
    invalid: turn.invalid === 1,
    reward: turn.reward,
    terminated: turn.terminated === 1,
    truncated: turn.truncated === 1,
    progress: turn.progress,
    stateKey: turn.state_key,
    ...(turn.optimal === null ? {} : { optimal: turn.optimal === 1 }),
    ...(turn.remaining_before === null ? {} : { remainingBefore: turn.remaining_before }),
    ...(turn.value_before === null || turn.value_before === undefined ? {} : { valueBefore: turn.value_before }),
    ...(turn.details === null ? {} : { details: JSON.parse(turn.details) as Json }),
    ...(turn.forced === null || turn.forced === undefined ? {} : { forced: JSON.parse(turn.forced) as ForcedAction }),
    ...tokens,
  };
}

export function toEpisode(
  row: EpisodeRecord,
  runId: string,
  env: string,
  taskIds: ReadonlyMap<number, string>,
  turns: readonly TurnRecord[],
  tokens: ReadonlyMap<string, TurnTokenFields>,
): Episode {
  const taskIndex = row.task_index;
  const key = textKey(taskIndex, row.budget_label, row.sample);
  return {
    run: runId,
    env,
    taskId: taskIds.get(taskIndex) ?? String(taskIndex),
    taskIndex,
    budget: {
      turns: row.budget_turns,
      mode: row.budget_mode,
      scope: row.budget_scope,
      label: row.budget_label,
    },
    sample: row.sample,
    seed: row.seed,
    preamble: JSON.parse(row.preamble) as Message[],
    turns: turns.map((turn) => toTurn(turn, tokens.get(`${key}\u0000${String(turn.turn_index)}`))),
    success: row.success === 1,
    stopReason: row.stop_reason,
    stopLimit: row.stop_limit,
    turnsUsed: row.turns_used,
    successTurn: row.success_turn,
    return: row.return,
    initialProgress: row.initial_progress,
    ...(row.error === null ? {} : { error: row.error }),
  };
}

/** The turns (and their token data) of the episodes with keys in [first, last], grouped by episode key. */
async function turnsBetween(
  store: Store,
  runId: string,
  first: EpisodeKeyValues,
  last: EpisodeKeyValues,
  withTokens: boolean,
): Promise<{ turns: Map<string, TurnRecord[]>; tokens: Map<string, TurnTokenFields> }> {
  const params = [runId, ...keyParams(first), ...keyParams(last)];
  const turns = new Map<string, TurnRecord[]>();
  for (const turn of await store.sql.records<TurnRecord>(
    `SELECT * FROM turns WHERE run_id = ? AND ${RANGE} ORDER BY task_index, budget_label, sample, turn_index`,
    params,
  )) {
    const key = textKey(turn.task_index, turn.budget_label, turn.sample);
    let list = turns.get(key);
    if (list === undefined) turns.set(key, (list = []));
    list.push(turn);
  }
  const tokens = new Map<string, TurnTokenFields>();
  if (withTokens) {
    for (const row of await store.sql.records<TurnTokenRecord>(
      `SELECT task_index, budget_label, sample, turn_index, tokens, logprobs, sampling FROM turn_tokens WHERE run_id = ? AND ${RANGE}`,
      params,
    )) {
      tokens.set(
        `${textKey(row.task_index, row.budget_label, row.sample)}\u0000${String(row.turn_index)}`,
        tokenFields(row),
      );
    }
  }
  return { turns, tokens };
}

const EPISODES_PER_PAGE = 256;
const episodeKeyOf = (row: EpisodeRecord): EpisodeKeyValues => [row.task_index, row.budget_label, row.sample];

/** Every stored episode of a run with its turns, in key order (what export writes), a page at a time. */
export async function* readEpisodes(
  store: Store,
  runId: string,
  env: string,
  taskIds: ReadonlyMap<number, string>,
): AsyncGenerator<Episode> {
  const withTokens = await hasTurnTokenTable(store);
  let after = BEFORE_FIRST_KEY;
  for (;;) {
    const rows = await store.sql.records<EpisodeRecord>(
      `SELECT * FROM episodes WHERE run_id = ? AND ${afterKey()} ORDER BY task_index, budget_label, sample LIMIT ?`,
      [runId, ...keyParams(after), EPISODES_PER_PAGE],
    );
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (first === undefined || last === undefined) return;
    const { turns, tokens } = await turnsBetween(store, runId, episodeKeyOf(first), episodeKeyOf(last), withTokens);
    for (const row of rows)
      yield toEpisode(
        row,
        runId,
        env,
        taskIds,
        turns.get(textKey(row.task_index, row.budget_label, row.sample)) ?? [],
        tokens,
      );
    if (rows.length < EPISODES_PER_PAGE) return;
    after = episodeKeyOf(last);
  }
}
