// Writing and reading episodes. The writer batches episodes into transactions (each episode with all its turns),
// ignores an episode whose key is already stored, and flushes on demand, so a kill -9 loses only episodes that
// were never committed, and those are recomputed identically on resume.
import type { Episode, ForcedAction } from "../core/episode.js";
import type { Message } from "../core/message.js";
import type { Json } from "../core/json.js";
import type { FirstSuccess, OutcomeCounts } from "../core/outcome.js";
import type { Store } from "./open.js";
import { createTurnTokenReader, createTurnTokenWriter } from "./turn-tokens.js";

export interface EpisodeWriter {
  write(episode: Episode): void;
  flush(): void;
  /** Episodes committed so far by this writer (duplicates excluded). */
  readonly written: () => number;
}

export function createEpisodeWriter(store: Store, options: { readonly batchSize?: number } = {}): EpisodeWriter {
  const batchSize = options.batchSize ?? 64;
  const insertEpisode = store.db.prepare(
    `INSERT OR IGNORE INTO episodes (run_id, task_index, budget_label, sample, seed, budget_turns, budget_mode, budget_scope, success, stop_reason,
       stop_limit, turns_used, success_turn, return, initial_progress, error, preamble) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTurn = store.db.prepare(
    `INSERT INTO turns (run_id, task_index, budget_label, sample, turn_index, segment, observation, action, parsed_action, invalid, reward,
       terminated, truncated, progress, state_key, optimal, remaining_before, value_before, details, forced) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deleteEpisode = store.db.prepare("DELETE FROM episodes WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ? AND stop_reason = 'error'");
  const deleteTurns = store.db.prepare("DELETE FROM turns WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ?");
  const tokens = createTurnTokenWriter(store.db);
  let pending: Episode[] = [];
  let written = 0;
  const transaction = store.db.transaction((batch: readonly Episode[]) => {
    for (const episode of batch) {
      const key = [episode.run, episode.taskIndex, episode.budget.label, episode.sample] as const;
      // An earlier attempt that ended in a policy error is replaced by the new one.
      if (deleteEpisode.run(...key).changes > 0) {
        deleteTurns.run(...key);
        tokens.deleteEpisode(key);
      }
      const inserted = insertEpisode.run(
        ...key,
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
      );
      if (inserted.changes === 0) continue;
      written++;
      for (const turn of episode.turns) {
        insertTurn.run(
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
        );
        tokens.write([...key, turn.index], turn);
      }
    }
  });
  const flush = (): void => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    // IMMEDIATE: take the write lock first, so a writer busy in another process is waited for (busy timeout).
    transaction.immediate(batch);
  };
  return {
    write(episode) {
      pending.push(episode);
      if (pending.length >= batchSize) flush();
    },
    flush,
    written: () => written,
  };
}

export function episodeKey(taskIndex: number, budgetLabel: string, sample: number): string {
  return `${taskIndex}\u0000${budgetLabel}\u0000${sample}`;
}

/** Keys of the stored episodes of a run that need no re-run (policy errors excluded), optionally only those of
 * tasks with index in [from, to) (a streamed plan reads them one chunk of tasks at a time). */
export function completedEpisodeKeys(store: Store, runId: string, range: { readonly from: number; readonly to: number } = { from: 0, to: Number.MAX_SAFE_INTEGER }): Set<string> {
  const keys = new Set<string>();
  const rows = store.db
    .prepare("SELECT task_index, budget_label, sample FROM episodes WHERE run_id = ? AND task_index >= ? AND task_index < ? AND stop_reason != 'error'")
    .raw()
    .iterate(runId, range.from, range.to) as IterableIterator<[number, string, number]>;
  for (const [taskIndex, label, sample] of rows) keys.add(episodeKey(taskIndex, label, sample));
  return keys;
}

/** Number of stored episodes of a run that need no re-run (policy errors excluded). */
export function completedEpisodeCount(store: Store, runId: string): number {
  return store.db.prepare("SELECT COUNT(*) FROM episodes WHERE run_id = ? AND stop_reason != 'error'").pluck().get(runId) as number;
}

/** Successes and samples per (task, budget), policy errors excluded: the input of Pass@(K,T). */
export function outcomeCounts(store: Store, runId: string): OutcomeCounts[] {
  const rows = store.db
    .prepare("SELECT task_index, budget_label, COUNT(*), SUM(success) FROM episodes WHERE run_id = ? AND stop_reason != 'error' GROUP BY task_index, budget_label")
    .raw()
    .all(runId) as [number, string, number, number][];
  return rows.map(([taskIndex, budget, n, c]) => ({ taskIndex, budget, n, c }));
}

/** First-success turns of every episode under one budget label (protocol b). */
export function firstSuccesses(store: Store, runId: string, budgetLabel: string): FirstSuccess[] {
  const rows = store.db.prepare("SELECT task_index, success_turn FROM episodes WHERE run_id = ? AND budget_label = ? AND stop_reason != 'error'").raw().all(runId, budgetLabel) as [number, number | null][];
  return rows.map(([taskIndex, successTurn]) => ({ taskIndex, successTurn }));
}

/** Every stored episode of a run with its turns, in key order (what export writes). */
export function* readEpisodes(store: Store, runId: string, env: string, taskIds: ReadonlyMap<number, string>): Generator<Episode> {
  const episodes = store.db.prepare("SELECT * FROM episodes WHERE run_id = ? ORDER BY task_index, budget_label, sample").iterate(runId) as IterableIterator<Record<string, unknown>>;
  const turnsOf = store.db.prepare("SELECT * FROM turns WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ? ORDER BY turn_index");
  const tokensOf = createTurnTokenReader(store.db);
  for (const row of episodes) {
    const key = [runId, row["task_index"] as number, row["budget_label"] as string, row["sample"] as number] as const;
    const turnRows = turnsOf.all(...key) as Record<string, unknown>[];
    const tokenData = tokensOf(key);
    yield {
      run: runId,
      env,
      taskId: taskIds.get(row["task_index"] as number) ?? String(row["task_index"]),
      taskIndex: row["task_index"] as number,
      budget: { turns: row["budget_turns"] as number, mode: row["budget_mode"] as Episode["budget"]["mode"], scope: row["budget_scope"] as Episode["budget"]["scope"], label: row["budget_label"] as string },
      sample: row["sample"] as number,
      seed: row["seed"] as number,
      preamble: JSON.parse(row["preamble"] as string) as Message[],
      turns: turnRows.map((turn) => ({
        index: turn["turn_index"] as number,
        segment: turn["segment"] as number,
        observation: JSON.parse(turn["observation"] as string) as Message[],
        action: JSON.parse(turn["action"] as string) as Message,
        parsedAction: turn["parsed_action"] as string | null,
        invalid: turn["invalid"] === 1,
        reward: turn["reward"] as number,
        terminated: turn["terminated"] === 1,
        truncated: turn["truncated"] === 1,
        progress: turn["progress"] as number,
        stateKey: turn["state_key"] as string,
        ...(turn["optimal"] === null ? {} : { optimal: turn["optimal"] === 1 }),
        ...(turn["remaining_before"] === null ? {} : { remainingBefore: turn["remaining_before"] as number }),
        ...(turn["value_before"] === null || turn["value_before"] === undefined ? {} : { valueBefore: turn["value_before"] as number }),
        ...(turn["details"] === null ? {} : { details: JSON.parse(turn["details"] as string) as Json }),
        ...(turn["forced"] === null || turn["forced"] === undefined ? {} : { forced: JSON.parse(turn["forced"] as string) as ForcedAction }),
        ...tokenData.get(turn["turn_index"] as number),
      })),
      success: row["success"] === 1,
      stopReason: row["stop_reason"] as Episode["stopReason"],
      stopLimit: row["stop_limit"] as string | null,
      turnsUsed: row["turns_used"] as number,
      successTurn: row["success_turn"] as number | null,
      return: row["return"] as number,
      initialProgress: row["initial_progress"] as number,
      ...(row["error"] === null ? {} : { error: row["error"] as string }),
    };
  }
}
