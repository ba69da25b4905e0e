// Reading large ordered results a page at a time (keyset pagination): each page is the next rows after the last
// key of the page before, read through the primary key's index, so a run of a million episodes streams in bounded
// memory on both backends, with no cursor held open between pages (a paused reader blocks no writer). The readers
// (episodes.ts, analysis-rows.ts) page with these pieces.
import type { SqlValue } from "./sql.js";

/** An episode key: (task index, budget label, sample), compared as a row value in key order. */
export type EpisodeKeyValues = readonly [number, string, number];

/** Before every real key (task indices and samples are never negative). */
export const BEFORE_FIRST_KEY: EpisodeKeyValues = [-1, "", -1];

/** The SQL condition "(task_index, budget_label, sample) > (?, ?, ?)" for the columns of `alias` (or none). */
export function afterKey(alias = ""): string {
  const prefix = alias === "" ? "" : `${alias}.`;
  return `(${prefix}task_index, ${prefix}budget_label, ${prefix}sample) > (?, ?, ?)`;
}

export const keyParams = (key: EpisodeKeyValues): SqlValue[] => [key[0], key[1], key[2]];
