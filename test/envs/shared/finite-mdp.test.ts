import { describe, expect, it } from "vitest";
import { namedMap } from "../../../src/envs/frozenlake/maps.js";
import { compileLake, FROZEN, GOAL, HOLE, SLIP_OUTCOMES } from "../../../src/envs/frozenlake/rules.js";
import {
  assumedBudgetPolicy,
  budgetBlindness,
  buildMdp,
  FAILURE,
  LIVE,
  solveMdp,
  SUCCESS,
  successWithin,
  type FiniteMdp,
} from "../../../src/envs/shared/finite-mdp.js";
import { exactHorizon } from "../../helpers/exact-frozenlake.js";

/** Slippery frozenlake as an explicit MDP (cells are states, the four directions actions). */
function slipperyLake(rows: readonly string[]): { mdp: FiniteMdp; start: number } {
  const lake = compileLake({ rows });
  const end = (cell: number) => (lake.kind[cell] === GOAL ? SUCCESS : lake.kind[cell] === HOLE ? FAILURE : LIVE);
  const mdp = buildMdp(lake.kind.length, 4, end, (cell, direction) => {
    const counts = new Map<number, number>();
    for (const taken of SLIP_OUTCOMES[direction]!) {
      const to = lake.next[cell * 4 + taken]!;
      counts.set(to, (counts.get(to) ?? 0) + 1);
    }
    return [...counts].map(([to, count]) => [to, count / 3] as const);
  });
  return { mdp, start: lake.start };
}

/** A bridge: from 0, "safe" walks 0 -> 1 -> 2 -> 3 -> goal (4 turns); "risky" jumps to the goal in one turn but
 * breaks the ice (failure) with probability 1/2. */
function bridge(): FiniteMdp {
  // states: 0..3 the safe path, 4 goal, 5 water
  return buildMdp(
    6,
    2,
    (state) => (state === 4 ? SUCCESS : state === 5 ? FAILURE : LIVE),
    (state, action) => {
      if (action === 0) return [[state === 3 ? 4 : state + 1, 1]];
      return state === 0
        ? [
            [4, 0.5],
            [5, 0.5],
          ]
        : null;
    },
  );
}

describe("finite-horizon MDP solver", () => {
  it("equals exact rational dynamic programming on slippery 4x4 at every (cell, turns left <= 60)", () => {
    const rows = namedMap("4x4").rows;
    const { mdp } = slipperyLake(rows);
    const solution = solveMdp(mdp);
    const exact = exactHorizon(rows, true, 60);
    const unlimited = solution.layer(Infinity);
    let worst = 0;
    const wrong: string[] = [];
    for (let t = 0; t <= 60; t++) {
      const layer = solution.layer(t);
      for (let cell = 0; cell < mdp.states; cell++) {
        const expected = exact.mask(cell, t) === -1 ? unlimited.masks[cell]! : exact.mask(cell, t);
        if (compileLake({ rows }).kind[cell] === FROZEN && layer.masks[cell] !== expected)
          wrong.push(`cell ${cell}, t ${t}`);
        const value = exact.value(cell, t);
        worst = Math.max(worst, value === 0 ? layer.values[cell]! : Math.abs(layer.values[cell]! / value - 1));
      }
    }
    expect(wrong).toEqual([]);
    expect(worst).toBeLessThan(1e-12);
    expect(solution.fixedPoint()).toBeGreaterThan(60);
    // The unlimited horizon is the fixed point: Gymnasium's slippery 4x4 is won with probability 14/17.
    expect(unlimited.values[0]).toBeCloseTo(14 / 17, 10);
  });

  it("takes the risky jump only when the safe path does not fit, and knows the fewest turns", () => {
    const solution = solveMdp(bridge());
    expect(solution.remaining[0]).toBe(1);
    expect(solution.remaining[1]).toBe(3);
    for (const t of [1, 2, 3]) {
      expect(solution.layer(t).values[0]).toBe(0.5);
      expect(solution.layer(t).masks[0]).toBe(0b10);
    }
    for (const t of [4, 5, 50, Infinity]) {
      expect(solution.layer(t).values[0]).toBe(1);
      expect(solution.layer(t).masks[0]).toBe(0b01);
    }
    // No success possible within 0 turns: the unlimited-horizon set (walk) is the answer.
    expect(solution.layer(0).masks[0]).toBe(0b01);
    expect(solution.fixedPoint()).toBe(4);
  });

  it("evaluates played policies exactly: the aware oracle reaches its value, believing another budget costs it", () => {
    const solution = solveMdp(bridge());
    for (const t of [1, 2, 4, 6])
      expect(successWithin(solution.mdp, 0, t, assumedBudgetPolicy(solution, t))).toBe(solution.layer(t).values[0]);
    const blind = budgetBlindness(solution, 0, [2, 4]);
    expect(blind.aware).toEqual([0.5, 1]);
    // Believing 4 turns at a real 2: walks and runs out of turns. Believing 2 at a real 4: jumps.
    expect(blind.assumed).toEqual([
      [0.5, 0.5],
      [0, 1],
    ]);
    expect(blind.unbounded).toEqual([0, 1]);
  });

  it("matches the slippery 4x4 table's values when the aware oracle is played", () => {
    const { mdp, start } = slipperyLake(namedMap("4x4").rows);
    const solution = solveMdp(mdp);
    for (const t of [6, 10, 24])
      expect(successWithin(mdp, start, t, assumedBudgetPolicy(solution, t))).toBeCloseTo(
        solution.layer(t).values[start]!,
        12,
      );
  });

  it("refuses outcomes that are not states and horizons that are not turns", () => {
    expect(() =>
      buildMdp(
        2,
        1,
        () => LIVE,
        () => [[5, 1]],
      ),
    ).toThrow(/not a state/);
    expect(() => solveMdp(bridge()).layer(-1)).toThrow(/turnsLeft/);
    expect(() => solveMdp(bridge()).layer(1.5)).toThrow(/turnsLeft/);
  });
});
