import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import { createRng } from "../../../src/core/rng.js";
import { generateLevel } from "../../../src/envs/sokoban/generator.js";
import { levelFromRows, type SokobanTask } from "../../../src/envs/sokoban/levels.js";
import { buildOracle, createStateIdentifier } from "../../../src/envs/sokoban/oracle.js";
import { compileBoard } from "../../../src/envs/sokoban/rules.js";

// An independent reference written from scratch on the character grid: states are "row,col|row,col;..."
// strings, and the distance of a state is found by a plain forward BFS from it until a solved state.
interface RefState {
  readonly player: readonly [number, number];
  readonly boxes: readonly (readonly [number, number])[];
}
const STEPS: readonly (readonly [number, number])[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

function refKey(state: RefState): string {
  const boxes = state.boxes.map(([r, c]) => `${r},${c}`).sort();
  return `${state.player[0]},${state.player[1]}|${boxes.join(";")}`;
}

function refMove(rows: readonly string[], state: RefState, [dr, dc]: readonly [number, number]): RefState {
  const open = (r: number, c: number): boolean =>
    r >= 0 && r < rows.length && c >= 0 && c < rows[r]!.length && rows[r]![c] !== "#";
  const boxAt = (r: number, c: number): number => state.boxes.findIndex(([br, bc]) => br === r && bc === c);
  const [r, c] = [state.player[0] + dr, state.player[1] + dc];
  if (!open(r, c)) return state;
  const box = boxAt(r, c);
  if (box < 0) return { player: [r, c], boxes: state.boxes };
  if (!open(r + dr, c + dc) || boxAt(r + dr, c + dc) >= 0) return state;
  return { player: [r, c], boxes: state.boxes.map((b, i) => (i === box ? ([r + dr, c + dc] as const) : b)) };
}

function refSolved(rows: readonly string[], state: RefState): boolean {
  return state.boxes.every(([r, c]) => ".*+".includes(rows[r]![c]!));
}

function refDistance(rows: readonly string[], start: RefState): number {
  let frontier = [start];
  const seen = new Set([refKey(start)]);
  for (let distance = 0; frontier.length > 0; distance++) {
    const next: RefState[] = [];
    for (const state of frontier) {
      if (refSolved(rows, state)) return distance;
      for (const step of STEPS) {
        const moved = refMove(rows, state, step);
        if (!seen.has(refKey(moved))) {
          seen.add(refKey(moved));
          next.push(moved);
        }
      }
    }
    frontier = next;
  }
  return Infinity;
}

function refStart(task: SokobanTask): RefState {
  const boxes: [number, number][] = [];
  let player: [number, number] = [0, 0];
  task.rows.forEach((row, r) =>
    [...row].forEach((char, c) => {
      if ("$*".includes(char)) boxes.push([r, c]);
      if ("@+".includes(char)) player = [r, c];
    }),
  );
  return { player, boxes };
}

/** Check the oracle against the reference at the start and along a seeded random walk. */
function checkAgainstReference(task: SokobanTask, walkSeed: number, walkLength: number): void {
  const board = compileBoard(task);
  const oracle = buildOracle(board, 1_000_000);
  const width = board.width;
  const rng = createRng(walkSeed);
  let state = refStart(task);
  for (let turn = 0; turn <= walkLength; turn++) {
    if (refSolved(task.rows, state)) break;
    const cells = state.boxes.map(([r, c]) => r * width + c).sort((a, b) => a - b);
    const node = oracle.nodeOfId(oracle.stateId(state.player[0] * width + state.player[1], cells));
    expect(node).toBeGreaterThanOrEqual(0);
    const distance = refDistance(task.rows, state);
    expect(oracle.distance(node)).toBe(distance);
    const expectedOptimal = ["Up", "Down", "Left", "Right"].filter((_, d) => {
      const moved = refMove(task.rows, state, STEPS[d]!);
      return (
        Number.isFinite(distance) && refKey(moved) !== refKey(state) && refDistance(task.rows, moved) === distance - 1
      );
    });
    expect(oracle.optimal(node)).toEqual(expectedOptimal);
    state = refMove(task.rows, state, STEPS[rng.int(4)]!);
  }
}

describe("sokoban BFS oracle", () => {
  it("matches an independent exhaustive search on generated 6x6 rooms with 1 box", () => {
    for (let seed = 0; seed < 40; seed++) {
      const { task } = generateLevel({ width: 6, height: 6, boxes: 1, searchDepth: 100, maxStates: 1_000_000 }, seed);
      checkAgainstReference(task, seed, 25);
    }
  });

  it("matches it on rooms with 2 boxes (including deadlocks)", () => {
    for (let seed = 0; seed < 6; seed++) {
      const { task } = generateLevel({ width: 7, height: 7, boxes: 2, searchDepth: 100, maxStates: 1_000_000 }, seed);
      checkAgainstReference(task, seed, 30);
    }
  });

  it("knows a hand-made level: optimal length, ties, and a deadlock", () => {
    const task = levelFromRows(["#######", "#     #", "# $ . #", "#  @  #", "#######"], "test");
    const board = compileBoard(task);
    const oracle = buildOracle(board, 1000);
    // Player (3,3), box (2,2), goal (2,4): reach (2,1) in 3 moves (Left, Left, Up), then push Right twice.
    expect(oracle.startDistance).toBe(5);
    expect(refDistance(task.rows, refStart(task))).toBe(5);
    const corner = oracle.nodeOfId(oracle.stateId(3 * 7 + 3, [1 * 7 + 1]));
    expect(corner).toBeGreaterThanOrEqual(0);
    expect(oracle.distance(corner)).toBe(Infinity);
    expect(oracle.optimal(corner)).toEqual([]);
  });

  it("gives unsolvable levels an infinite start distance", () => {
    const oracle = buildOracle(compileBoard(levelFromRows(["#####", "#$ .#", "# @ #", "#####"], "test")), 1000);
    expect(oracle.startDistance).toBe(Infinity);
  });

  it("refuses to build past maxStates, naming the option", () => {
    const board = compileBoard(levelFromRows(["########", "#      #", "# $$ ..#", "#  @   #", "########"], "test"));
    expect(() => buildOracle(board, 1000)).toThrow(DataError);
    expect(() => buildOracle(board, 1000)).toThrow(/sokoban.maxStates/);
  });

  it("numbers states bijectively", () => {
    const board = compileBoard(levelFromRows(["######", "#    #", "# $$.#", "#@  .#", "######"], "test"));
    const stateId = createStateIdentifier(board);
    const floors = [...board.floorCells];
    const ids = new Set<number>();
    for (const player of floors)
      for (let i = 0; i < floors.length; i++)
        for (let j = i + 1; j < floors.length; j++) ids.add(stateId(player, [floors[i]!, floors[j]!]));
    const pairs = (floors.length * (floors.length - 1)) / 2;
    expect(ids.size).toBe(floors.length * pairs);
    expect(Math.max(...ids)).toBe(floors.length * pairs - 1);
  });
});
