// Grid maps as text, for the envs whose tasks are rectangular maps of one-character cells (frozenlake, thinice):
// one row per line, row 1 the top. Each env declares its format once (its name, its cells, the largest side,
// maps a task file may name); this file reads a map from rows, from a task file or from a stored task, and
// writes it back, also with the player drawn as P. A map's rows are trimmed and upper-cased; it must be
// non-empty, rectangular, at most maxSide x maxSide, of the env's cells only, with exactly one S and at least
// one G. A task file holds maps separated by blank lines, lines starting with ";" or "//" being comments; its
// rows may be lower-case, and a line may name a whole map (frozenlake's "4x4"). Every error is a DataError that
// starts with the env's name and names the map and the row or line; the cells are listed in the order the env
// declares them.
import { DataError } from "../../core/errors.js";
import { hashHex } from "../../core/hash.js";
import type { Json } from "../../core/json.js";

export interface GridMap {
  readonly rows: readonly string[];
}

export interface GridMapFormat {
  /** The env's name: the first word of every error and of every task id. */
  readonly env: string;
  /** The one-character cells a row may hold, upper-case (S and G among them), in the order errors list them. */
  readonly cells: readonly string[];
  /** The most rows, and the most cells in a row. */
  readonly maxSide: number;
  /** Maps a task file may name on a line of their own, by lower-case name. */
  readonly namedMaps?: Readonly<Record<string, readonly string[]>>;
}

/** Items as prose: "a, b, c and d" (or "... or d"). */
function listed(items: readonly string[], conjunction: "and" | "or"): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)!}`;
}

/** Whether `row` is one or more characters, each one of `allowed`. */
function holdsOnly(row: string, allowed: ReadonlySet<string>): boolean {
  return row.length > 0 && [...row].every((char) => allowed.has(char));
}

/** Validate and canonicalise a map; `where` names it in errors ("map 2 (line 7)"). */
export function gridMapFromRows(format: GridMapFormat, rawRows: readonly string[], where: string): GridMap {
  const { env, cells, maxSide } = format;
  if (rawRows.length === 0) throw new DataError(`${env} ${where}: empty map`);
  const rows = rawRows.map((row) => row.trim().toUpperCase());
  const width = rows[0]!.length;
  const allowed = new Set(cells);
  rows.forEach((row, index) => {
    if (!holdsOnly(row, allowed))
      throw new DataError(
        `${env} ${where}, row ${index + 1}: only ${listed(cells, "and")} are allowed, got ${JSON.stringify(row.slice(0, 80))}`,
      );
    if (row.length !== width)
      throw new DataError(
        `${env} ${where}, row ${index + 1}: has ${row.length} cells, the first row has ${width}`,
        "maps must be rectangular",
      );
  });
  if (width > maxSide || rows.length > maxSide)
    throw new DataError(`${env} ${where}: larger than ${maxSide}x${maxSide}`);
  const text = rows.join("");
  const starts = text.split("S").length - 1;
  if (starts !== 1) throw new DataError(`${env} ${where}: expected exactly one S, found ${starts}`);
  if (!text.includes("G")) throw new DataError(`${env} ${where}: no goal (G)`);
  return Object.freeze({ rows: Object.freeze(rows) });
}

function isComment(line: string): boolean {
  return line.startsWith(";") || line.startsWith("//");
}

/** Every map of a task file. */
export function parseGridMaps(format: GridMapFormat, text: string): GridMap[] {
  const { env, cells, namedMaps = {} } = format;
  const fileCells = new Set([...cells, ...cells.map((cell) => cell.toLowerCase())]);
  const names = Object.keys(namedMaps);
  const expected = listed([...cells, ...(names.length > 0 ? [`a map name (${names.join(", ")})`] : [])], "or");
  const tasks: GridMap[] = [];
  let current: string[] = [];
  let firstLine = 0;
  const flush = (): void => {
    if (current.length > 0) tasks.push(gridMapFromRows(format, current, `map ${tasks.length + 1} (line ${firstLine})`));
    current = [];
  };
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || isComment(line)) return flush();
    const name = line.toLowerCase();
    if (Object.hasOwn(namedMaps, name)) {
      flush();
      tasks.push(gridMapFromRows(format, namedMaps[name]!, `map ${name}`));
      return;
    }
    if (!holdsOnly(line, fileCells))
      throw new DataError(
        `${env} map ${tasks.length + 1}, line ${index + 1}: expected a row of ${expected}, got ${JSON.stringify(line.slice(0, 80))}`,
      );
    if (current.length === 0) firstLine = index + 1;
    current.push(line);
  });
  flush();
  if (tasks.length === 0) throw new DataError(`${env}: no maps found in the file`);
  return tasks;
}

/** The map as text, rows joined by newlines (what parseGridMaps reads back). */
export function printGridMap(map: GridMap): string {
  return map.rows.join("\n");
}

/** The map as text with P at the player's cell (row-major from the top-left: cell = row x width + column). */
export function printGridMapWithPlayer(map: GridMap, cell: number): string {
  const width = map.rows[0]!.length;
  const row = Math.floor(cell / width);
  const column = cell % width;
  return map.rows
    .map((line, index) => (index === row ? `${line.slice(0, column)}P${line.slice(column + 1)}` : line))
    .join("\n");
}

/** Stable id of a map: the env's name and a hash of its rows. */
export function gridMapId(format: GridMapFormat, map: GridMap): string {
  return `${format.env}-${hashHex(printGridMap(map))}`;
}

/** A stored task, {"rows": [string, ...]}. */
export function gridMapToJson(map: GridMap): Json {
  return { rows: [...map.rows] };
}

/** A stored task read back and validated as a map. */
export function gridMapFromJson(format: GridMapFormat, json: Json): GridMap {
  const rows =
    json !== null && typeof json === "object" && !Array.isArray(json) ? (json as { rows?: unknown }).rows : undefined;
  if (!Array.isArray(rows) || !rows.every((row): row is string => typeof row === "string")) {
    throw new DataError(`${format.env}: a task must be {"rows": [string, ...]}`);
  }
  return gridMapFromRows(format, rows, "task");
}
