import { describe, expect, it } from "vitest";
import { expectAfter, fastestActions } from "../../../src/envs/frozenlake/fastest.js";
import { createHorizonTable, HORIZON_TIE_TOLERANCE } from "../../../src/envs/frozenlake/horizon.js";
import { generateMap } from "../../../src/envs/frozenlake/generator.js";
import { namedMap, type FrozenLakeTask } from "../../../src/envs/frozenlake/maps.js";
import { buildOracle } from "../../../src/envs/frozenlake/oracle.js";
import { compileLake, FROZEN } from "../../../src/envs/frozenlake/rules.js";
import { DIRECTIONS } from "../../../src/envs/shared/directions.js";
import { exactHorizon } from "../../helpers/exact-frozenlake.js";

function tables(task: FrozenLakeTask, slippery: boolean, maxLayers?: number) {
  const lake = compileLake(task);
  const oracle = buildOracle(lake, slippery);
  const fastest = fastestActions(lake, oracle.value, slippery);
  const table = createHorizonTable(lake, slippery, () => fastest.masks, maxLayers);
  return { lake, oracle, fastest, table };
}

const maskOf = (actions: readonly string[]): number =>
  actions.reduce((mask, action) => mask | (1 << DIRECTIONS.indexOf(action as (typeof DIRECTIONS)[number])), 0);

describe("frozenlake finite-horizon oracle", () => {
  for (const [name, horizon] of [
    ["4x4", 400],
    ["8x8", 200],
  ] as const) {
    it(`equals exact rational dynamic programming at every (cell, turns left <= ${horizon}) of slippery ${name}`, () => {
      const task = namedMap(name);
      const { lake, fastest, table } = tables(task, true);
      const exact = exactHorizon(task.rows, true, horizon);
      const wrongMasks: string[] = [];
      let worstRelative = 0;
      for (let t = 0; t <= horizon; t++) {
        const layer = table.layer(t)!;
        for (let cell = 0; cell < lake.kind.length; cell++) {
          const expected = exact.mask(cell, t) === -1 ? fastest.masks[cell]! : exact.mask(cell, t);
          if (layer.masks[cell] !== expected)
            wrongMasks.push(`cell ${cell}, t ${t}: ${layer.masks[cell]} instead of ${expected}`);
          const value = exact.value(cell, t);
          worstRelative = Math.max(
            worstRelative,
            value === 0 ? layer.values[cell]! : Math.abs(layer.values[cell]! / value - 1),
          );
        }
      }
      expect(wrongMasks).toEqual([]);
      expect(worstRelative).toBeLessThan(1e-12);
    });
  }

  it("keeps real ties that plain floating-point comparison breaks, and merges no distinct values", () => {
    let brokenByFloats = 0;
    let closestDistinct = Infinity;
    for (const [name, horizon] of [
      ["4x4", 400],
      ["8x8", 200],
    ] as const) {
      const task = namedMap(name);
      const { lake, table } = tables(task, true);
      const exact = exactHorizon(task.rows, true, horizon);
      for (let t = 1; t <= horizon; t++) {
        const previous = table.layer(t - 1)!.values;
        for (let cell = 0; cell < lake.kind.length; cell++) {
          if (lake.kind[cell] !== FROZEN || exact.value(cell, t) === 0) continue;
          const q = [0, 1, 2, 3].map((direction) => expectAfter(lake, previous, cell, direction, true));
          for (let a = 0; a < 4; a++)
            for (let b = a + 1; b < 4; b++) if (exact.tied(cell, t, a, b) && q[a] !== q[b]) brokenByFloats++;
          closestDistinct = Math.min(closestDistinct, ...exact.gaps(cell, t));
        }
      }
    }
    // Equal rationals reached through different sums differ in the last bits; the tolerance keeps them tied...
    expect(brokenByFloats).toBeGreaterThan(0);
    // ...and is far below the closest pair of distinct values, so it merges nothing that differs.
    expect(closestDistinct).toBeGreaterThan(1e4 * HORIZON_TIE_TOLERANCE);
  });

  it("differs from the unlimited-horizon optimal set near the end of a budget on the 4x4 map", () => {
    const { fastest, table } = tables(namedMap("4x4"), true);
    // From the start with 6..11 turns left the risky moves toward the goal beat the safe wall bump (Left).
    expect(fastest.masks[0]).toBe(maskOf(["Left"]));
    expect(table.layer(6)!.masks[0]).toBe(maskOf(["Down", "Right"]));
    expect(table.layer(12)!.masks[0]).toBe(maskOf(["Left"]));
    // Cell 2 (top row): Up (a wall bump) is the unlimited choice; with 37 turns or fewer left, Left is better.
    expect(fastest.masks[2]).toBe(maskOf(["Up"]));
    expect(table.layer(37)!.masks[2]).toBe(maskOf(["Left"]));
    expect(table.layer(38)!.masks[2]).toBe(maskOf(["Up"]));
  });

  for (const name of ["4x4", "8x8"] as const) {
    it(`reaches a fixed point equal to the unlimited-horizon answer on slippery ${name}`, () => {
      const { lake, oracle, fastest, table } = tables(namedMap(name), true);
      const far = table.layer(1_000_000)!;
      expect(table.fixedPoint()).toBeGreaterThan(1000);
      expect(table.computed()).toBe(table.fixedPoint() + 1);
      expect(table.layer(table.fixedPoint() + 12345)).toBe(far);
      expect(Array.from(far.masks)).toEqual(Array.from(fastest.masks));
      for (let cell = 0; cell < lake.kind.length; cell++)
        expect(Math.abs(far.values[cell]! - oracle.value[cell]!)).toBeLessThan(1e-11);
    });
  }

  it("grows only as far as asked, and gives null past its cap", () => {
    const { table } = tables(namedMap("4x4"), true, 50);
    expect(table.layer(10)).not.toBeNull();
    expect(table.computed()).toBe(11);
    expect(table.layer(50)).not.toBeNull();
    expect(table.layer(51)).toBeNull();
    expect(table.computed()).toBe(51);
  });

  it("on dry ice gives the shortest-path moves at every horizon, worth 1 exactly when the goal is close enough", () => {
    for (const task of [
      namedMap("4x4"),
      namedMap("8x8"),
      ...Array.from({ length: 4 }, (_, seed) => generateMap(6, 0.75, seed)),
    ]) {
      const { lake, oracle, table } = tables(task, false);
      const exact = exactHorizon(task.rows, false, 40);
      for (let t = 0; t <= 40; t++) {
        const layer = table.layer(t)!;
        for (let cell = 0; cell < lake.kind.length; cell++) {
          if (lake.kind[cell] !== FROZEN) continue;
          expect(layer.masks[cell]).toBe(maskOf(oracle.shortestPathActions[cell]!));
          expect(layer.values[cell]).toBe(oracle.remaining[cell]! <= t ? 1 : 0);
          expect(layer.values[cell]).toBe(exact.value(cell, t));
        }
      }
    }
  });
});
