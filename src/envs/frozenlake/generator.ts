// Seeded random FrozenLake maps, as Gymnasium's generate_random_map: S at the top-left, G at the
// bottom-right, every other cell frozen with probability p and a hole otherwise; maps whose goal cannot be
// reached from the start (4-neighbour search through non-hole cells) are drawn again.
import { DataError } from "../../core/errors.js";
import { createRng } from "../../core/rng.js";
import { mapFromRows, type FrozenLakeTask } from "./maps.js";

const MAX_ATTEMPTS = 100_000;

/** Whether a G is reachable from the S through non-hole cells. */
export function goalReachable(rows: readonly string[]): boolean {
  const height = rows.length;
  const width = rows[0]!.length;
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  rows.forEach((row, r) => {
    const column = row.indexOf("S");
    if (column >= 0) stack.push(r * width + column);
  });
  for (const cell of stack) seen[cell] = 1;
  while (stack.length > 0) {
    const cell = stack.pop()!;
    const row = Math.floor(cell / width);
    const column = cell % width;
    if (rows[row]![column] === "G") return true;
    const neighbours = [
      row > 0 ? cell - width : -1,
      row < height - 1 ? cell + width : -1,
      column > 0 ? cell - 1 : -1,
      column < width - 1 ? cell + 1 : -1,
    ];
    for (const next of neighbours) {
      if (next < 0 || seen[next] === 1 || rows[Math.floor(next / width)]![next % width] === "H") continue;
      seen[next] = 1;
      stack.push(next);
    }
  }
  return false;
}

export function generateMap(size: number, frozenFraction: number, seed: number): FrozenLakeTask {
  const rng = createRng(seed);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rows = Array.from({ length: size }, (_, row) =>
      Array.from({ length: size }, (_, column) => {
        if (row === 0 && column === 0) return "S";
        if (row === size - 1 && column === size - 1) return "G";
        return rng.next() < frozenFraction ? "F" : "H";
      }).join(""),
    );
    if (goalReachable(rows)) return mapFromRows(rows, "generated map");
  }
  throw new DataError(
    `frozenlake: no ${size}x${size} map with a reachable goal in ${MAX_ATTEMPTS} draws at p=${frozenFraction}`,
    "raise frozenlake.p",
  );
}
