import { describe, expect, it } from "vitest";
import { thinIceConfigSchema } from "../../../src/envs/thinice/config.js";
import { generateMap } from "../../../src/envs/thinice/generator.js";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import { buildIceMdp, fallenState } from "../../../src/envs/thinice/mdp.js";
import { createAnswers } from "../../../src/envs/thinice/oracle.js";
import { routeLengths } from "../../../src/envs/thinice/routes.js";
import { compileIce, GOAL, ROCK } from "../../../src/envs/thinice/rules.js";
import { parseOptions } from "../../../src/core/options.js";
import { FAILURE, SUCCESS } from "../../../src/envs/shared/finite-mdp.js";
import { exactThinIce } from "../../helpers/exact-thinice.js";

const answersOf = (rows: readonly string[], q: number) => {
  const ice = compileIce(mapFromRows(rows, "test"));
  return { ice, answers: createAnswers(buildIceMdp(ice, q)) };
};

describe("thinice MDP", () => {
  it("has a state per cell and one for the water; a step onto thin ice falls in with probability q", () => {
    const ice = compileIce(mapFromRows(["S~G", "..."], "test"));
    const mdp = buildIceMdp(ice, 0.25);
    expect(mdp.states).toBe(7);
    expect(fallenState(ice)).toBe(6);
    expect(mdp.ends[2]).toBe(SUCCESS);
    expect(mdp.ends[6]).toBe(FAILURE);
    const outcomes = (state: number, action: number) => {
      const pair = state * 4 + action;
      return Array.from({ length: mdp.start[pair + 1]! - mdp.start[pair]! }, (_, i) => [
        mdp.next[mdp.start[pair]! + i],
        mdp.prob[mdp.start[pair]! + i],
      ]);
    };
    expect(outcomes(0, 3)).toEqual([
      [1, 0.75],
      [6, 0.25],
    ]);
    expect(outcomes(0, 1)).toEqual([[3, 1]]);
    expect(outcomes(1, 0)).toEqual([[1, 1]]);
    expect(outcomes(1, 3)).toEqual([[2, 1]]);
  });
});

describe("thinice oracle", () => {
  // Short route: 4 moves, one step onto thin ice. Safe route: 8 moves (down 2, across, up 2).
  const rows = ["S.~.G", "..#..", "....."];
  const { ice, answers } = answersOf(rows, 0.4);

  it("crosses when only the short route fits, goes round when the safe one does", () => {
    expect(answers.answer(0, 3)).toMatchObject({ remaining: 4, value: 0 });
    for (const t of [4, 5, 6, 7]) {
      expect(answers.answer(0, t).value).toBeCloseTo(0.6, 15);
      expect(answers.answer(0, t).optimal).toEqual(["Right"]);
      expect(answers.answer(1, t - 1).optimal).toEqual(["Right"]);
    }
    for (const t of [8, 9, 30]) {
      expect(answers.answer(0, t)).toEqual({ optimal: ["Down", "Right"], remaining: 4, value: 1 });
      expect(answers.answer(1, t - 1)).toEqual({ optimal: ["Down"], remaining: 3, value: 1 });
    }
    expect(answers.answer(0)).toEqual({ optimal: ["Down", "Right"], remaining: 4, value: 1 });
    // Out of time, the unlimited-horizon moves: the safe route.
    expect(answers.answer(1, 2)).toEqual({ optimal: ["Down"], remaining: 3, value: 0 });
    expect(answers.value(0, 7)).toBeCloseTo(0.6, 15);
  });

  it("answers nothing at the ends: the goal, the water", () => {
    expect(answers.answer(4, 5)).toEqual({ optimal: [], remaining: 0, value: 1 });
    expect(answers.answer(fallenState(ice), 5)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
  });

  it("steps back off a band of thin ice exactly when the detour still fits", () => {
    // On the first of two thin cells (cell 2): forward risks q again; back is safe ice, then the detour
    // (1 move back, then 2 down, 4 across, 2 up: 9 moves) and forward takes 3.
    const band = answersOf(["S.~~.G", "..##..", "......"], 0.4).answers;
    for (const t of [3, 8])
      expect(band.answer(2, t)).toMatchObject({ optimal: ["Right"], value: expect.closeTo(0.6, 15) });
    for (const t of [9, 20]) expect(band.answer(2, t)).toMatchObject({ optimal: ["Left"], value: 1 });
  });

  it("equals exact rational expectimax at every cell and horizon on hand-made and generated maps", () => {
    const config = parseOptions("thinice", thinIceConfigSchema, { width: 6, height: 3 });
    const maps = [
      rows,
      ["S.~~.G", "..##..", "......"],
      ["S~G", "..."],
      ["#S~~G", "#.##.", "....."],
      ...Array.from({ length: 10 }, (_, seed) => generateMap(config, seed).rows),
      generateMap(parseOptions("thinice", thinIceConfigSchema, {}), 3).rows,
    ];
    const wrong: string[] = [];
    for (const map of maps) {
      const mapped = answersOf(map, 0.4);
      const exact = exactThinIce(map, [2, 5], 45);
      const unlimited = mapped.answers.solution.layer(Infinity);
      for (let t = 0; t <= 45; t++) {
        const layer = mapped.answers.solution.layer(t);
        for (let cell = 0; cell < mapped.ice.kind.length; cell++) {
          if (mapped.ice.kind[cell] === ROCK || mapped.ice.kind[cell] === GOAL) continue;
          const expected = exact.mask(cell, t) === -1 ? unlimited.masks[cell]! : exact.mask(cell, t);
          if (layer.masks[cell] !== expected) wrong.push(`${map.join("/")}: cell ${cell}, t ${t}`);
          const value = exact.value(cell, t);
          if (Math.abs(layer.values[cell]! - value) > 1e-14)
            wrong.push(`${map.join("/")}: value at cell ${cell}, t ${t}`);
        }
      }
      // The unlimited horizon is the long horizon's answer (45 turns exceed every route here).
      for (let cell = 0; cell < mapped.ice.kind.length; cell++) {
        if (mapped.ice.kind[cell] !== ROCK && mapped.ice.kind[cell] !== GOAL && exact.mask(cell, 45) !== -1)
          expect(unlimited.masks[cell]).toBe(exact.mask(cell, 45));
      }
    }
    expect(wrong).toEqual([]);
  });

  it("values a generated map's start in closed form: 0, then (1 - q)^band, then 1 once the detour fits", () => {
    const config = parseOptions("thinice", thinIceConfigSchema, {});
    for (let seed = 0; seed < 40; seed++) {
      const map = generateMap(config, seed);
      const { ice, answers: mapped } = answersOf(map.rows, config.q);
      const { short, safe } = routeLengths(ice);
      const band = map.rows.join("").split("~").length - 1;
      expect(mapped.solution.remaining[ice.start]).toBe(short);
      for (let t = 0; t <= 3 * short; t++) {
        const expected = t < short ? 0 : t < safe ? (1 - config.q) ** band : 1;
        expect(mapped.value(ice.start, t)).toBeCloseTo(expected, 14);
      }
    }
  });
});
