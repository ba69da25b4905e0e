// Token data of turns (table turn_tokens): the sampled token ids, their log-probs and the sampling record
// (temperature, top-p, prompt token ids, token texts), one row per turn that has any, keyed like the turn.
// Stored as JSON text: doubles round-trip exactly through JSON, and the export reads them back unchanged.
// Stores made before the table existed have no token data; readers then return nothing (see schema.ts).
import type { Turn } from "../core/episode.js";
import type { SamplingRecord } from "../core/policy.js";
import type { InsertStatement, SqlValue } from "./sql.js";
import type { Store } from "./store.js";

/** The key of one turn: (run, task index, budget label, sample, turn index). */
export type TurnKey = readonly [string, number, string, number, number];

export type TurnTokenFields = Pick<Turn, "tokens" | "logprobs" | "sampling">;

export const TURN_TOKEN_INSERT: InsertStatement = {
  table: "turn_tokens",
  columns: ["run_id", "task_index", "budget_label", "sample", "turn_index", "tokens", "logprobs", "sampling"],
  key: ["run_id", "task_index", "budget_label", "sample", "turn_index"],
  onConflict: "update",
};

export function hasTokenData(turn: TurnTokenFields): boolean {
  return turn.tokens !== undefined || turn.logprobs !== undefined || turn.sampling !== undefined;
}

/** The turn_tokens row of a turn, or undefined when it has no token data. */
export function turnTokenRow(key: TurnKey, turn: TurnTokenFields): SqlValue[] | undefined {
  if (!hasTokenData(turn)) return undefined;
  const text = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
  return [...key, text(turn.tokens), text(turn.logprobs), text(turn.sampling)];
}

export async function hasTurnTokenTable(store: Store): Promise<boolean> {
  return (await store.sql.rows(store.sql.dialect.tableExists, ["turn_tokens"])).length > 0;
}

export interface TurnTokenRecord {
  readonly task_index: number;
  readonly budget_label: string;
  readonly sample: number;
  readonly turn_index: number;
  readonly tokens: string | null;
  readonly logprobs: string | null;
  readonly sampling: string | null;
}

/** The token fields of a stored row. */
export function tokenFields(row: TurnTokenRecord): TurnTokenFields {
  return {
    ...(row.tokens === null ? {} : { tokens: JSON.parse(row.tokens) as number[] }),
    ...(row.logprobs === null ? {} : { logprobs: JSON.parse(row.logprobs) as number[] }),
    ...(row.sampling === null ? {} : { sampling: JSON.parse(row.sampling) as SamplingRecord }),
  };
}
