import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { parseBudgetList, parseBudgetMode, parseBudgetSpec, resolveTurns } from "../../src/core/budget.js";

describe("budget specs", () => {
  it("resolves percentages by rounding up, at least one turn", () => {
    expect(resolveTurns(parseBudgetSpec("25%"), 20)).toBe(5);
    expect(resolveTurns(parseBudgetSpec("25%"), 9)).toBe(3);
    expect(resolveTurns(parseBudgetSpec("35%"), 20)).toBe(7); // 0.35 * 20 is 7.000000000000001 in floats
    expect(resolveTurns(parseBudgetSpec("12.5%"), 8)).toBe(1);
    expect(resolveTurns(parseBudgetSpec("1%"), 3)).toBe(1);
    expect(resolveTurns(parseBudgetSpec("100%"), 13)).toBe(13);
    expect(resolveTurns(parseBudgetSpec("150%"), 10)).toBe(15);
  });

  it("keeps absolute budgets as given", () => {
    expect(resolveTurns(parseBudgetSpec(" 8 "), 100)).toBe(8);
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
    expect(() => parseBudgetSpec("1000.5%")).toThrow(/a budget of 1000.5% is above the largest, 1000% of the reference budget/);
  });
});
