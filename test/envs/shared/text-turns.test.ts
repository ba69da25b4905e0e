import { describe, expect, it } from "vitest";
import { liveActions, playTurn, startTurn, type TextTurns } from "../../../src/envs/shared/text-turns.js";

/** A counter game: "inc" adds one, "bad" is parsed but not allowed; 3 wins, -1 loses. */
interface Counter {
  readonly value: number;
}

const TURNS: TextTurns<Counter> = {
  view: (state) => `value ${state.value}`,
  end: (state) => (state.value >= 3 ? "success" : state.value < 0 ? "failure" : null),
  progress: (state) => state.value,
  stateKey: (state) => `k${state.value}`,
  overFeedback: "Over.",
  invalidFeedback: (state) => `Say inc (at ${state.value}).`,
  invalidReward: -0.5,
};

const play = (state: Counter) => (action: string) =>
  action === "inc"
    ? { state: { value: state.value + 1 }, feedback: "Up one.", reward: state.value + 1 >= 3 ? 1 : 0 }
    : { state, feedback: "Not allowed.", reward: 0, invalid: true };

describe("text turns", () => {
  it("start with the system prompt and the view, at segment 0", () => {
    const start = startTurn(TURNS, { value: 0 }, "Count to 3.");
    expect(start.observation).toEqual([
      { role: "system", content: "Count to 3." },
      { role: "user", content: "value 0" },
    ]);
    expect(start.info).toEqual({ progress: 0, stateKey: "k0", invalid: false, parsedAction: null, segment: 0 });
  });

  it("play a parsed action, and end with the end's stop reason", () => {
    const state = { value: 2 };
    const step = playTurn(TURNS, state, "inc", play(state));
    expect(step.observation).toEqual([{ role: "user", content: "Up one.\nvalue 3" }]);
    expect(step).toMatchObject({ reward: 1, terminated: true });
    expect(step.info).toEqual({
      progress: 3,
      stateKey: "k3",
      invalid: false,
      parsedAction: "inc",
      segment: 0,
      stopReason: "success",
    });
  });

  it("charge a reply naming no action, and keep the text of a disallowed one", () => {
    const state = { value: 1 };
    const none = playTurn(TURNS, state, null, play(state));
    expect(none).toMatchObject({ state, reward: -0.5, terminated: false, info: { invalid: true, parsedAction: null } });
    expect(none.observation[0]!.content).toBe("Say inc (at 1).\nvalue 1");
    const bad = playTurn(TURNS, state, "bad", play(state));
    expect(bad).toMatchObject({ state, reward: 0, terminated: false, info: { invalid: true, parsedAction: "bad" } });
  });

  it("change nothing in an ended state, and offer its actions only while live", () => {
    const lost = { value: -1 };
    const step = playTurn(TURNS, lost, "inc", () => {
      throw new Error("an ended state is not played");
    });
    expect(step).toMatchObject({ state: lost, reward: 0, terminated: true, info: { stopReason: "failure" } });
    expect(step.observation[0]!.content).toBe("Over.\nvalue -1");
    const valid = liveActions(TURNS, ["inc"]);
    expect(valid({ value: 1 })).toEqual(["inc"]);
    expect(valid(lost)).toEqual([]);
  });
});
