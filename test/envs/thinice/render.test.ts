import { describe, expect, it } from "vitest";
import { DIRECTIONS } from "../../../src/envs/shared/directions.js";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import {
  moveFeedback,
  renderIce,
  THINICE_INVALID_FEEDBACK,
  THINICE_OVER_FEEDBACK,
  thinIceSystemPrompt,
  type MoveOutcome,
} from "../../../src/envs/thinice/render.js";

describe("thinice rendering", () => {
  const task = mapFromRows(["S.~.G", "..#..", "....."], "test");

  it("draws the map with P at the player's cell", () => {
    expect(renderIce(task, 0)).toBe("P.~.G\n..#..\n.....");
    expect(renderIce(task, 2)).toBe("S.P.G\n..#..\n.....");
    expect(renderIce(task, 14)).toBe("S.~.G\n..#..\n....P");
  });

  it("says what a move did in one short line", () => {
    expect(moveFeedback(3, "moved")).toBe("Moved Right.");
    expect(moveFeedback(0, "blocked")).toBe("Up: blocked.");
    expect(moveFeedback(3, "held")).toBe("Moved Right: ice held.");
    expect(moveFeedback(2, "broke")).toBe("Moved Left: ice broke!");
    expect(moveFeedback(1, "goal")).toBe("Moved Down: goal!");
    const outcomes: MoveOutcome[] = ["blocked", "moved", "held", "broke", "goal"];
    const longest = Math.max(
      THINICE_INVALID_FEEDBACK.length,
      THINICE_OVER_FEEDBACK.length,
      ...DIRECTIONS.flatMap((_, d) => outcomes.map((outcome) => moveFeedback(d, outcome).length)),
    );
    expect(longest).toBe(23);
  });

  it("states the rules, the break probability, the legend and the answer format", () => {
    const prompt = thinIceSystemPrompt(0.4);
    expect(prompt).toContain("probability 40%");
    expect(prompt).toContain("~ thin ice");
    expect(prompt).toContain("<answer>Up</answer>");
    for (const direction of DIRECTIONS) expect(THINICE_INVALID_FEEDBACK).toContain(direction);
  });
});
