import { describe, expect, it } from "vitest";
import { createRng } from "../../../src/core/rng.js";
import { carveRoom, generateLevel, type GeneratorOptions } from "../../../src/envs/sokoban/generator.js";

const DEFAULTS: GeneratorOptions = { width: 6, height: 6, boxes: 1, searchDepth: 100, maxStates: 1_000_000 };

function count(rows: readonly string[], chars: string): number {
  return rows
    .join("")
    .split("")
    .filter((char) => chars.includes(char)).length;
}

describe("sokoban generator", () => {
  it("generates only solvable, unsolved levels of the requested shape (300 default seeds)", () => {
    const distances: number[] = [];
    for (let seed = 0; seed < 300; seed++) {
      const { task, oracle } = generateLevel(DEFAULTS, seed);
      expect(task.rows).toHaveLength(6);
      expect(task.rows.every((row) => row.length === 6)).toBe(true);
      expect(task.rows[0]).toBe("######");
      expect(count(task.rows, "$*")).toBe(1);
      expect(count(task.rows, "@+")).toBe(1);
      expect(Number.isFinite(oracle.startDistance)).toBe(true);
      expect(oracle.startDistance).toBeGreaterThan(0);
      distances.push(oracle.startDistance);
    }
    const mean = distances.reduce((sum, value) => sum + value, 0) / distances.length;
    expect(mean).toBeGreaterThan(4);
  });

  it("generates solvable levels with several boxes", () => {
    for (let seed = 0; seed < 20; seed++) {
      const { task, oracle } = generateLevel({ ...DEFAULTS, width: 8, height: 8, boxes: 2 }, seed);
      expect(count(task.rows, "$*")).toBe(2);
      expect(count(task.rows, ".*+")).toBe(2);
      expect(Number.isFinite(oracle.startDistance) && oracle.startDistance > 0).toBe(true);
    }
  });

  it("is reproducible from the seed and varies across seeds", () => {
    expect(generateLevel(DEFAULTS, 7).task).toEqual(generateLevel(DEFAULTS, 7).task);
    const distinct = new Set(
      Array.from({ length: 50 }, (_, seed) => generateLevel(DEFAULTS, seed).task.rows.join("\n")),
    );
    expect(distinct.size).toBeGreaterThan(45);
  });

  it("carves rooms inside an outer wall", () => {
    const floor = carveRoom(createRng(3), 9, 7);
    expect(floor).toHaveLength(7);
    expect(floor[0]!.some(Boolean) || floor[6]!.some(Boolean)).toBe(false);
    expect(floor.some((row) => row[0] || row[8])).toBe(false);
    expect(floor.flat().filter(Boolean).length).toBeGreaterThan(3);
  });

  it("fills even a 5x5 room with 6 boxes, and gives up when rooms keep exceeding the state cap", () => {
    expect(generateLevel({ ...DEFAULTS, width: 5, height: 5, boxes: 6 }, 1).board.boxCount).toBe(6);
    for (let seed = 0; seed < 5; seed++)
      expect(
        generateLevel({ ...DEFAULTS, width: 8, height: 8, boxes: 2, maxStates: 300 }, seed).oracle.nodeCount,
      ).toBeLessThan(300);
    expect(() => generateLevel({ ...DEFAULTS, width: 8, height: 8, boxes: 2, maxStates: 1 }, 1)).toThrow(
      /rooms in a row had more than 1 reachable states/,
    );
  });
});
