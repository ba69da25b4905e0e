// Token data of turns (table turn_tokens): the sampled token ids, their log-probs and the sampling record
// (temperature, top-p, prompt token ids, token texts), one row per turn that has any, keyed like the turn.
// Stored as JSON text: doubles round-trip exactly through JSON, and the export reads them back unchanged.
// Stores made before the table existed have no token data; readers then return nothing (see schema.ts).
import type { Turn } from "../core/episode.js";
import type { SamplingRecord } from "../core/policy.js";
import type { Db } from "./open.js";

/** The key of one turn: (run, task index, budget label, sample, turn index). */
export type TurnKey = readonly [string, number, string, number, number];
type EpisodeKeyTuple = readonly [string, number, string, number];

export type TurnTokenFields = Pick<Turn, "tokens" | "logprobs" | "sampling">;

export interface TurnTokenWriter {
  /** Insert the turn's token data (nothing when it has none). */
  write(key: TurnKey, turn: TurnTokenFields): void;
  /** Remove the token data of an episode (an errored attempt being replaced). */
  deleteEpisode(key: EpisodeKeyTuple): void;
}

export function hasTokenData(turn: TurnTokenFields): boolean {
  return turn.tokens !== undefined || turn.logprobs !== undefined || turn.sampling !== undefined;
}

export function createTurnTokenWriter(db: Db): TurnTokenWriter {
  const insert = db.prepare("INSERT OR REPLACE INTO turn_tokens (run_id, task_index, budget_label, sample, turn_index, tokens, logprobs, sampling) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const remove = db.prepare("DELETE FROM turn_tokens WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ?");
  const text = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
  return {
    write(key, turn) {
      if (!hasTokenData(turn)) return;
      insert.run(...key, text(turn.tokens), text(turn.logprobs), text(turn.sampling));
    },
    deleteEpisode(key) {
      remove.run(...key);
    },
  };
}

function tableExists(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'turn_tokens'").get() !== undefined;
}

/** Token data of an episode's turns by turn index (empty for stores without the table). */
export function createTurnTokenReader(db: Db): (key: EpisodeKeyTuple) => Map<number, TurnTokenFields> {
  if (!tableExists(db)) return () => new Map();
  const select = db.prepare("SELECT turn_index, tokens, logprobs, sampling FROM turn_tokens WHERE run_id = ? AND task_index = ? AND budget_label = ? AND sample = ?");
  return (key) => {
    const rows = select.all(...key) as { turn_index: number; tokens: string | null; logprobs: string | null; sampling: string | null }[];
    return new Map(
      rows.map((row) => [
        row.turn_index,
        {
          ...(row.tokens === null ? {} : { tokens: JSON.parse(row.tokens) as number[] }),
          ...(row.logprobs === null ? {} : { logprobs: JSON.parse(row.logprobs) as number[] }),
          ...(row.sampling === null ? {} : { sampling: JSON.parse(row.sampling) as SamplingRecord }),
        },
      ]),
    );
  };
}
