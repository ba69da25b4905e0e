import { describe, expect, it } from "vitest";
import { dependentShare, oracleVisits } from "../../../src/envs/thinice/decisions.js";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import { buildIceMdp } from "../../../src/envs/thinice/mdp.js";
import { compileIce } from "../../../src/envs/thinice/rules.js";
import { solveMdp } from "../../../src/envs/shared/finite-mdp.js";

describe("thinice budget-dependent decisions", () => {
  // Short route 4 (S, bank, thin ice, far bank, G); safe route 8 round the barrier. Budgets 5, 6, 8, 12.
  const task = mapFromRows(["S.~.G", "#.#.#", "#...#"], "test");

  it("follows the oracle's episodes with their probabilities, breaks included", () => {
    const ice = compileIce(task);
    const solution = solveMdp(buildIceMdp(ice, 0.4));
    const tight = oracleVisits(solution, ice.start, 5);
    expect(tight.map(([state, weight]) => [state, Number(weight.toFixed(12))])).toEqual([
      [0, 1],
      [1, 1],
      [2, 0.6],
      [3, 0.6],
    ]);
    expect(tight.map(([, , mask]) => mask)).toEqual([0b1000, 0b1000, 0b1000, 0b1000]);
    const generous = oracleVisits(solution, ice.start, 12);
    expect(generous.map(([state]) => state)).toEqual([0, 1, 6, 11, 12, 13, 8, 3]);
    expect(generous[1]![2]).toBe(0b0010);
  });

  it("counts the turns whose state has no move optimal at every budget: here the edge of the thin ice", () => {
    // 1 of 3.2 expected turns at 5 and 6 turns (the last two only after the ice held), 1 of 8 at 8 and 12.
    const shares = dependentShare([task], 0.4);
    expect(shares.map((share) => Number(share.toFixed(12)))).toEqual(
      [1 / 3.2, 1 / 3.2, 1 / 8, 1 / 8].map((share) => Number(share.toFixed(12))),
    );
    // A map without thin ice has nothing that depends on the budget.
    expect(dependentShare([mapFromRows(["S...G"], "test")], 0.4)).toEqual([0, 0, 0, 0]);
  });
});
