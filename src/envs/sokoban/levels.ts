// Sokoban levels in the common text format, read and written.
//   #  wall          @  player          $  box            .  goal
//   (space) floor    +  player on goal  *  box on goal    -  _  floor too (some collections use them)
// A file holds several levels separated by blank lines or by ";" header lines (as in the Boxoban files:
// "; 0" then ten rows). Ragged rows are padded with floor. A level must have exactly one player, at least
// one box, as many goals as boxes, and not already be solved. Whether it can be solved is the oracle's question,
// not the reader's: runs refuse an unsolvable level before they start (the env's tasks.problem). Errors are
// DataErrors naming the level and the line.
import { DataError } from "../../core/errors.js";

/** A sokoban task: the level's rows in canonical form (standard characters, padded to equal width). */
export interface SokobanTask {
  readonly rows: readonly string[];
}

/** Largest level side accepted from files. */
export const MAX_LEVEL_SIDE = 64;

const LEVEL_CHARS = new Set(["#", " ", "@", "+", "$", "*", ".", "-", "_"]);

function canonicalChar(char: string): string {
  return char === "-" || char === "_" ? " " : char;
}

function countOf(rows: readonly string[], chars: string): number {
  let count = 0;
  for (const row of rows) for (const char of row) if (chars.includes(char)) count += 1;
  return count;
}

/** Validate and canonicalise one level's rows; `where` names it in errors ("level 3 (line 14)"). */
export function levelFromRows(rawRows: readonly string[], where: string): SokobanTask {
  if (rawRows.length === 0) throw new DataError(`sokoban ${where}: empty level`);
  const width = Math.max(...rawRows.map((row) => row.length));
  if (width > MAX_LEVEL_SIDE || rawRows.length > MAX_LEVEL_SIDE) {
    throw new DataError(
      `sokoban ${where}: level is ${width}x${rawRows.length}, larger than ${MAX_LEVEL_SIDE}x${MAX_LEVEL_SIDE}`,
    );
  }
  const rows = rawRows.map((row, index) => {
    let out = "";
    for (const char of row) {
      if (!LEVEL_CHARS.has(char))
        throw new DataError(
          `sokoban ${where}, row ${index + 1}: unexpected character ${JSON.stringify(char)}`,
          "use # @ + $ * . and space",
        );
      out += canonicalChar(char);
    }
    return out.padEnd(width, " ");
  });
  const players = countOf(rows, "@+");
  if (players !== 1) throw new DataError(`sokoban ${where}: expected exactly one player (@ or +), found ${players}`);
  const boxes = countOf(rows, "$*");
  const goals = countOf(rows, ".*+");
  if (boxes === 0) throw new DataError(`sokoban ${where}: no boxes ($ or *)`);
  if (boxes !== goals) throw new DataError(`sokoban ${where}: ${boxes} boxes but ${goals} goals`);
  if (countOf(rows, "$") === 0) throw new DataError(`sokoban ${where}: every box is already on a goal`);
  return Object.freeze({ rows: Object.freeze(rows) });
}

function isSeparator(line: string): boolean {
  return line.trim() === "" || line.trimStart().startsWith(";");
}

/** Every level of a file. Throws DataError naming the level and line on malformed input. */
export function parseLevels(text: string): SokobanTask[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const tasks: SokobanTask[] = [];
  let current: string[] = [];
  let firstLine = 0;
  const flush = (): void => {
    if (current.length > 0) tasks.push(levelFromRows(current, `level ${tasks.length + 1} (line ${firstLine})`));
    current = [];
  };
  lines.forEach((line, index) => {
    if (isSeparator(line)) {
      flush();
      return;
    }
    const row = line.replace(/\s+$/, "");
    for (const char of row) {
      if (!LEVEL_CHARS.has(char)) {
        throw new DataError(
          `sokoban level ${tasks.length + 1}, line ${index + 1}: unexpected character ${JSON.stringify(char)}`,
          "levels use # @ + $ * . and space; separate them with blank lines or ; headers",
        );
      }
    }
    if (current.length === 0) firstLine = index + 1;
    current.push(row);
  });
  flush();
  if (tasks.length === 0) throw new DataError("sokoban: no levels found in the file");
  return tasks;
}

/** The level's text, rows joined by newlines (trailing spaces kept, so it reads back identically). */
export function printLevel(task: SokobanTask): string {
  return task.rows.join("\n");
}
