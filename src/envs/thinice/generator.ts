// Seeded thin ice maps of one fixed family, so that the budget decision can be read off the map: a corridor
// from S to G along the top row, crossing a barrier on thin ice, with a U-shaped channel round the barrier.
//
//   #S..~..G###    row 0: S and G `length` columns apart; the barrier, `band` columns wide, is thin ice (~) on
//   ###.#.#####    row 0 and rock (#) below it down to row depth-1. The short route crosses the thin ice
//   ###...#####    (length moves, `band` steps onto thin ice); the safe route turns down just before the
//   ###########    barrier, passes under it on row `depth` and comes back up just after it (length + 2 depth
//   ...........    moves). Every cell next to the corridor is rock, so that from any corridor cell the way on
//                  is one move (the edge of the thin ice, where the routes part, excepted).
// Cells further away are decoration: rock with probability `rocks`, else ice the corridor cannot reach.
//
// A draw: length uniform among the lengths 2 .. width-1 that have a depth 1 .. height-1 with safe / short in
// [8/5, 5/2] (routes.ts), depth uniform among those, band uniform in 1 .. min(band, length-1), S's column and
// the barrier's uniform where they fit; with `mirror`, a flip of the rows (S and G on the bottom row) and of
// the columns (G left of S), each with probability 1/2; then the decoration. Every map is width x height (the
// same text length, so a cell's neighbours are always at the same offsets). The generator checks that the
// drawn map has exactly the drawn short and safe lengths.
// Different draws give different maps (S, G, the thin ice and the first open cell under it give back the
// layout; the decoration is the rest), so distinctTaskCount is a sum over layouts of 2^(decoration cells).
import { BudgetrlError } from "../../core/errors.js";
import { createRng, type Rng } from "../../core/rng.js";
import type { ThinIceConfig } from "./config.js";
import { mapFromRows, type ThinIceTask } from "./maps.js";
import { hasTradeoff, routeLengths } from "./routes.js";
import { compileIce } from "./rules.js";

/** What a generated map is made of (columns before any flip: S on the left, G on the right, row 0 on top). */
export interface Layout {
  readonly length: number;
  readonly depth: number;
  readonly band: number;
  /** S's column; G is at start + length. */
  readonly start: number;
  /** The barrier's first column. */
  readonly barrier: number;
  readonly flipRows: boolean;
  readonly flipColumns: boolean;
}

type Shape = Pick<ThinIceConfig, "width" | "height">;

/** What each cell of a layout is: corridor (ice, S, G), thin ice, barrier rock, wall rock, decoration. */
export const CORRIDOR = 0;
export const THIN_ICE = 1;
export const BARRIER = 2;
export const WALL = 3;
export const DECORATION = 4;

/** Barrier depths that give `length` its trade-off within `height` rows. */
export function depthsFor(length: number, height: number): number[] {
  return Array.from({ length: height - 1 }, (_, index) => index + 1).filter((depth) =>
    hasTradeoff({ short: length, safe: length + 2 * depth }),
  );
}

/** Short-route lengths a generated map can have. */
export function lengthsFor({ width, height }: Shape): number[] {
  return Array.from({ length: Math.max(0, width - 2) }, (_, index) => index + 2).filter(
    (length) => depthsFor(length, height).length > 0,
  );
}

/** The role of every cell of a layout, over the unflipped grid (row-major). */
export function cellRoles(layout: Layout, { width, height }: Shape): Uint8Array {
  const roles = new Uint8Array(width * height).fill(DECORATION);
  const goal = layout.start + layout.length;
  const after = layout.barrier + layout.band;
  for (let column = layout.start; column <= goal; column++)
    roles[column] = column >= layout.barrier && column < after ? THIN_ICE : CORRIDOR;
  for (let row = 1; row <= layout.depth; row++) {
    roles[row * width + layout.barrier - 1] = CORRIDOR;
    roles[row * width + after] = CORRIDOR;
    for (let column = layout.barrier; column < after; column++)
      roles[row * width + column] = row < layout.depth ? BARRIER : CORRIDOR;
  }
  for (let cell = 0; cell < roles.length; cell++) {
    if (roles[cell] !== DECORATION) continue;
    const row = Math.floor(cell / width);
    const column = cell % width;
    const neighbours = [
      row > 0 ? cell - width : -1,
      row < height - 1 ? cell + width : -1,
      column > 0 ? cell - 1 : -1,
      column < width - 1 ? cell + 1 : -1,
    ];
    if (neighbours.some((next) => next >= 0 && (roles[next] === CORRIDOR || roles[next] === THIN_ICE)))
      roles[cell] = WALL;
  }
  return roles;
}

/** The rows of a layout, with rock on the decoration cells `rocks` marks, flipped as the layout says. */
export function layoutRows(layout: Layout, rocks: Uint8Array, shape: Shape): string[] {
  const { width, height } = shape;
  const roles = cellRoles(layout, shape);
  const cells = Array.from(roles, (role, cell): string => {
    if (role === THIN_ICE) return "~";
    if (role === BARRIER || role === WALL) return "#";
    if (role === DECORATION && rocks[cell] === 1) return "#";
    return ".";
  });
  cells[layout.start] = "S";
  cells[layout.start + layout.length] = "G";
  const rows = Array.from({ length: height }, (_, row) => cells.slice(row * width, (row + 1) * width));
  const flipped = layout.flipRows ? rows.reverse() : rows;
  return flipped.map((row) => (layout.flipColumns ? row.reverse() : row).join(""));
}

export function drawLayout(rng: Rng, config: ThinIceConfig): Layout {
  const length = rng.pick(lengthsFor(config));
  const depth = rng.pick(depthsFor(length, config.height));
  const band = 1 + rng.int(Math.min(config.band, length - 1));
  const start = rng.int(config.width - length);
  const barrier = start + 1 + rng.int(length - band);
  const flipRows = config.mirror && rng.int(2) === 1;
  const flipColumns = config.mirror && rng.int(2) === 1;
  return { length, depth, band, start, barrier, flipRows, flipColumns };
}

export function generateMap(config: ThinIceConfig, seed: number): ThinIceTask {
  const rng = createRng(seed);
  const layout = drawLayout(rng, config);
  const rocks = cellRoles(layout, config).map((role) => (role === DECORATION && rng.next() < config.rocks ? 1 : 0));
  const task = mapFromRows(layoutRows(layout, rocks, config), "generated map");
  const lengths = routeLengths(compileIce(task));
  if (lengths.short !== layout.length || lengths.safe !== layout.length + 2 * layout.depth || !hasTradeoff(lengths)) {
    throw new BudgetrlError(
      "thinice:generator",
      `seed ${seed} drew a map without its trade-off (short ${lengths.short}, safe ${lengths.safe}): ${task.rows.join("/")}`,
    );
  }
  return task;
}

/** Every layout of a config (flips included), in a fixed order. */
export function allLayouts(config: ThinIceConfig): Layout[] {
  const layouts: Layout[] = [];
  const flips = config.mirror ? [false, true] : [false];
  for (const length of lengthsFor(config)) {
    for (const depth of depthsFor(length, config.height)) {
      for (let band = 1; band <= Math.min(config.band, length - 1); band++) {
        for (let start = 0; start + length < config.width; start++) {
          for (let barrier = start + 1; barrier + band <= start + length; barrier++) {
            for (const flipRows of flips)
              for (const flipColumns of flips)
                layouts.push({ length, depth, band, start, barrier, flipRows, flipColumns });
          }
        }
      }
    }
  }
  return layouts;
}

/** The exact number of distinct maps the generator can draw: each layout with any rocks on its decoration
 * cells (just the layout when rocks is 0 or 1). */
export function distinctTaskCount(config: ThinIceConfig): bigint {
  let total = 0n;
  for (const layout of allLayouts(config)) {
    const decoration = cellRoles(layout, config).reduce((sum, role) => sum + (role === DECORATION ? 1 : 0), 0);
    total += config.rocks > 0 && config.rocks < 1 ? 1n << BigInt(decoration) : 1n;
  }
  return total;
}
