import { describe, expect, it } from "vitest";
import {
  applyMove,
  BLOCKED,
  compileBoard,
  countOnGoal,
  MOVED,
  moveReward,
  PUSHED,
} from "../../../src/envs/sokoban/rules.js";

const UP = 0;
const DOWN = 1;
const LEFT = 2;
const RIGHT = 3;

// Cells of a 7-wide board: row * 7 + column.
// (3 boxes and 1 goal: not a valid level, so the board is compiled without levelFromRows' checks.)
const board = compileBoard({ rows: ["#######", "#     #", "# @$ .#", "#  $$ #", "#######"] });
const at = (row: number, column: number): number => row * 7 + column;

describe("sokoban rules", () => {
  it("compiles walls, goals, the player and the boxes", () => {
    expect(board.startPlayer).toBe(at(2, 2));
    expect(board.startBoxes).toEqual([at(2, 3), at(3, 3), at(3, 4)]);
    expect(board.isGoal[at(2, 5)]).toBe(1);
    expect(board.neighbor[at(1, 1) * 4 + UP]).toBe(-1);
    expect(board.neighbor[at(1, 1) * 4 + RIGHT]).toBe(at(1, 2));
    expect(board.floorCells.length).toBe(15);
  });

  it("moves, pushes, and blocks on walls and on box pairs", () => {
    const boxes = board.startBoxes;
    expect(applyMove(board, at(2, 2), boxes, UP)).toMatchObject({ kind: MOVED, player: at(1, 2), goalDelta: 0 });
    const push = applyMove(board, at(2, 2), boxes, RIGHT);
    expect(push).toMatchObject({ kind: PUSHED, player: at(2, 3), boxes: [at(2, 4), at(3, 3), at(3, 4)], goalDelta: 0 });
    expect(boxes).toEqual([at(2, 3), at(3, 3), at(3, 4)]);
    const onGoal = applyMove(board, push.player, push.boxes, RIGHT);
    expect(onGoal).toMatchObject({ kind: PUSHED, goalDelta: 1, boxes: [at(2, 5), at(3, 3), at(3, 4)] });
    expect(countOnGoal(board, onGoal.boxes)).toBe(1);
    expect(applyMove(board, at(2, 4), onGoal.boxes, RIGHT)).toMatchObject({ kind: BLOCKED, player: at(2, 4) });
    expect(applyMove(board, at(2, 3), boxes, DOWN).kind).toBe(BLOCKED);
    expect(applyMove(board, at(3, 2), boxes, RIGHT).kind).toBe(BLOCKED);
    expect(applyMove(board, at(2, 1), boxes, LEFT).kind).toBe(BLOCKED);
  });

  it("keeps boxes sorted after a push that overtakes another box", () => {
    const result = applyMove(board, at(1, 4), [at(2, 4), at(3, 3)], DOWN);
    expect(result.kind).toBe(PUSHED);
    expect(result.boxes).toEqual([at(3, 3), at(3, 4)]);
  });

  it("rewards -0.1 per turn, +-1 per box on or off a goal, +10 on solving", () => {
    expect(moveReward(0, false)).toBeCloseTo(-0.1, 12);
    expect(moveReward(1, false)).toBeCloseTo(0.9, 12);
    expect(moveReward(-1, false)).toBeCloseTo(-1.1, 12);
    expect(moveReward(1, true)).toBeCloseTo(10.9, 12);
  });
});
