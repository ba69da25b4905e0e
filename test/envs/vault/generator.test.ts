import { describe, expect, it } from "vitest";
import {
  distinctVaultStructures,
  distinctVaultTasks,
  generateVault,
  spareTurns,
  uncertainCounts,
} from "../../../src/envs/vault/generator.js";
import { vaultConfigSchema } from "../../../src/envs/vault/config.js";
import { parseOptions } from "../../../src/core/options.js";
import { printVaultTask, uncertainCount, vaultStructureKey } from "../../../src/envs/vault/tasks.js";

const defaults = parseOptions("vault", vaultConfigSchema, {});

describe("vault generator", () => {
  it("counts the spare turns of a budget written as a multiple of the optimum", () => {
    expect([2, 3, 4, 5, 8, 9, 12].map((locks) => spareTurns(1.25, locks))).toEqual([1, 1, 1, 2, 2, 3, 3]);
    expect(spareTurns(1.1, 10)).toBe(1);
    expect(spareTurns(1, 7)).toBe(0);
    expect(spareTurns(3, 4)).toBe(8);
  });

  it("gives each size one or two more uncertain locks than 1.25x leaves spare turns, at most every lock", () => {
    expect(uncertainCounts(defaults, 2)).toEqual([2]);
    expect(uncertainCounts(defaults, 3)).toEqual([2, 3]);
    expect(uncertainCounts(defaults, 12)).toEqual([4, 5]);
    expect(uncertainCounts({ ...defaults, tightBudget: 1, minExtra: 0, maxExtra: 0 }, 6)).toEqual([0]);
  });

  it("is deterministic per seed and draws sizes uniformly over 2..12, with the uncertain counts above", () => {
    expect(generateVault(defaults, 42)).toEqual(generateVault(defaults, 42));
    const tasks = Array.from({ length: 2200 }, (_, seed) => generateVault(defaults, seed));
    const sizes = new Map<number, number>();
    for (const task of tasks) {
      const locks = task.hints.length;
      sizes.set(locks, (sizes.get(locks) ?? 0) + 1);
      expect(uncertainCounts(defaults, locks)).toContain(uncertainCount(task));
    }
    expect([...sizes.keys()].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // 200 expected per size; a binomial standard deviation is 13.5.
    for (const count of sizes.values()) expect(Math.abs(count - 200)).toBeLessThan(60);
  });

  it("draws thousands of distinct tasks, placing uncertain locks and hint digits anywhere", () => {
    const tasks = Array.from({ length: 3000 }, (_, seed) => generateVault(defaults, seed));
    // Two-lock vaults have only 100 variants (both hints uncertain), so ~180 of their ~270 draws repeat one.
    expect(new Set(tasks.map(printVaultTask)).size).toBeGreaterThan(2700);
    const larger = tasks.filter((task) => task.hints.length >= 4).map(printVaultTask);
    expect(new Set(larger).size).toBe(larger.length);
    const twelve = Array.from({ length: 4000 }, (_, seed) => generateVault({ ...defaults, minLocks: 12 }, seed));
    for (let lock = 0; lock < 12; lock++) {
      const share = twelve.filter((task) => task.uncertain[lock]).length / twelve.length;
      expect(Math.abs(share - 4.5 / 12)).toBeLessThan(0.05);
    }
    expect(new Set(twelve.flatMap((task) => task.hints)).size).toBe(10);
  });

  it("counts the distinct tasks exactly", () => {
    // 2 locks: both uncertain, 100 hint pairs. 3 locks: 2 or 3 uncertain (3 + 1 placements), 1000 hint triples.
    expect(distinctVaultTasks({ ...defaults, maxLocks: 2 })).toBe(100n);
    expect(distinctVaultTasks({ ...defaults, maxLocks: 3 })).toBe(100n + 4000n);
    // Brute force over every task of 4 locks (1 + 1..2 -> 2 or 3 uncertain): C(4,2) + C(4,3) = 10 placements.
    expect(distinctVaultTasks({ ...defaults, minLocks: 4, maxLocks: 4 })).toBe(100_000n);
    expect(distinctVaultTasks(defaults)).toBeGreaterThan(10n ** 15n);
  });

  it("counts the distinct structures exactly: 1 for two locks, every one drawn from enough seeds", () => {
    // 2 locks: both uncertain, one structure. 3 locks: 2 or 3 uncertain, 3 + 1. 4 locks: C(4,2) + C(4,3) = 10.
    expect(distinctVaultStructures({ ...defaults, maxLocks: 2 })).toBe(1);
    expect(distinctVaultStructures({ ...defaults, minLocks: 3, maxLocks: 3 })).toBe(4);
    expect(distinctVaultStructures({ ...defaults, minLocks: 4, maxLocks: 4 })).toBe(10);
    expect(distinctVaultStructures(defaults)).toBe(3054);
    const small = { ...defaults, maxLocks: 5 };
    const seen = new Set(Array.from({ length: 3000 }, (_, seed) => vaultStructureKey(generateVault(small, seed))));
    expect(seen.size).toBe(distinctVaultStructures(small));
    expect(seen.size).toBe(1 + 4 + 10 + 15);
  });
});
