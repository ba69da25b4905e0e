import { describe, expect, it } from "vitest";
import { generateMap } from "../../../src/envs/frozenlake/generator.js";
import { namedMap, type FrozenLakeTask } from "../../../src/envs/frozenlake/maps.js";
import { buildOracle } from "../../../src/envs/frozenlake/oracle.js";
import { compileLake } from "../../../src/envs/frozenlake/rules.js";

// An independent reference: explicit transition lists built from the map text, then plain synchronous
// (Jacobi) value iteration, run until a sweep changes nothing.
function referenceValues(task: FrozenLakeTask, slippery: boolean): number[] {
  const rows = task.rows;
  const height = rows.length;
  const width = rows[0]!.length;
  const moves: readonly [number, number][] = [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ];
  const go = (r: number, c: number, [dr, dc]: readonly [number, number]): number => {
    const nr = Math.min(height - 1, Math.max(0, r + dr));
    const nc = Math.min(width - 1, Math.max(0, c + dc));
    return nr * width + nc;
  };
  const transitions: [number, number][][][] = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      transitions.push(
        moves.map((move) => {
          if (!slippery) return [[go(r, c, move), 1]];
          const sides = move[0] === 0 ? [moves[0]!, moves[1]!] : [moves[2]!, moves[3]!];
          return [move, ...sides].map((taken) => [go(r, c, taken), 1 / 3] as [number, number]);
        }),
      );
    }
  }
  const cells = rows.join("");
  let value: number[] = [...cells].map((cell) => (cell === "G" ? 1 : 0));
  for (let sweep = 0; sweep < 100_000; sweep++) {
    const next = [...cells].map((cell, s) => {
      if (cell === "G") return 1;
      if (cell === "H") return 0;
      return Math.max(...transitions[s]!.map((outcomes) => outcomes.reduce((sum, [to, p]) => sum + p * value[to]!, 0)));
    });
    const change = Math.max(...next.map((v, s) => Math.abs(v - value[s]!)));
    value = next;
    if (change === 0) break;
  }
  return value;
}

function shortestTurns(task: FrozenLakeTask): number[] {
  const cells = task.rows.join("");
  const width = task.rows[0]!.length;
  const turns = [...cells].map((cell) => (cell === "G" ? 0 : Infinity));
  for (let changed = true; changed;) {
    changed = false;
    for (let s = 0; s < cells.length; s++) {
      if (cells[s] !== "F" && cells[s] !== "S") continue;
      const neighbours = [s - width, s + width, s % width > 0 ? s - 1 : -1, s % width < width - 1 ? s + 1 : -1].filter(
        (n) => n >= 0 && n < cells.length,
      );
      const best = Math.min(...neighbours.map((n) => turns[n]! + 1));
      if (best < turns[s]!) {
        turns[s] = best;
        changed = true;
      }
    }
  }
  return turns;
}

const MAPS: readonly FrozenLakeTask[] = [
  namedMap("4x4"),
  namedMap("8x8"),
  ...Array.from({ length: 6 }, (_, seed) => generateMap(5, 0.7, seed)),
];

describe("frozenlake oracle", () => {
  it("matches an independent value iteration to 1e-9 on slippery ice", () => {
    for (const task of MAPS) {
      const oracle = buildOracle(compileLake(task), true);
      const reference = referenceValues(task, true);
      reference.forEach((value, cell) => expect(Math.abs(oracle.value[cell]! - value)).toBeLessThan(1e-9));
    }
  });

  it("gives the known optimum 14/17 from the start of Gymnasium's slippery 4x4 map", () => {
    expect(buildOracle(compileLake(namedMap("4x4")), true).value[0]).toBeCloseTo(14 / 17, 11);
  });

  it("on dry ice: values 1 or 0, remaining = shortest path, the legacy optimal set = exactly the shortest-path moves", () => {
    for (const task of MAPS) {
      const lake = compileLake(task);
      const oracle = buildOracle(lake, false);
      const turns = shortestTurns(task);
      const reference = referenceValues(task, false);
      turns.forEach((expected, cell) => {
        expect(oracle.remaining[cell]).toBe(task.rows.join("")[cell] === "H" ? Infinity : expected);
        expect(oracle.value[cell]).toBe(reference[cell]);
        const kind = task.rows.join("")[cell];
        const closer = ["Up", "Down", "Left", "Right"].filter(
          (_, d) => lake.next[cell * 4 + d] !== cell && turns[lake.next[cell * 4 + d]!] === expected - 1,
        );
        expect(oracle.shortestPathActions[cell]).toEqual(
          kind === "H" || kind === "G" || expected === Infinity ? [] : closer,
        );
      });
    }
  });

  it("keeps in its legacy set only actions that maximise the success probability on slippery ice", () => {
    for (const task of MAPS) {
      const oracle = buildOracle(compileLake(task), true);
      const reference = referenceValues(task, true);
      const lake = compileLake(task);
      oracle.shortestPathActions.forEach((actions, cell) => {
        for (const action of actions) {
          const direction = ["Up", "Down", "Left", "Right"].indexOf(action);
          const sides = direction < 2 ? [2, 3] : [0, 1];
          const q = [direction, ...sides].reduce((sum, taken) => sum + reference[lake.next[cell * 4 + taken]!]! / 3, 0);
          expect(q).toBeGreaterThan(reference[cell]! - 1e-8);
        }
      });
    }
  });

  it("has no optimal action and infinite remaining turns where the goal is cut off", () => {
    const task = { rows: ["SFH", "FHF", "HFG"] };
    const oracle = buildOracle(compileLake(task), true);
    expect(oracle.remaining[0]).toBe(Infinity);
    expect(oracle.value[0]).toBe(0);
    expect(oracle.shortestPathActions[0]).toEqual([]);
  });
});
