// An independent reference for the thin ice oracle: exact rational expectimax over (cell, turns left), with
// transitions read from the map text (not from the env's compiled ice or its MDP). With q = a / b every
// probability within t turns is an integer over b^t, so the recursion runs on BigInt numerators:
//   N_0(s) = 1 on a goal, else 0;  N_t(goal) = b^t
//   Q_t(s, d) = b N_{t-1}(s')            (s' = the cell the move reaches; a bump stays)
//             = (b - a) N_{t-1}(s')      when the move steps onto thin ice (the fall, weight a, is worth 0)
//   N_t(s) = max_d Q_t(s, d);  tied = { d : Q_t(s, d) = N_t(s) }
//   M_t(s) = N_t(s) + min over tied of the same weighted sum of M_{t-1}   (M_t / b^t = E[tau 1{tau <= t}])
//   mask_t(s) = the tied directions reaching that minimum; -1 where N_t(s) = 0 (nothing succeeds in time).
// Every comparison is exact, so ties are real ties.

const MOVES: readonly (readonly [number, number])[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

export interface ExactThinIce {
  /** Success probability within t turns, as the nearest float. */
  value(cell: number, turnsLeft: number): number;
  /** Optimal directions (bit d = Up, Down, Left, Right) within t turns; -1 where the value is 0. */
  mask(cell: number, turnsLeft: number): number;
}

export function exactThinIce(rows: readonly string[], q: readonly [number, number], horizon: number): ExactThinIce {
  const height = rows.length;
  const width = rows[0]!.length;
  const cells = rows.join("");
  const a = BigInt(q[0]);
  const b = BigInt(q[1]);
  const go = (cell: number, d: number): number => {
    const r = Math.floor(cell / width) + MOVES[d]![0];
    const c = (cell % width) + MOVES[d]![1];
    return r < 0 || r >= height || c < 0 || c >= width || cells[r * width + c] === "#" ? cell : r * width + c;
  };
  const weight = (cell: number, to: number): bigint => (to !== cell && cells[to] === "~" ? b - a : b);
  let n: bigint[] = [...cells].map((kind) => (kind === "G" ? 1n : 0n));
  let m: bigint[] = [...cells].map(() => 0n);
  let scale = 1n;
  const values: number[][] = [n.map(Number)];
  const masks: number[][] = [[...cells].map(() => -1)];
  for (let t = 1; t <= horizon; t++) {
    scale *= b;
    const nextN: bigint[] = [];
    const nextM: bigint[] = [];
    const layerMask: number[] = [];
    for (let cell = 0; cell < cells.length; cell++) {
      if (cells[cell] === "G" || cells[cell] === "#") {
        nextN.push(cells[cell] === "G" ? scale : 0n);
        nextM.push(0n);
        layerMask.push(-1);
        continue;
      }
      const qs = MOVES.map((_, d) => weight(cell, go(cell, d)) * n[go(cell, d)]!);
      const best = qs.reduce((x, y) => (y > x ? y : x));
      const ws = MOVES.map((_, d) => (qs[d] === best ? weight(cell, go(cell, d)) * m[go(cell, d)]! : -1n));
      const fastest = ws.filter((w) => w >= 0n).reduce((x, y) => (y < x ? y : x));
      nextN.push(best);
      nextM.push(best + fastest);
      layerMask.push(best === 0n ? -1 : ws.reduce((mask, w, d) => (w === fastest ? mask | (1 << d) : mask), 0));
    }
    n = nextN;
    m = nextM;
    values.push(n.map((numerator) => Number((numerator << 64n) / scale) / 2 ** 64));
    masks.push(layerMask);
  }
  return {
    value: (cell, t) => values[t]![cell]!,
    mask: (cell, t) => masks[t]![cell]!,
  };
}
