// Draws by structure: a run's tasks pairwise distinct in structure where plain draws share layouts, every draw the
// plain draw unless that one is taken; held-out sets by structure hold out every task of their structures; refusals
// before any work where the env counts its structures, and running out noticed where it does not.
import { describe, expect, it } from "vitest";
import {
  checkDistinctCount,
  heldOutTasks,
  isHeldOut,
  joinHeldOut,
  listedDistinct,
  NO_HELD_OUT,
  taskDraws,
  taskSeed,
} from "../../src/agent/task-draws.js";
import type { AnyEnv } from "../../src/core/env.js";
import { thinice } from "../../src/envs/thinice/index.js";
import { vault } from "../../src/envs/vault/index.js";

const draw = (env: AnyEnv, seed: number, count: number, by: "content" | "structure"): unknown[] => {
  const draws = taskDraws(env, seed, { count, field: "tasks", distinct: by });
  return Array.from({ length: count }, (_, index) => draws.make(index));
};

/** Small vaults (2 or 3 locks: 1 + 4 structures) as an env that cannot say how many structures it has. */
function uncountedVault(): AnyEnv {
  const env = vault({ maxLocks: 3 });
  const { distinctStructures: _counted, ...tasks } = env.tasks;
  return { ...env, tasks } as AnyEnv;
}

describe("taskDraws by structure", () => {
  it("draws tasks pairwise distinct in structure, each the plain draw unless its structure was drawn before", () => {
    const env: AnyEnv = thinice();
    const plain = Array.from({ length: 200 }, (_, index) =>
      env.tasks.structureKey(env.tasks.generate(taskSeed(7, index))),
    );
    expect(new Set(plain).size).toBeLessThan(180);
    const keys = draw(env, 7, 200, "structure").map((task) => env.tasks.structureKey(task));
    expect(new Set(keys).size).toBe(200);
    keys.forEach((key, index) => {
      if (!keys.slice(0, index).includes(plain[index]!)) expect(key).toBe(plain[index]);
    });
    // By content the same seed gives maps that repeat layouts.
    expect(new Set(draw(env, 7, 200, "content").map((task) => env.tasks.structureKey(task))).size).toBeLessThan(180);
  });

  it("refuses more structures than the env counts before drawing, and notices running out where it cannot count", () => {
    expect(() => checkDistinctCount(vault({ maxLocks: 2 }), 2, 0, "tasks", "structure")).toThrow(
      /^tasks: vault .* has only 1 distinct structure, fewer than the 2 asked for/,
    );
    expect(() => checkDistinctCount(thinice(), 600, 10, "tasks", "structure")).toThrow(
      /has only 606 distinct structures, 10 of them held out \(596 left\), fewer than the 600 asked for/,
    );
    expect(() => checkDistinctCount(thinice(), 596, 10, "tasks", "structure")).not.toThrow();
    const env = uncountedVault();
    expect(new Set(draw(env, 1, 5, "structure").map((task) => env.tasks.structureKey(task))).size).toBe(5);
    expect(() => draw(env, 1, 6, "structure")).toThrow(
      /^tasks: vault .* gave no task of a new structure in 1000 draws in a row after 5 distinct structures: it has too few distinct structures for the 6 asked for/,
    );
  });

  it("rebuilds the structures of a resumed run from its stored tasks, and refuses one whose tasks repeat a structure", () => {
    const env: AnyEnv = thinice();
    const whole = draw(env, 3, 10, "structure");
    const resumed = taskDraws(env, 3, { count: 10, field: "tasks", distinct: "structure" });
    whole.slice(0, 4).forEach((task, index) => resumed.recall(index, env.tasks.id(task), task));
    expect(Array.from({ length: 6 }, (_, offset) => resumed.make(4 + offset))).toEqual(whole.slice(4));
    // Two maps of one layout: distinct ids, one structure.
    const [first] = whole;
    const twin = Array.from({ length: 5000 }, (_, seed) => env.tasks.generate(seed)).find(
      (task) =>
        env.tasks.structureKey(task) === env.tasks.structureKey(first) && env.tasks.id(task) !== env.tasks.id(first),
    );
    expect(twin).toBeDefined();
    const old = taskDraws(env, 3, { count: 10, field: "tasks", distinct: "structure" });
    old.recall(0, env.tasks.id(first), first);
    old.recall(1, env.tasks.id(twin), twin);
    expect(() => old.make(2)).toThrow(/stored task 1 is the same problem as an earlier one/);
  });
});

describe("held-out sets by structure", () => {
  it("are the first tasks of distinct structures, and hold out every task of those structures", () => {
    const env: AnyEnv = thinice();
    const byContent = heldOutTasks(env, { seed: 7, tasks: 200 });
    expect(byContent.ids.size).toBe(200);
    expect(byContent.structures.size).toBe(0);
    const byStructure = heldOutTasks(env, { seed: 7, tasks: 200, by: "structure" });
    const tasks = draw(env, 7, 200, "structure");
    expect([...byStructure.ids]).toEqual(tasks.map((task) => env.tasks.id(task)));
    expect([...byStructure.structures]).toEqual(tasks.map((task) => env.tasks.structureKey(task)));
    // A map of a held-out layout with other decoration is held out by structure, not by content.
    const other = Array.from({ length: 2000 }, (_, seed) => env.tasks.generate(10_000 + seed)).find(
      (task) => byStructure.structures.has(env.tasks.structureKey(task)) && !byStructure.ids.has(env.tasks.id(task)),
    );
    expect(other).toBeDefined();
    expect(isHeldOut(env, byStructure, other, env.tasks.id(other))).toBe(true);
    expect(isHeldOut(env, byContent, other, env.tasks.id(other))).toBe(byContent.ids.has(env.tasks.id(other)));
    expect(isHeldOut(env, NO_HELD_OUT, tasks[0], env.tasks.id(tasks[0]))).toBe(false);
  });

  it("are left out of draws by structure or content, and join with other sets", () => {
    const env: AnyEnv = thinice();
    const heldOut = heldOutTasks(env, { seed: 7, tasks: 100, by: "structure" });
    for (const by of ["content", "structure"] as const) {
      const draws = taskDraws(env, 1, { count: 300, field: "tasks", distinct: by, heldOut });
      const keys = Array.from({ length: 300 }, (_, index) => env.tasks.structureKey(draws.make(index)));
      expect(keys.filter((key) => heldOut.structures.has(key))).toEqual([]);
    }
    const other = heldOutTasks(env, { seed: 8, tasks: 10 });
    const joined = joinHeldOut([heldOut, other]);
    expect(joined.ids.size).toBe(new Set([...heldOut.ids, ...other.ids]).size);
    expect(joined.structures).toEqual(heldOut.structures);
  });

  it("are, for an env whose tasks are a list, its first entries of distinct structures", () => {
    const base = vault();
    const list = base.tasks.parse("1? 2?\n3? 4?\n5 6? 7?\n8? 9?\n1 2? 3?\n4? 5 6?");
    const listed: AnyEnv = { ...(base as AnyEnv), tasks: { ...(base as AnyEnv).tasks, list: () => list } };
    const keyOf = (tasks: readonly unknown[]): string[] => tasks.map((task) => listed.tasks.structureKey(task));
    expect(keyOf(listedDistinct(listed, list, "structure"))).toEqual(["2:??", "3:.??", "3:?.?"]);
    expect(listedDistinct(listed, list, "content")).toHaveLength(6);
    const heldOut = heldOutTasks(listed, { seed: 1, tasks: 2, by: "structure" });
    expect([...heldOut.structures]).toEqual(["2:??", "3:.??"]);
    expect(keyOf(listedDistinct(listed, list, "content", heldOut))).toEqual(["3:?.?"]);
    expect(heldOutTasks(listed, { seed: 1, tasks: 2 }).ids).toEqual(new Set(list.slice(0, 2).map(listed.tasks.id)));
  });
});
