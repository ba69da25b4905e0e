// An independent reference for the budget-aware frozenlake oracle: exact rational dynamic programming over
// (cell, turns left), with transitions built from the map text (not from the env's compiled lake).
// On slippery ice every probability within t turns is an integer over 3^t, so the recursion runs on BigInt
// numerators: N_t(s) = max_a sum_o N_{t-1}(next) (goal: 3^t), and the expected-turns tie-break likewise:
// M_t(s) = N_t(s) + min_{a tied} sum_o M_{t-1}(next), with S_t = M_t / 3^t = E[tau 1{tau <= t}]. On dry ice
// the denominator is 1. Every comparison is exact, so ties are real ties.

export const DIRECTION_NAMES = ["Up", "Down", "Left", "Right"] as const;
const MOVES: readonly (readonly [number, number])[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];
const SIDES: readonly (readonly number[])[] = [
  [2, 3],
  [2, 3],
  [0, 1],
  [0, 1],
];

export interface ExactHorizon {
  readonly horizon: number;
  /** Success probability within t turns, as the nearest float (from the exact rational). */
  value(cell: number, turnsLeft: number): number;
  /** Exact optimal mask at (cell, t) (bit d = DIRECTION_NAMES[d]); -1 where V_t(cell) = 0 (no success possible). */
  mask(cell: number, turnsLeft: number): number;
  /** Exact Q_t(cell, a) / V_t(cell) - 1 for every action below the best, as floats: the relative gaps. */
  gaps(cell: number, turnsLeft: number): number[];
  /** Whether actions a and b have exactly equal Q_t(cell, .). */
  tied(cell: number, turnsLeft: number, a: number, b: number): boolean;
}

/** Outcome cells of each (cell, direction): [intended, side, side] on slippery ice, [intended] on dry. */
export function transitions(rows: readonly string[], slippery: boolean): number[][][] {
  const height = rows.length;
  const width = rows[0]!.length;
  const go = (cell: number, move: number): number => {
    const r = Math.floor(cell / width) + MOVES[move]![0];
    const c = (cell % width) + MOVES[move]![1];
    return r < 0 || r >= height || c < 0 || c >= width ? cell : r * width + c;
  };
  return Array.from({ length: width * height }, (_, cell) =>
    MOVES.map((_, move) => (slippery ? [move, ...SIDES[move]!] : [move]).map((taken) => go(cell, taken))),
  );
}

function toFloat(numerator: bigint, denominator: bigint): number {
  return Number((numerator << 64n) / denominator) / 2 ** 64;
}

export function exactHorizon(rows: readonly string[], slippery: boolean, horizon: number): ExactHorizon {
  const cells = rows.join("");
  const next = transitions(rows, slippery);
  const base = slippery ? 3n : 1n;
  let scale = 1n;
  let n: bigint[] = [...cells].map((kind) => (kind === "G" ? 1n : 0n));
  let m: bigint[] = [...cells].map(() => 0n);
  const values: number[][] = [n.map(Number)];
  const masks: number[][] = [[...cells].map(() => -1)];
  const qs: bigint[][][] = [[]];
  for (let t = 1; t <= horizon; t++) {
    scale *= base;
    const layerN: bigint[] = [];
    const layerM: bigint[] = [];
    const layerMask: number[] = [];
    const layerQ: bigint[][] = [];
    for (let cell = 0; cell < cells.length; cell++) {
      const kind = cells[cell];
      const q = next[cell]!.map((outcomes) => outcomes.reduce((sum, to) => sum + n[to]!, 0n));
      layerQ.push(q);
      if (kind === "G" || kind === "H") {
        layerN.push(kind === "G" ? scale : 0n);
        layerM.push(0n);
        layerMask.push(0);
        continue;
      }
      const best = q.reduce((a, b) => (a > b ? a : b));
      if (best === 0n) {
        layerN.push(0n);
        layerM.push(0n);
        layerMask.push(-1);
        continue;
      }
      const w = next[cell]!.map((outcomes, a) =>
        q[a] === best ? outcomes.reduce((sum, to) => sum + m[to]!, 0n) : -1n,
      );
      const fastest = w.filter((x) => x >= 0n).reduce((a, b) => (a < b ? a : b));
      layerN.push(best);
      layerM.push(best + fastest);
      layerMask.push(w.reduce((mask, x, a) => (x === fastest ? mask | (1 << a) : mask), 0));
    }
    n = layerN;
    m = layerM;
    values.push(n.map((x) => toFloat(x, scale)));
    masks.push(layerMask);
    qs.push(layerQ);
  }
  return {
    horizon,
    value: (cell, t) => values[t]![cell]!,
    mask: (cell, t) => masks[t]![cell]!,
    gaps(cell, t) {
      const q = qs[t]![cell]!;
      const best = q.reduce((a, b) => (a > b ? a : b));
      return best === 0n ? [] : q.filter((x) => x < best).map((x) => toFloat(best - x, best));
    },
    tied: (cell, t, a, b) => qs[t]![cell]![a] === qs[t]![cell]![b],
  };
}
