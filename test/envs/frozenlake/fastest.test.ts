import { describe, expect, it } from "vitest";
import { expectAfter, fastestActions } from "../../../src/envs/frozenlake/fastest.js";
import { namedMap } from "../../../src/envs/frozenlake/maps.js";
import { buildOracle } from "../../../src/envs/frozenlake/oracle.js";
import { compileLake, FROZEN, type Lake } from "../../../src/envs/frozenlake/rules.js";
import { directionsOfMask } from "../../../src/envs/shared/directions.js";

/** Solve A x = b by Gaussian elimination with partial pivoting (dense; a few dozen unknowns). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(m[row]![col]!) > Math.abs(m[pivot]![col]!)) pivot = row;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = m[row]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k++) m[row]![k]! -= factor * m[col]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** E[turns to success; success] of a stationary policy (one direction per live cell): (I - P) S = V. */
function policyTurns(lake: Lake, value: Float64Array, live: readonly number[], choice: readonly number[]): number[] {
  const index = new Map(live.map((cell, i) => [cell, i]));
  const a = live.map((cell, i) => {
    const row = live.map((_, j) => (i === j ? 1 : 0));
    const outcomes = [
      [0, 2, 3],
      [1, 2, 3],
      [2, 0, 1],
      [3, 0, 1],
    ][choice[i]!]!;
    for (const taken of outcomes) {
      const j = index.get(lake.next[cell * 4 + taken]!);
      if (j !== undefined) row[j]! -= 1 / 3;
    }
    return row;
  });
  return solve(
    a,
    live.map((cell) => value[cell]!),
  );
}

function valueOptimal(lake: Lake, value: Float64Array, cell: number): number[] {
  const q = [0, 1, 2, 3].map((direction) => expectAfter(lake, value, cell, direction, true));
  return [0, 1, 2, 3].filter((direction) => q[direction]! >= Math.max(...q) - 1e-9);
}

describe("frozenlake fastest unlimited-horizon actions", () => {
  it("pick, among value-optimal policies, the one with the fewest expected turns (every such policy of the 4x4 map solved)", () => {
    const lake = compileLake(namedMap("4x4"));
    const { value } = buildOracle(lake, true);
    const fastest = fastestActions(lake, value, true);
    const live = Array.from({ length: 16 }, (_, cell) => cell).filter(
      (cell) => lake.kind[cell] === FROZEN && value[cell]! > 0,
    );
    const options = live.map((cell) => valueOptimal(lake, value, cell));
    let best: number[] | null = null;
    const count = options.reduce((product, list) => product * list.length, 1);
    expect(count).toBe(8);
    for (let code = 0; code < count; code++) {
      let rest = code;
      const choice = options.map((list) => {
        const pick = list[rest % list.length]!;
        rest = Math.floor(rest / list.length);
        return pick;
      });
      const turns = policyTurns(lake, value, live, choice);
      best = best === null ? turns : best.map((x, i) => Math.min(x, turns[i]!));
    }
    live.forEach((cell, i) => expect(Math.abs(fastest.turns[cell]! - best![i]!)).toBeLessThan(1e-9 * best![i]!));
    // 49 expected turns given success from the start (S / V), by Left, where the old rule took any of four.
    expect(fastest.turns[0]! / value[0]!).toBeCloseTo(48.996, 2);
    expect(directionsOfMask(fastest.masks[0]!)).toEqual(["Left"]);
    expect(buildOracle(lake, true).shortestPathActions[0]).toEqual(["Up", "Down", "Left", "Right"]);
  });

  it("solve the expected-turns equations on 8x8, with a greedy policy that attains them", () => {
    const lake = compileLake(namedMap("8x8"));
    const { value } = buildOracle(lake, true);
    const { turns, masks } = fastestActions(lake, value, true);
    const live = Array.from({ length: 64 }, (_, cell) => cell).filter(
      (cell) => lake.kind[cell] === FROZEN && value[cell]! > 0,
    );
    for (const cell of live) {
      const w = valueOptimal(lake, value, cell).map((direction) => expectAfter(lake, turns, cell, direction, true));
      expect(Math.abs(turns[cell]! - value[cell]! - Math.min(...w))).toBeLessThan(1e-9 * turns[cell]!);
      expect(masks[cell]).not.toBe(0);
    }
    // The policy taking the first fastest action everywhere is proper and has exactly these expected turns.
    const greedy = live.map((cell) => Math.log2(masks[cell]! & -masks[cell]!));
    policyTurns(lake, value, live, greedy).forEach((x, i) =>
      expect(Math.abs(x - turns[live[i]!]!)).toBeLessThan(1e-9 * x),
    );
  });

  it("are empty in terminal and dead cells", () => {
    const lake = compileLake({ rows: ["SFH", "FHF", "HFG"] });
    const { value } = buildOracle(lake, true);
    const { masks, turns } = fastestActions(lake, value, true);
    // Cells 0, 1, 3 are cut off from the goal; 2, 4, 6, 8 are holes or the goal; 5 and 7 touch the goal.
    for (const cell of [0, 1, 2, 3, 4, 6, 8]) expect([masks[cell], turns[cell]]).toEqual([0, 0]);
    expect(masks[5]).not.toBe(0);
    expect(masks[7]).not.toBe(0);
  });
});
