import { describe, expect, it } from "vitest";
import { budgetNote } from "../../src/agent/budget-text.js";

describe("budgetNote", () => {
  it("words each mode and scope", () => {
    expect(budgetNote({ turns: 8, mode: "announced", scope: "episode", label: "8" }, 3)).toBe(
      "Turn 3 of 8: 6 turns left.",
    );
    expect(budgetNote({ turns: 8, mode: "announced", scope: "episode", label: "8" }, 8)).toBe(
      "Turn 8 of 8: 1 turn left.",
    );
    expect(budgetNote({ turns: 5, mode: "announced", scope: "user-turn", label: "25%" }, 3)).toBe(
      "Step 3 of 5 for this request: 3 steps left.",
    );
    expect(budgetNote({ turns: 8, mode: "remaining", scope: "episode", label: "8" }, 3)).toBe("6 turns left.");
    expect(budgetNote({ turns: 5, mode: "remaining", scope: "user-turn", label: "5" }, 5)).toBe(
      "1 step left for this request.",
    );
    expect(budgetNote({ turns: 8, mode: "hidden", scope: "episode", label: "8" }, 3)).toBeNull();
  });
});
