// Where episodes part: the first turn whose played move differs (a reply that did not parse compared as its text), or
// where one has ended and another goes on; null when they never part.
import { describe, expect, it } from "vitest";
import type { Turn } from "../../src/core/episode.js";
import { assistantMessage } from "../../src/core/message.js";
import { firstDivergence } from "../../src/view/first-divergence.js";

const turn = (index: number, parsed: string | null, reply = parsed ?? ""): Turn => ({
  index,
  segment: 0,
  observation: [],
  action: assistantMessage(reply),
  parsedAction: parsed,
  invalid: parsed === null,
  reward: 0,
  terminated: false,
  truncated: false,
  progress: 0,
  stateKey: "",
});
const moves = (...parsed: (string | null)[]): Turn[] => parsed.map((move, i) => turn(i + 1, move));

describe("firstDivergence", () => {
  it("is the first turn whose move differs", () => {
    expect(firstDivergence([moves("Up", "Up", "Left"), moves("Up", "Up", "Right")])).toBe(3);
    expect(firstDivergence([moves("Up"), moves("Down"), moves("Up")])).toBe(1);
    expect(firstDivergence([moves("Up", "Up"), moves("Up", "Up"), moves("Up", "Left")])).toBe(2);
  });

  it("compares replies that did not parse by their text, ignoring surrounding space", () => {
    expect(firstDivergence([[turn(1, null, "hmm ")], [turn(1, null, " hmm")]])).toBeNull();
    expect(firstDivergence([[turn(1, null, "hmm")], [turn(1, null, "hm")]])).toBe(1);
    expect(firstDivergence([[turn(1, null, "Up")], [turn(1, "Up")]])).toBe(1);
  });

  it("parts where one episode has ended and another goes on", () => {
    expect(firstDivergence([moves("Up", "Up"), moves("Up", "Up", "Up")])).toBe(3);
    expect(firstDivergence([[], moves("Up")])).toBe(1);
  });

  it("is null when they never part, and for fewer than two episodes", () => {
    expect(firstDivergence([moves("Up", "Left"), moves("Up", "Left")])).toBeNull();
    expect(firstDivergence([moves("Up")])).toBeNull();
    expect(firstDivergence([])).toBeNull();
    expect(firstDivergence([[], []])).toBeNull();
  });
});
