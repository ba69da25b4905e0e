import { describe, expect, it } from "vitest";
import { levelFromRows } from "../../../src/envs/sokoban/levels.js";
import {
  createRenderer,
  moveFeedback,
  SOKOBAN_INVALID_FEEDBACK,
  SOKOBAN_SYSTEM_PROMPT,
} from "../../../src/envs/sokoban/render.js";
import { BLOCKED, compileBoard, MOVED, PUSHED } from "../../../src/envs/sokoban/rules.js";

describe("sokoban rendering", () => {
  const board = compileBoard(levelFromRows(["######", "#  . #", "# $@ #", "######"], "test"));
  const render = createRenderer(board);

  it("draws walls, floor, goals, boxes and the player, one line per row", () => {
    expect(render(board.startPlayer, board.startBoxes)).toBe("######\n#__._#\n#_$@_#\n######");
  });

  it("draws a box on a goal as * and the player on a goal as +", () => {
    expect(render(15, [9])).toBe("######\n#__*_#\n#__@_#\n######");
    expect(render(9, [14])).toBe("######\n#__+_#\n#_$__#\n######");
  });

  it("draws the outside of imported levels as spaces and trims them at line ends", () => {
    const outside = compileBoard(levelFromRows(["  ####", "###  #", "#@$. #", "######", "", "#"], "test"));
    expect(createRenderer(outside)(outside.startPlayer, outside.startBoxes)).toBe(
      "  ####\n###__#\n#@$._#\n######\n\n#",
    );
  });

  it("writes one line of feedback per move", () => {
    expect(moveFeedback(MOVED, 0, false)).toBe("Moved Up.");
    expect(moveFeedback(PUSHED, 3, true)).toBe("Pushed a box Right. Every box is on a goal: solved!");
    expect(moveFeedback(BLOCKED, 2, false)).toBe("Left is blocked; nothing moved.");
  });

  it("states the legend and the answer format", () => {
    for (const symbol of [
      "# wall",
      "_ floor",
      ". goal",
      "$ box",
      "* box on goal",
      "@ you",
      "+ you on goal",
      "<answer>Up</answer>",
    ]) {
      expect(SOKOBAN_SYSTEM_PROMPT).toContain(symbol);
    }
    expect(SOKOBAN_INVALID_FEEDBACK).toContain("Up, Down, Left, Right");
  });
});
