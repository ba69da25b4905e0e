// One stored episode by its key (run, task index, budget label, sample), with its turns, as a viewer opens it: the
// episode row and its turns are read through their primary keys (token data is left out: a page shows text).
import type { Episode } from "../core/episode.js";
import { toEpisode, type EpisodeRecord, type TurnRecord } from "./episodes.js";
import type { EpisodeKeyValues } from "./pages.js";
import type { Store } from "./store.js";

/** The episode of `runId` under `key`, or undefined when it is not stored. */
export async function readEpisode(
  store: Store,
  runId: string,
  env: string,
  key: EpisodeKeyValues,
): Promise<Episode | undefined> {
  const [row] = await store.sql.records<EpisodeRecord & { task_id: string | null }>(
    `SELECT e.*, k.task_id FROM episodes e LEFT JOIN tasks k ON k.run_id = e.run_id AND k.task_index = e.task_index
     WHERE e.run_id = ? AND e.task_index = ? AND e.budget_label = ? AND e.sample = ?`,
    [runId, key[0], key[1], key[2]],
  );
  if (row === undefined) return undefined;
  // Its turns by equality on the key (a key range would be estimated as a large part of the run by PostgreSQL).
  const turns = await store.sql.records<TurnRecord>(
    "SELECT * FROM turns WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ? ORDER BY turn_index",
    [runId, key[0], key[1], key[2]],
  );
  const taskIds = new Map(row.task_id === null ? [] : [[row.task_index, row.task_id]]);
  return toEpisode(row, runId, env, taskIds, turns, new Map());
}
