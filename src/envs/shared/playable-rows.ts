// The playable part of a grid map, what the structure keys of the grid envs keep (thinice, frozenlake, sokoban):
// the cells a player can ever enter, found by 4-neighbour moves from the start. A blocking cell (a rock, a wall) is
// never entered; an ending cell (a goal, a hole) is entered but never left, since the episode ends there. Every
// other cell is decoration the player never meets and becomes `filler`, so two maps that differ only there have
// equal playable rows; a map every cell of which is playable comes back unchanged.
//   thinice     blocks #, ends G, filler #      (decoration away from the corridor turns to rock)
//   frozenlake  blocks none, ends G and H, filler H
//   sokoban     blocks #, ends none, filler #, start @ or + (boxes count as floor: the player may push them)

export interface PlayableCells {
  /** Characters of the start cell (the first one found is the start). */
  readonly start: string;
  /** Characters of cells no move enters. */
  readonly blocks: string;
  /** Characters of cells a move enters and no move leaves (the episode ends there). */
  readonly ends: string;
  /** The character an unreachable cell becomes. */
  readonly filler: string;
}

/** The rows with every cell the player can never enter replaced by `filler`. Rows may differ in length. */
export function playableRows(rows: readonly string[], cells: PlayableCells): string[] {
  const grid = rows.map((row) => [...row]);
  const reached = grid.map((row) => row.map(() => false));
  const stack: (readonly [number, number])[] = [];
  const startRow = grid.findIndex((row) => row.some((char) => cells.start.includes(char)));
  if (startRow >= 0) {
    const start = [startRow, grid[startRow]!.findIndex((char) => cells.start.includes(char))] as const;
    reached[start[0]]![start[1]] = true;
    stack.push(start);
  }
  while (stack.length > 0) {
    const [row, column] = stack.pop()!;
    if (cells.ends.includes(grid[row]![column]!)) continue;
    for (const [r, c] of [
      [row - 1, column],
      [row + 1, column],
      [row, column - 1],
      [row, column + 1],
    ] as const) {
      const char = grid[r]?.[c];
      if (char === undefined || reached[r]![c] === true || cells.blocks.includes(char)) continue;
      reached[r]![c] = true;
      stack.push([r, c]);
    }
  }
  return grid.map((row, r) => row.map((char, c) => (reached[r]![c] === true ? char : cells.filler)).join(""));
}
