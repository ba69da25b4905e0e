// The directional grid games' action space: four directions while the game runs, none once it has ended, the
// turn skeleton's state key, and a reply read to the direction it names.
import { describe, expect, it } from "vitest";
import { directionActions } from "../../../src/envs/shared/direction-actions.js";
import type { TextTurns } from "../../../src/envs/shared/text-turns.js";

interface Walk {
  readonly steps: number;
}

const TURNS: TextTurns<Walk> = {
  view: (state) => `steps ${state.steps}`,
  end: (state) => (state.steps >= 2 ? "success" : null),
  progress: (state) => state.steps / 2,
  stateKey: (state) => `s${state.steps}`,
  overFeedback: "Over.",
  invalidFeedback: () => "Say a direction.",
  invalidReward: 0,
};

describe("direction actions", () => {
  const actions = directionActions(TURNS);

  it("offer the four directions in a live state and none in an ended one", () => {
    expect(actions.valid({ steps: 0 })).toEqual(["Up", "Down", "Left", "Right"]);
    expect(actions.valid({ steps: 2 })).toEqual([]);
  });

  it("key a state as the turn skeleton does and read a reply's direction", () => {
    expect(actions.stateKey({ steps: 1 })).toBe("s1");
    expect(actions.parse?.({ steps: 0 }, { role: "assistant", content: "<answer>left</answer>" })).toBe("Left");
    expect(actions.parse?.({ steps: 0 }, { role: "assistant", content: "Answer: Left" })).toBeNull();
  });
});
