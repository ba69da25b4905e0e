// FrozenLake maps as text: one row per line of S (start), F (frozen), H (hole), G (goal); row 1 is the top.
// Gymnasium's named maps "4x4" and "8x8" are reproduced exactly. A task file holds maps separated by blank
// lines, or lines naming a map ("4x4", "8x8"); lines starting with ";" or "//" are comments. A map must be
// rectangular, at most 64x64, with exactly one S and at least one G (letters may be lower-case). Maps whose
// goal cannot be reached are accepted (the oracle says so). Errors are DataErrors naming the map and line.
// Reading and writing are shared/grid-maps.ts's, in this env's format.
import { DataError } from "../../core/errors.js";
import {
  gridMapFromRows,
  gridMapId,
  parseGridMaps,
  printGridMap,
  type GridMap,
  type GridMapFormat,
} from "../shared/grid-maps.js";
import { playableRows } from "../shared/playable-rows.js";

export type FrozenLakeTask = GridMap;

export const MAX_MAP_SIDE = 64;

/** Gymnasium's MAPS["4x4"] and MAPS["8x8"]. */
export const NAMED_MAPS: Readonly<Record<string, readonly string[]>> = {
  "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
  "8x8": ["SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"],
};

export const MAP_NAMES = ["4x4", "8x8"] as const;

export const FROZENLAKE_MAPS: GridMapFormat = {
  env: "frozenlake",
  cells: ["S", "F", "H", "G"],
  maxSide: MAX_MAP_SIDE,
  namedMaps: NAMED_MAPS,
};

/** Validate and canonicalise a map; `where` names it in errors. */
export function mapFromRows(rawRows: readonly string[], where: string): FrozenLakeTask {
  return gridMapFromRows(FROZENLAKE_MAPS, rawRows, where);
}

export function namedMap(name: string): FrozenLakeTask {
  const rows = NAMED_MAPS[name];
  if (rows === undefined)
    throw new DataError(`frozenlake: unknown map "${name}"`, `named maps are ${MAP_NAMES.join(", ")}`);
  return mapFromRows(rows, `map ${name}`);
}

/** Every map of a task file. */
export function parseMaps(text: string): FrozenLakeTask[] {
  return parseGridMaps(FROZENLAKE_MAPS, text);
}

export const printMap: (task: FrozenLakeTask) => string = printGridMap;

/** The structure of a map: the id of the map with every cell the player cannot reach (cut off from S by holes)
 * turned into a hole; its own id when every cell is reachable. Holes and goals end the episode, so nothing past
 * them is reached. */
export function frozenLakeStructureKey(task: FrozenLakeTask): string {
  return gridMapId(FROZENLAKE_MAPS, {
    rows: playableRows(task.rows, { start: "S", blocks: "", ends: "GH", filler: "H" }),
  });
}
