// The public API as README shows it: evaluate() with a user function as the agent, and the gym facade.
import { describe, expect, it } from "vitest";
import { evaluate, gym, hanoi, passAtK, withTurnBudget, type Message } from "../src/index.js";

describe("public API", () => {
  it("evaluates any async function as a policy and returns the table and the episodes", async () => {
    const seen: string[] = [];
    const myAgent = async (conversation: readonly Message[]) => {
      seen.push(conversation[conversation.length - 1]?.content ?? "");
      return "<answer>Up</answer>";
    };
    const result = await evaluate({
      env: "sokoban",
      policy: myAgent,
      tasks: 3,
      samples: 2,
      ks: [1, 2],
      budgets: ["25%", "100%"],
      budgetMode: "announced",
      seed: 1,
      concurrency: 4,
    });
    expect(result.table.budgets.map((spec) => spec.label)).toEqual(["25%", "100%"]);
    expect(result.table.cells).toHaveLength(2);
    expect(result.episodes).toHaveLength(3 * 2 * 2);
    expect(seen[0]).toMatch(/Turn 1 of \d+: \d+ turns left\.$/);
    expect(result.episodes[0]?.turns[0]?.parsedAction).toBe("Up");
    expect(passAtK(2, 1, 1)).toBe(0.5);
  });

  it("offers Gymnasium-style reset/step with terminated and truncated apart", () => {
    const game = withTurnBudget(gym(hanoi({ disks: 2 })), { turns: 2 });
    const start = game.reset({ seed: 0 });
    expect(start.observation.at(-1)?.content).toContain("A: 2 1");
    const first = game.step("A->B");
    expect([first.terminated, first.truncated]).toEqual([false, false]);
    const second = game.step("garbage");
    expect([second.terminated, second.truncated, second.info.invalid, second.info.stopReason]).toEqual([
      false,
      true,
      true,
      "max_turns",
    ]);
    expect(() => game.step("A->C")).toThrow(/reset/);
    const unlimited = gym(hanoi({ disks: 2 }));
    unlimited.reset({ seed: 0 });
    for (const move of ["A->B", "A->C"]) expect(unlimited.step(move).terminated).toBe(false);
    expect(unlimited.step("B->C")).toMatchObject({
      terminated: true,
      truncated: false,
      info: { stopReason: "success" },
    });
  });
});
