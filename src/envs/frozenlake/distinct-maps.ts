// How many distinct maps the generator can give (the env's tasks.distinctTasks). A generated map has S top-left, G
// bottom-right and every other cell frozen or a hole, and is kept only when the goal is reachable (generator.ts).
// With p < 1 every such map has a positive probability, so the count is the number of hole patterns with a
// reachable goal; with p = 1 every cell is frozen: one map. Counted by enumerating the 2^(size^2 - 2) patterns,
// which is cheap up to MAX_COUNTED_SIZE (4: 16,384 patterns, about 50 ms, once per process); larger sizes are not
// counted (mapsCountable). The same enumeration counts their structures (distinct structure keys: the cells cut
// off from S by holes left out), the env's tasks.distinctStructures.
// Note the count says which maps can occur, not how likely they are: at p = 0.8 a 4x4 map with ten holes has
// probability about 4e-8, so long before the count runs out a run notices that draws stop giving new maps.
import { goalReachable } from "./generator.js";
import { frozenLakeStructureKey } from "./maps.js";

export const MAX_COUNTED_SIZE = 4;

/** Maps and their structures, of side `size` with S top-left, G bottom-right, holes anywhere else and a reachable
 * goal (distinct structures: maps that differ only in cells cut off from S count once). */
interface MapCounts {
  readonly maps: number;
  readonly structures: number;
}

const counted = new Map<number, MapCounts>();

function countMaps(size: number): MapCounts {
  const known = counted.get(size);
  if (known !== undefined) return known;
  const inner = size * size - 2;
  let maps = 0;
  const structures = new Set<string>();
  for (let holes = 0; holes < 2 ** inner; holes++) {
    const cells = Array.from({ length: size * size }, (_, cell) =>
      cell === 0 ? "S" : cell === size * size - 1 ? "G" : (holes >> (cell - 1)) & 1 ? "H" : "F",
    );
    const rows = Array.from({ length: size }, (_, row) => cells.slice(row * size, (row + 1) * size).join(""));
    if (!goalReachable(rows)) continue;
    maps++;
    structures.add(frozenLakeStructureKey({ rows }));
  }
  const result = { maps, structures: structures.size };
  counted.set(size, result);
  return result;
}

/** Maps of side `size` with S top-left, G bottom-right, holes anywhere else and a reachable goal. */
export function reachableMapCount(size: number): number {
  return countMaps(size).maps;
}

/** Whether generatedMapCount counts a config's maps cheaply. */
export function mapsCountable(size: number, p: number): boolean {
  return p >= 1 || size <= MAX_COUNTED_SIZE;
}

/** Distinct generated maps of a countable config (see mapsCountable). */
export function generatedMapCount(size: number, p: number): number {
  return p >= 1 ? 1 : reachableMapCount(size);
}

/** Distinct structures of the generated maps of a countable config (see mapsCountable). */
export function generatedStructureCount(size: number, p: number): number {
  return p >= 1 ? 1 : countMaps(size).structures;
}
