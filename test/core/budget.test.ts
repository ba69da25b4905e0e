import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import {
  checkBudgetsFit,
  largestBudget,
  parseBudgetList,
  parseBudgetMode,
  parseBudgetSpec,
  resolveTurns,
} from "../../src/core/budget.js";

describe("budget specs", () => {
  it("resolves percentages by rounding up, at least one turn", () => {
    expect(resolveTurns(parseBudgetSpec("25%"), { reference: 20, optimal: null })).toBe(5);
    expect(resolveTurns(parseBudgetSpec("25%"), { reference: 9, optimal: null })).toBe(3);
    expect(resolveTurns(parseBudgetSpec("35%"), { reference: 20, optimal: null })).toBe(7); // 0.35 * 20 is 7.000000000000001 in floats
    expect(resolveTurns(parseBudgetSpec("12.5%"), { reference: 8, optimal: null })).toBe(1);
    expect(resolveTurns(parseBudgetSpec("1%"), { reference: 3, optimal: null })).toBe(1);
    expect(resolveTurns(parseBudgetSpec("100%"), { reference: 13, optimal: null })).toBe(13);
    expect(resolveTurns(parseBudgetSpec("150%"), { reference: 10, optimal: null })).toBe(15);
  });

  it("resolves multiples of the optimal length by rounding up, at least one turn, and refuses them without an optimum", () => {
    expect(parseBudgetSpec("1.5x")).toMatchObject({ kind: "multiple", numerator: 15, denominator: 10, label: "1.5x" });
    expect(resolveTurns(parseBudgetSpec("1.25x"), { reference: 99, optimal: 4 })).toBe(5);
    expect(resolveTurns(parseBudgetSpec("1.25x"), { reference: 99, optimal: 5 })).toBe(7);
    expect(resolveTurns(parseBudgetSpec("3x"), { reference: 1, optimal: 7 })).toBe(21);
    expect(resolveTurns(parseBudgetSpec("1.1x"), { reference: 1, optimal: 10 })).toBe(11); // 1.1 * 10 is 11.000000000000002 in floats
    expect(resolveTurns(parseBudgetSpec("0.1x"), { reference: 1, optimal: 3 })).toBe(1);
    expect(() => resolveTurns(parseBudgetSpec("2x"), { reference: 10, optimal: null })).toThrow(
      /multiple of the optimal length/,
    );
    expect(() => parseBudgetSpec("0x")).toThrow(/above 0x/);
    expect(() => parseBudgetSpec("101x")).toThrow(/100x/);
    expect(() => parseBudgetSpec("1.5 x")).toThrow(ConfigError);
    expect(() => largestBudget([parseBudgetSpec("2x"), parseBudgetSpec("50%")])).toThrow(/two kinds/);
    expect(largestBudget(parseBudgetList("1.25x,3x,1.5x")).label).toBe("3x");
  });

  it("refuses multiples for an env that cannot say its optimum, before any work", () => {
    expect(() => checkBudgetsFit(parseBudgetList("1x,2x"), { spec: { name: "bfcl" }, tasks: {} })).toThrow(
      /env bfcl cannot say/,
    );
    expect(() => checkBudgetsFit(parseBudgetList("25%,8"), { spec: { name: "bfcl" }, tasks: {} })).not.toThrow();
    expect(() =>
      checkBudgetsFit(parseBudgetList("1x"), { spec: { name: "x" }, tasks: { optimalTurns: () => 3 } }),
    ).not.toThrow();
  });

  it("keeps absolute budgets as given", () => {
    expect(resolveTurns(parseBudgetSpec(" 8 "), { reference: 100, optimal: null })).toBe(8);
    expect(parseBudgetSpec("8").label).toBe("8");
  });

  it("refuses bad specs naming the field", () => {
    for (const bad of ["0", "0%", "-3", "abc", "25 %", "", "1e3"]) {
      expect(() => parseBudgetSpec(bad, "budget")).toThrow(ConfigError);
    }
    try {
      parseBudgetSpec("x", "budget");
    } catch (error) {
      expect((error as ConfigError).field).toBe("budget");
      expect((error as Error).message).toContain("budget");
    }
    expect(() => parseBudgetList("25%,25%")).toThrow(/twice/);
    expect(() => parseBudgetMode("loud")).toThrow(/announced, remaining, hidden/);
  });

  it("refuses budgets above 10,000 turns or 1000% of the reference, saying what the limit is", () => {
    expect(parseBudgetSpec("10000")).toMatchObject({ kind: "turns", turns: 10_000 });
    expect(parseBudgetSpec("1000%").label).toBe("1000%");
    expect(() => parseBudgetSpec("10001")).toThrow(/a turn budget of 10001 is above the largest, 10000 turns/);
    expect(() => parseBudgetSpec("99999999999999999999")).toThrow(/above the largest, 10000 turns/);
    expect(() => parseBudgetSpec("1000.5%")).toThrow(
      /a budget of 1000.5% is above the largest, 1000% of the reference budget/,
    );
  });
});
