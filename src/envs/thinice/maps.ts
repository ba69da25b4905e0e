// Thin ice maps as text: one row per line of S (start), G (goal), . (ice), ~ (thin ice), # (rock); row 1 is
// the top. A task file holds maps separated by blank lines; lines starting with ";" or "//" are comments.
// A map must be rectangular, at most 32x32, with exactly one S and at least one G (s and g may be
// lower-case). Maps whose goal cannot be reached, or without a budget trade-off, are accepted: the oracle
// says what they are worth. Errors are DataErrors naming the map and line. Reading and writing are
// shared/grid-maps.ts's, in this env's format.
import { gridMapFromRows, parseGridMaps, printGridMap, type GridMap, type GridMapFormat } from "../shared/grid-maps.js";

export type ThinIceTask = GridMap;

export const MAX_MAP_SIDE = 32;

export const THINICE_MAPS: GridMapFormat = { env: "thinice", cells: ["S", "G", ".", "~", "#"], maxSide: MAX_MAP_SIDE };

/** Validate and canonicalise a map; `where` names it in errors. */
export function mapFromRows(rawRows: readonly string[], where: string): ThinIceTask {
  return gridMapFromRows(THINICE_MAPS, rawRows, where);
}

/** Every map of a task file. */
export function parseMaps(text: string): ThinIceTask[] {
  return parseGridMaps(THINICE_MAPS, text);
}

export const printMap: (task: ThinIceTask) => string = printGridMap;
