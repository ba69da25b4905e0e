import { describe, expect, it } from "vitest";
import { buildMdp, FAILURE, LIVE, SUCCESS } from "../../../src/envs/shared/finite-mdp.js";
import { mdpAnswers } from "../../../src/envs/shared/mdp-answers.js";

// From state 0: action 0 ("gamble") wins at once with probability 1/2 and else loses; action 1 ("walk") reaches
// state 1, whose only action wins surely. State 2 is the win, 3 the loss.
const mdp = buildMdp(
  4,
  2,
  (state) => (state === 2 ? SUCCESS : state === 3 ? FAILURE : LIVE),
  (state, action) => {
    if (state === 0)
      return action === 0
        ? [
            [2, 0.5],
            [3, 0.5],
          ]
        : [[1, 1]];
    return action === 0 ? [[2, 1]] : null;
  },
);
const texts = (mask: number): string[] => ["gamble", "walk"].filter((_, action) => (mask & (1 << action)) !== 0);

describe("MDP answers", () => {
  const answers = mdpAnswers(mdp, texts);

  it("answers per state and horizon: the optimal actions in the env's texts, the fewest turns, the value", () => {
    expect(answers.answer(0, 1)).toEqual({ optimal: ["gamble"], remaining: 1, value: 0.5 });
    expect(answers.answer(0, 2)).toEqual({ optimal: ["walk"], remaining: 1, value: 1 });
    expect(answers.answer(0)).toEqual({ optimal: ["walk"], remaining: 1, value: 1 });
    expect(answers.answer(0, Infinity)).toEqual(answers.answer(0));
    expect(answers.answer(1, 1)).toEqual({ optimal: ["gamble"], remaining: 1, value: 1 });
    // Nothing succeeds in 0 turns: the unlimited horizon's actions, value 0.
    expect(answers.answer(0, 0)).toEqual({ optimal: ["walk"], remaining: 1, value: 0 });
    expect([answers.value(0, 1), answers.value(0, 2), answers.value(0)]).toEqual([0.5, 1, 1]);
    expect(answers.solution.mdp).toBe(mdp);
  });

  it("refuses a horizon that is not a whole number of turns", () => {
    for (const turnsLeft of [-1, 1.5, Number.NaN]) {
      expect(() => answers.answer(0, turnsLeft)).toThrow(/turnsLeft must be an integer >= 0 or Infinity/);
      expect(() => answers.value(0, turnsLeft)).toThrow(/turnsLeft must be an integer >= 0 or Infinity/);
    }
  });
});
