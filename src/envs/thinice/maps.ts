// Thin ice maps as text: one row per line of S (start), G (goal), . (ice), ~ (thin ice), # (rock); row 1 is
// the top. A task file holds maps separated by blank lines; lines starting with ";" or "//" are comments.
// A map must be rectangular, at most 32x32, with exactly one S and at least one G (s and g may be
// lower-case). Maps whose goal cannot be reached, or without a budget trade-off, are accepted: the oracle
// says what they are worth. Errors are DataErrors naming the map and line.
import { DataError } from "../../core/errors.js";

export interface ThinIceTask {
  readonly rows: readonly string[];
}

export const MAX_MAP_SIDE = 32;

const ROW = /^[SG.~#]+$/;
const FILE_ROW = /^[SGsg.~#]+$/;

/** Validate and canonicalise a map; `where` names it in errors. */
export function mapFromRows(rawRows: readonly string[], where: string): ThinIceTask {
  if (rawRows.length === 0) throw new DataError(`thinice ${where}: empty map`);
  const rows = rawRows.map((row) => row.trim().toUpperCase());
  const width = rows[0]!.length;
  rows.forEach((row, index) => {
    if (!ROW.test(row)) throw new DataError(`thinice ${where}, row ${index + 1}: only S, G, ., ~ and # are allowed, got ${JSON.stringify(row.slice(0, 80))}`);
    if (row.length !== width) throw new DataError(`thinice ${where}, row ${index + 1}: has ${row.length} cells, the first row has ${width}`, "maps must be rectangular");
  });
  if (width > MAX_MAP_SIDE || rows.length > MAX_MAP_SIDE) throw new DataError(`thinice ${where}: larger than ${MAX_MAP_SIDE}x${MAX_MAP_SIDE}`);
  const text = rows.join("");
  const starts = text.split("S").length - 1;
  if (starts !== 1) throw new DataError(`thinice ${where}: expected exactly one S, found ${starts}`);
  if (!text.includes("G")) throw new DataError(`thinice ${where}: no goal (G)`);
  return Object.freeze({ rows: Object.freeze(rows) });
}

function isComment(line: string): boolean {
  return line.startsWith(";") || line.startsWith("//");
}

/** Every map of a task file. */
export function parseMaps(text: string): ThinIceTask[] {
  const tasks: ThinIceTask[] = [];
  let current: string[] = [];
  let firstLine = 0;
  const flush = (): void => {
    if (current.length > 0) tasks.push(mapFromRows(current, `map ${tasks.length + 1} (line ${firstLine})`));
    current = [];
  };
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || isComment(line)) return flush();
    if (!FILE_ROW.test(line)) throw new DataError(`thinice map ${tasks.length + 1}, line ${index + 1}: expected a row of S, G, ., ~ or #, got ${JSON.stringify(line.slice(0, 80))}`);
    if (current.length === 0) firstLine = index + 1;
    current.push(line);
  });
  flush();
  if (tasks.length === 0) throw new DataError("thinice: no maps found in the file");
  return tasks;
}

export function printMap(task: ThinIceTask): string {
  return task.rows.join("\n");
}
