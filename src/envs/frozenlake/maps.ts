// FrozenLake maps as text: one row per line of S (start), F (frozen), H (hole), G (goal); row 1 is the top.
// Gymnasium's named maps "4x4" and "8x8" are reproduced exactly. A task file holds maps separated by blank
// lines, or lines naming a map ("4x4", "8x8"); lines starting with ";" or "//" are comments. A map must be
// rectangular, at most 64x64, with exactly one S and at least one G (letters may be lower-case). Maps whose
// goal cannot be reached are accepted (the oracle says so). Errors are DataErrors naming the map and line.
import { DataError } from "../../core/errors.js";

export interface FrozenLakeTask {
  readonly rows: readonly string[];
}

export const MAX_MAP_SIDE = 64;

/** Gymnasium's MAPS["4x4"] and MAPS["8x8"]. */
export const NAMED_MAPS: Readonly<Record<string, readonly string[]>> = {
  "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
  "8x8": ["SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"],
};

export const MAP_NAMES = ["4x4", "8x8"] as const;

const ROW = /^[SFHG]+$/;

/** Validate and canonicalise a map; `where` names it in errors. */
export function mapFromRows(rawRows: readonly string[], where: string): FrozenLakeTask {
  if (rawRows.length === 0) throw new DataError(`frozenlake ${where}: empty map`);
  const rows = rawRows.map((row) => row.trim().toUpperCase());
  const width = rows[0]!.length;
  rows.forEach((row, index) => {
    if (!ROW.test(row)) throw new DataError(`frozenlake ${where}, row ${index + 1}: only S, F, H and G are allowed, got ${JSON.stringify(row.slice(0, 80))}`);
    if (row.length !== width) throw new DataError(`frozenlake ${where}, row ${index + 1}: has ${row.length} cells, the first row has ${width}`, "maps must be rectangular");
  });
  if (width > MAX_MAP_SIDE || rows.length > MAX_MAP_SIDE) throw new DataError(`frozenlake ${where}: larger than ${MAX_MAP_SIDE}x${MAX_MAP_SIDE}`);
  const text = rows.join("");
  const starts = text.split("S").length - 1;
  if (starts !== 1) throw new DataError(`frozenlake ${where}: expected exactly one S, found ${starts}`);
  if (!text.includes("G")) throw new DataError(`frozenlake ${where}: no goal (G)`);
  return Object.freeze({ rows: Object.freeze(rows) });
}

export function namedMap(name: string): FrozenLakeTask {
  const rows = NAMED_MAPS[name];
  if (rows === undefined) throw new DataError(`frozenlake: unknown map "${name}"`, `named maps are ${MAP_NAMES.join(", ")}`);
  return mapFromRows(rows, `map ${name}`);
}

function isComment(line: string): boolean {
  return line.startsWith(";") || line.startsWith("//");
}

/** Every map of a task file. */
export function parseMaps(text: string): FrozenLakeTask[] {
  const tasks: FrozenLakeTask[] = [];
  let current: string[] = [];
  let firstLine = 0;
  const flush = (): void => {
    if (current.length > 0) tasks.push(mapFromRows(current, `map ${tasks.length + 1} (line ${firstLine})`));
    current = [];
  };
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || isComment(line)) return flush();
    if (Object.hasOwn(NAMED_MAPS, line.toLowerCase())) {
      flush();
      tasks.push(namedMap(line.toLowerCase()));
      return;
    }
    if (!/^[SFHGsfhg]+$/.test(line)) {
      throw new DataError(`frozenlake map ${tasks.length + 1}, line ${index + 1}: expected a row of S, F, H, G or a map name (${MAP_NAMES.join(", ")}), got ${JSON.stringify(line.slice(0, 80))}`);
    }
    if (current.length === 0) firstLine = index + 1;
    current.push(line);
  });
  flush();
  if (tasks.length === 0) throw new DataError("frozenlake: no maps found in the file");
  return tasks;
}

export function printMap(task: FrozenLakeTask): string {
  return task.rows.join("\n");
}
