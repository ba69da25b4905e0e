// The budget-aware frozenlake oracle: finite-horizon dynamic programming over (cell, turns left t).
//   V_0(s) = 1 on a goal, else 0;  S_0 = 0                         (V_t: success within t turns)
//   Q_t(s,a) = sum_o p(o) V_{t-1}(next(s,a,o));  V_t(s) = max_a Q_t(s,a)   (goal 1, hole 0 at every t)
//   ties_t(s) = { a : Q_t(s,a) >= V_t(s) (1 - 1e-10) }
//   W_t(s,a) = sum_o p(o) S_{t-1}(next);  S_t(s) = V_t(s) + min_{a in ties_t(s)} W_t(s,a)
//                                                 (S_t = E[tau 1{tau <= t}], tau = turns to the goal)
//   optimal_t(s) = { a in ties_t(s) : W_t(s,a) <= min W_t (1 + 1e-10) }: success within t first, then the
//                  fewest expected turns; when V_t(s) = 0 (no success possible within t turns), the
//                  unlimited-horizon set of fastest.ts, as the deterministic envs do.
// Floating point and ties. Every quantity is a sum of non-negative terms, so each layer adds at most ~4 units
// of 2^-53 of relative rounding error: after t layers two computations of the same rational differ by at most
// ~1e-15 t relatively, below the 1e-10 tolerance for every t this table holds (MAX_LAYERS). Such real ties do
// occur (the same probability reached through different sums: 3 (cell, t) pairs of the slippery 4x4 map within
// 400 turns, 7 of the 8x8 within 200, where plain float comparison would pick one action), and they stay
// ties. The other direction, distinct values merged by the tolerance, is checked against exact rational
// arithmetic in the tests (the closest distinct values there are 1e-6 apart relatively, not 1e-10).
// Cache: layers are computed when first asked for and kept (values and masks, 9 bytes per cell and layer).
// Growth stops at a layer equal to the one before bit for bit, a fixed point of the recursion: every later
// layer is the same (slippery 4x4: layer ~1,500; 8x8: ~2,500). Past MAX_TABLE_ENTRIES cells x layers without
// a fixed point (e.g. 32x32 maps past 8,192 turns) the table gives null and callers use the unlimited horizon.
import { FROZEN, GOAL, type Lake } from "./rules.js";
import { expectAfter } from "./fastest.js";

export const HORIZON_TIE_TOLERANCE = 1e-10;
export const MAX_TABLE_ENTRIES = 1 << 23;
export const MAX_LAYERS = 100_000;

export interface HorizonLayer {
  /** V_t per cell. */
  readonly values: Float64Array;
  /** Bit d set when DIRECTIONS[d] is optimal within t turns (0 in terminal and dead cells). */
  readonly masks: Uint8Array;
}

export interface HorizonTable {
  /** Layer t, computed on demand; null past the table's cap. */
  layer(turnsLeft: number): HorizonLayer | null;
  /** Layers computed so far. */
  computed(): number;
  /** The first layer of the fixed point, or -1 while none was reached. */
  fixedPoint(): number;
}

interface FullLayer extends HorizonLayer {
  /** S_t per cell (only the newest layer's is kept). */
  readonly turns: Float64Array;
}

function firstLayer(lake: Lake, fallback: Uint8Array): FullLayer {
  const cells = lake.kind.length;
  const values = new Float64Array(cells);
  const masks = new Uint8Array(cells);
  for (let cell = 0; cell < cells; cell++) {
    if (lake.kind[cell] === GOAL) values[cell] = 1;
    else if (lake.kind[cell] === FROZEN) masks[cell] = fallback[cell]!;
  }
  return { values, masks, turns: new Float64Array(cells) };
}

/** One frozen cell of layer t from layer t - 1: its value, S and mask. */
function cellUpdate(
  lake: Lake,
  slippery: boolean,
  previous: FullLayer,
  cell: number,
  fallback: number,
): [number, number, number] {
  const q = [0, 0, 0, 0];
  let best = 0;
  for (let direction = 0; direction < 4; direction++) {
    q[direction] = expectAfter(lake, previous.values, cell, direction, slippery);
    best = Math.max(best, q[direction]!);
  }
  if (best === 0) return [0, 0, fallback];
  const floor = best * (1 - HORIZON_TIE_TOLERANCE);
  const w = [Infinity, Infinity, Infinity, Infinity];
  let fastest = Infinity;
  for (let direction = 0; direction < 4; direction++) {
    if (q[direction]! < floor) continue;
    w[direction] = expectAfter(lake, previous.turns, cell, direction, slippery);
    fastest = Math.min(fastest, w[direction]!);
  }
  const ceiling = fastest * (1 + HORIZON_TIE_TOLERANCE);
  let mask = 0;
  for (let direction = 0; direction < 4; direction++) if (w[direction]! <= ceiling) mask |= 1 << direction;
  return [best, best + fastest, mask];
}

export function nextLayer(lake: Lake, slippery: boolean, previous: FullLayer, fallback: Uint8Array): FullLayer {
  const cells = lake.kind.length;
  const values = new Float64Array(cells);
  const turns = new Float64Array(cells);
  const masks = new Uint8Array(cells);
  for (let cell = 0; cell < cells; cell++) {
    if (lake.kind[cell] === GOAL) values[cell] = 1;
    if (lake.kind[cell] !== FROZEN) continue;
    const [value, turn, mask] = cellUpdate(lake, slippery, previous, cell, fallback[cell]!);
    values[cell] = value;
    turns[cell] = turn;
    masks[cell] = mask;
  }
  return { values, masks, turns };
}

function sameLayer(a: FullLayer, b: FullLayer): boolean {
  for (let cell = 0; cell < a.values.length; cell++) {
    if (a.values[cell] !== b.values[cell] || a.turns[cell] !== b.turns[cell] || a.masks[cell] !== b.masks[cell])
      return false;
  }
  return true;
}

/** `fallback` gives the unlimited-horizon masks (asked once, when the first layer is built); `maxLayers`
 * lowers the cap (tests). */
export function createHorizonTable(
  lake: Lake,
  slippery: boolean,
  fallback: () => Uint8Array,
  maxLayers = Math.min(MAX_LAYERS, Math.floor(MAX_TABLE_ENTRIES / lake.kind.length)),
): HorizonTable {
  const layers: HorizonLayer[] = [];
  let newest: FullLayer | null = null;
  let fixed = -1;
  let fallbackMasks: Uint8Array | null = null;
  const grow = (): void => {
    fallbackMasks ??= fallback();
    const layer: FullLayer =
      newest === null ? firstLayer(lake, fallbackMasks) : nextLayer(lake, slippery, newest, fallbackMasks);
    if (newest !== null && sameLayer(layer, newest)) fixed = layers.length - 1;
    else layers.push({ values: layer.values, masks: layer.masks });
    newest = layer;
  };
  return {
    layer(turnsLeft) {
      const target = Math.min(turnsLeft, maxLayers);
      while (fixed < 0 && layers.length <= target) grow();
      if (fixed >= 0 && turnsLeft >= fixed) return layers[fixed]!;
      return layers[turnsLeft] ?? null;
    },
    computed: () => layers.length,
    fixedPoint: () => fixed,
  };
}
