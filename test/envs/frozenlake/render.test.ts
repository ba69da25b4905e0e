import { describe, expect, it } from "vitest";
import { namedMap } from "../../../src/envs/frozenlake/maps.js";
import {
  FROZENLAKE_INVALID_FEEDBACK,
  frozenLakeSystemPrompt,
  moveFeedback,
  renderLake,
} from "../../../src/envs/frozenlake/render.js";

describe("frozenlake rendering", () => {
  it("draws the map with P at the player's cell", () => {
    expect(renderLake(namedMap("4x4"), 0)).toBe("PFFF\nFHFH\nFFFH\nHFFG");
    expect(renderLake(namedMap("4x4"), 6)).toBe("SFFF\nFHPH\nFFFH\nHFFG");
    expect(renderLake(namedMap("4x4"), 15)).toBe("SFFF\nFHFH\nFFFH\nHFFP");
  });

  it("says what a move did, including slips, edges, holes and the goal", () => {
    expect(moveFeedback(0, 0, false, "frozen")).toBe("Moved Up.");
    expect(moveFeedback(0, 2, false, "hole")).toBe("Tried Up but slipped Left. You fell into a hole.");
    expect(moveFeedback(1, 1, true, "frozen")).toBe("Down: the edge of the lake; you stay.");
    expect(moveFeedback(3, 0, true, "frozen")).toBe("Tried Right but slipped Up against the edge; you stay.");
    expect(moveFeedback(3, 3, false, "goal")).toBe("Moved Right. You reached the goal!");
  });

  it("mentions slipping only on slippery ice, and always the answer format", () => {
    expect(frozenLakeSystemPrompt(true)).toContain("slippery");
    expect(frozenLakeSystemPrompt(false)).not.toContain("slippery");
    expect(frozenLakeSystemPrompt(false)).toContain("<answer>Up</answer>");
    expect(FROZENLAKE_INVALID_FEEDBACK).toContain("Up, Down, Left, Right");
  });
});
