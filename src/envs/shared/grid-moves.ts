// A grid map compiled for moving on it, for the envs whose players walk one cell per turn (frozenlake, thinice):
// each cell's kind (the env reads it from the cell's character), the start cell (the S), and the table of
// moves: the cell reached from cell c in direction d (DIRECTIONS order) at index 4c+d. A move off the map, or
// onto a wall (a cell whose kind the env says blocks; none by default), leaves the player on c. Cells are
// numbered row-major from the top-left: cell = row x width + column.
import { COLUMN_DELTA, ROW_DELTA } from "./directions.js";

export interface GridMoves {
  readonly width: number;
  readonly height: number;
  readonly start: number;
  /** Cell reached from cell c moving in direction d, at index 4c+d (c itself at the edge or before a wall). */
  readonly next: Int32Array;
  /** The env's kind per cell. */
  readonly kind: Uint8Array;
}

export function compileGridMoves(
  rows: readonly string[],
  kindOf: (char: string) => number,
  isWall: (kind: number) => boolean = () => false,
): GridMoves {
  const height = rows.length;
  const width = rows[0]!.length;
  const kind = new Uint8Array(width * height);
  const next = new Int32Array(width * height * 4);
  let start = 0;
  rows.forEach((row, r) => {
    for (let column = 0; column < width; column++) {
      kind[r * width + column] = kindOf(row[column]!);
      if (row[column] === "S") start = r * width + column;
    }
  });
  for (let cell = 0; cell < kind.length; cell++) {
    const row = Math.floor(cell / width);
    const column = cell % width;
    for (let direction = 0; direction < 4; direction++) {
      const r = row + ROW_DELTA[direction]!;
      const c = column + COLUMN_DELTA[direction]!;
      const inside = r >= 0 && r < height && c >= 0 && c < width;
      next[cell * 4 + direction] = inside && !isWall(kind[r * width + c]!) ? r * width + c : cell;
    }
  }
  return { width, height, start, next, kind };
}
