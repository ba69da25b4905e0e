import { describe, expect, it } from "vitest";
import { parseOptions } from "../../../src/core/options.js";
import { vaultConfigSchema } from "../../../src/envs/vault/config.js";
import { vault } from "../../../src/envs/vault/index.js";
import { spareTurns } from "../../../src/envs/vault/generator.js";
import { printVaultTask, readVaultTask, uncertainCount } from "../../../src/envs/vault/tasks.js";
import { budgetTurns, STUDY_MULTIPLES } from "../../../src/envs/shared/budget-tradeoff.js";
import { measureVaultTradeoff, vaultTradeoffMarkdown } from "../../../src/envs/vault/tradeoff.js";

describe("vault budget trade-off", () => {
  it("writes budgets as ceil(multiple x optimal) in integers", () => {
    expect(STUDY_MULTIPLES.map((multiple) => budgetTurns(multiple, 7))).toEqual([9, 11, 14, 21]);
    expect(STUDY_MULTIPLES.map((multiple) => budgetTurns(multiple, 2))).toEqual([3, 3, 4, 6]);
  });

  it("matches the closed forms on one task: believing more time checks every hint, believing less guesses", () => {
    // 8 locks, 4 uncertain: spare turns 2, 4, 8, 16 at 1.25x, 1.5x, 2x, 3x.
    const task = readVaultTask("1? 2 3? 4 5? 6 7? 8", "test");
    const table = measureVaultTradeoff([task, task], 0.6);
    expect(table.tasks).toBe(1);
    const expected = [0.36, 1, 1, 1];
    table.aware.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, 12));
    // Believing 1.25x: checks two hints, guesses two, at every budget. Believing 1.5x or more: checks all four,
    // which needs 12 turns (10 at 1.25x: out of time).
    table.assumed[0]!.forEach((value) => expect(value).toBeCloseTo(0.36, 12));
    for (const row of [...table.assumed.slice(1), table.unbounded])
      row.forEach((value, index) => expect(value).toBeCloseTo(index === 0 ? 0 : 1, 12));
    expect(table.bestBlind.label).toBe("1.5x");
    expect(table.bestBlind.tied).toEqual(["2x", "3x", "unlimited"]);
    table.bestBlind.loss.forEach((value, index) => expect(value).toBeCloseTo(index === 0 ? 0.36 : 0, 12));
    expect(table.lengths).toEqual([[8, 1]]);
  });

  it("meets the study's targets on the default tasks (>= 200 distinct): 20+ points lost either way, with a wide margin", () => {
    const env = vault();
    const { reliability } = parseOptions("vault", vaultConfigSchema, {});
    const tasks = Array.from({ length: 300 }, (_, seed) => env.tasks.generate(seed));
    const table = measureVaultTradeoff(tasks, reliability);
    expect(table.tasks).toBeGreaterThanOrEqual(200);
    const [tight, , , generous] = [0, 1, 2, 3];
    const believingGenerous = table.assumed[generous]!;
    const believingTight = table.assumed[tight]!;
    // (a) the 3x policy at 1.25x, (b) the 1.25x policy at 3x: both lose ~50 points (targets: 20).
    expect(table.aware[tight]! - believingGenerous[tight]!).toBeGreaterThan(0.4);
    expect(table.aware[generous]! - believingTight[generous]!).toBeGreaterThan(0.4);
    // Per task: the 3x policy succeeds at 1.25x only when 1.25x can check every hint (never, by design), and the
    // 1.25x policy at 3x succeeds with p^(u - s(1.25x)).
    const unique = [...new Map(tasks.map((task) => [printVaultTask(task), task])).values()];
    for (const task of unique) expect(uncertainCount(task)).toBeGreaterThan(spareTurns(1.25, task.hints.length));
    const closed = unique.map((task) => 0.6 ** (uncertainCount(task) - spareTurns(1.25, task.hints.length)));
    expect(believingTight[generous]).toBeCloseTo(closed.reduce((sum, value) => sum + value, 0) / closed.length, 12);
    expect(believingGenerous[tight]).toBe(0);
    // Every budget-blind play loses somewhere: the best ones (believing 1.5x, tied with 2x, 3x and unlimited on
    // these tasks) still lose 43 to 49 points at 1.25x.
    expect(table.bestBlind.loss[tight]).toBeGreaterThan(0.4);
    expect(Math.min(...table.bestBlind.loss)).toBeGreaterThanOrEqual(-1e-12);
    // Optimal lengths 2..12, about equally many tasks each.
    expect(table.lengths.map(([length]) => length)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(vaultTradeoffMarkdown(table)).toContain("| budget-aware oracle | 0.");
  });
});
