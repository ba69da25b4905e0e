import { describe, expect, it } from "vitest";
import { BudgetrlError } from "../../../src/core/errors.js";
import { checkTurnsLeft } from "../../../src/envs/shared/turns-left.js";

describe("checkTurnsLeft", () => {
  it("passes whole numbers of turns, maps no horizon to Infinity, and refuses anything else with a hint", () => {
    expect([0, 1, 400].map(checkTurnsLeft)).toEqual([0, 1, 400]);
    expect(checkTurnsLeft(undefined)).toBe(Infinity);
    expect(checkTurnsLeft(Infinity)).toBe(Infinity);
    for (const bad of [-1, 2.5, Number.NaN, -Infinity]) expect(() => checkTurnsLeft(bad)).toThrow(BudgetrlError);
    expect(() => checkTurnsLeft(-1)).toThrow(/HINT: pass the turns left/);
  });
});
