// Task lists of runs: generated tasks are distinct by content (where plain draws repeat often), the same on every
// run with the same seed and on resume; a held-out set is the first tasks of its seed and is left out by content;
// an env with too few distinct tasks is refused up front or noticed while drawing; listed tasks never repeat. With
// distinct "structure" a run plays exactly the held-out set by structure of its seed, and refuses more tasks than
// the env has structures.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AnyEnv } from "../../src/core/env.js";
import { frozenlake } from "../../src/envs/frozenlake/index.js";
import { bfcl } from "../../src/envs/bfcl/index.js";
import { hanoi } from "../../src/envs/hanoi/index.js";
import { thinice } from "../../src/envs/thinice/index.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { heldOutTaskIds, resolveTasks, taskDraws, taskSeed } from "../../src/eval/tasks.js";
import { storedIds } from "../helpers/stored-ids.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-tasks-"));

const idsOf = (env: AnyEnv, tasks: readonly unknown[]): string[] => tasks.map((task) => env.tasks.id(task));

/** Hanoi with 2 disks and random starts (8 distinct tasks), as an env that cannot say how many it has. */
function uncountedHanoi(): AnyEnv {
  const env = hanoi({ disks: 2, randomStart: true });
  const { distinctTasks: _counted, ...tasks } = env.tasks;
  return { ...env, tasks } as AnyEnv;
}

describe("generated tasks", () => {
  it("are distinct by content, where plain draws repeat, and keep every seed's first draw that is new", () => {
    const env: AnyEnv = frozenlake(); // generated 4x4 maps: 200 plain draws hold about 137 distinct ones
    const plain = Array.from({ length: 200 }, (_, index) => env.tasks.id(env.tasks.generate(taskSeed(1, index))));
    expect(new Set(plain).size).toBeLessThan(160);
    const drawn = idsOf(env, resolveTasks(env, { tasks: 200, seed: 1 }));
    expect(new Set(drawn).size).toBe(200);
    // Task i is the plain draw i whenever that draw is new to the run: redraws only replace repeats.
    drawn.forEach((id, index) => {
      if (!drawn.slice(0, index).includes(plain[index] as string)) expect(id).toBe(plain[index]);
    });
    expect(idsOf(env, resolveTasks(env, { tasks: 200, seed: 1 }))).toEqual(drawn);
  });

  it("refuse more distinct tasks than the env says it has before drawing, and notice running out otherwise", () => {
    expect(() => resolveTasks(hanoi({ disks: 3, randomStart: true }), { tasks: 40, seed: 1 })).toThrow(
      /^tasks: hanoi disks=3 randomStart=true referenceFactor=4 has only 26 distinct tasks, fewer than the 40 asked for/,
    );
    const all = hanoi({ disks: 3, randomStart: true });
    expect(new Set(idsOf(all, resolveTasks(all, { tasks: 26, seed: 1 }))).size).toBe(26);
    expect(() => resolveTasks(hanoi(), { tasks: 2, seed: 1 })).toThrow(
      /hanoi disks=3 randomStart=false referenceFactor=4 has only 1 distinct task, fewer than the 2 asked for/,
    );
    const env = uncountedHanoi();
    expect(new Set(idsOf(env, resolveTasks(env, { tasks: 8, seed: 1 }))).size).toBe(8);
    expect(() => resolveTasks(env, { tasks: 9, seed: 1 })).toThrow(
      /^tasks: hanoi disks=2 randomStart=true referenceFactor=4 gave no new task in 1000 draws in a row after 8 distinct tasks: it has too few distinct tasks for the 9 asked for/,
    );
  });

  it("are drawn in index order, and a run whose stored tasks repeat (made before they were distinct) is not continued", () => {
    const env = frozenlake();
    const draws = taskDraws(env, 1, { count: 5, field: "tasks" });
    expect(() => draws.make(1)).toThrow(/task 1 was asked for before task 0/);
    const old = taskDraws(env, 1, { count: 5, field: "tasks" });
    old.recall(0, "frozenlake-a", env.tasks.generate(0));
    old.recall(1, "frozenlake-a", env.tasks.generate(1));
    expect(() => old.make(2)).toThrow(
      /stored task 1 repeats an earlier one: the run was made before runs drew distinct tasks/,
    );
  });

  it("continue a resumed run exactly: the ids drawn are rebuilt from its stored tasks", async () => {
    const db = join(dir, "resume.db");
    const common = { env: "frozenlake", policy: "oracle", tasks: 200, samples: 1, seed: 2, bootstrap: 0, db } as const;
    const controller = new AbortController();
    // Stopped in the first chunk of 64 stored tasks: the resumed run reads them back and draws tasks 64.. after them.
    const stopped = await evaluate({
      ...common,
      run: "r",
      signal: controller.signal,
      onProgress: (done) => void (done >= 5 && controller.abort()),
    });
    expect(stopped.interrupted).toBe(true);
    expect((await storedIds(db, "r")).length).toBeLessThan(200);
    await evaluate({ ...common, run: "r", resume: true });
    await evaluate({ ...common, run: "whole" });
    const [resumed, whole] = [await storedIds(db, "r"), await storedIds(db, "whole")];
    expect(resumed).toHaveLength(200);
    expect(new Set(resumed).size).toBe(200);
    expect(resumed).toEqual(whole);
  });
});

describe("held-out sets", () => {
  it("are the first distinct tasks of their seed: what an eval with that seed draws", async () => {
    const env = frozenlake();
    const held = heldOutTaskIds(env, { seed: 9, tasks: 150 });
    expect(held.size).toBe(150);
    const db = join(dir, "held-out.db");
    await evaluate({
      env: "frozenlake",
      policy: "oracle",
      tasks: 150,
      samples: 1,
      seed: 9,
      bootstrap: 0,
      db,
      run: "held-out",
    });
    expect(await storedIds(db, "held-out")).toEqual([...held]);
  });

  it("are left out of a generated run whose tasks stay distinct, where plain draws would hit many", () => {
    const env: AnyEnv = frozenlake();
    const heldOut = { seed: 9, tasks: 40 };
    const held = heldOutTaskIds(env, heldOut);
    const plain = idsOf(env, resolveTasks(env, { tasks: 300, seed: 1 }));
    expect(plain.filter((id) => held.has(id)).length).toBeGreaterThan(20);
    const kept = idsOf(env, resolveTasks(env, { tasks: 300, seed: 1, exclude: heldOut }));
    expect(new Set(kept).size).toBe(300);
    expect(kept.filter((id) => held.has(id))).toEqual([]);
    // The up-front count leaves the held-out tasks out too: 26 distinct hanoi tasks, 20 held out, 6 left.
    expect(() =>
      resolveTasks(hanoi({ disks: 3, randomStart: true }), { tasks: 7, seed: 1, exclude: { seed: 2, tasks: 20 } }),
    ).toThrow(/has only 26 distinct tasks, 20 of them held out \(6 left\), fewer than the 7 asked for/);
    expect(
      resolveTasks(hanoi({ disks: 3, randomStart: true }), { tasks: 6, seed: 1, exclude: { seed: 2, tasks: 20 } }),
    ).toHaveLength(6);
    expect(() => heldOutTaskIds(hanoi(), { seed: 1, tasks: 2 })).toThrow(
      /^exclude: hanoi disks=3 randomStart=false referenceFactor=4 has only 1 distinct task/,
    );
  });

  it("are stored with an evaluation run and respected on resume", async () => {
    const env = frozenlake();
    const heldOut = { seed: 3, tasks: 30 };
    const result = await evaluate({
      env: "frozenlake",
      policy: "oracle",
      tasks: 60,
      samples: 1,
      exclude: heldOut,
      seed: 2,
      bootstrap: 0,
      keepEpisodes: true,
    });
    expect(result.config.exclude).toEqual({ ...heldOut, by: "content" });
    const held = heldOutTaskIds(env, heldOut);
    expect(result.episodes.filter((episode) => held.has(episode.taskId))).toEqual([]);
    // A dataset is played in its order: its held-out set of N is its first N entries, and a run that leaves it out
    // plays the entries after them (a task file is explicit, and refused with a held-out set).
    const bfclIds = bfcl()
      .tasks.list()
      .map((entry) => entry.id);
    expect([...heldOutTaskIds(bfcl(), { seed: 7, tasks: 3 })]).toEqual(bfclIds.slice(0, 3));
    const rest = await evaluate({
      env: "bfcl",
      policy: "replay",
      tasks: 2,
      samples: 1,
      budgets: ["100%"],
      exclude: { seed: 7, tasks: 3 },
      bootstrap: 0,
      keepEpisodes: true,
    });
    expect(rest.episodes.map((episode) => episode.taskId)).toEqual(bfclIds.slice(3, 5));
    const taskFile = join(dir, "bfcl-tasks.txt");
    writeFileSync(taskFile, `${bfclIds[0]}\n`);
    await expect(
      evaluate({ env: "bfcl", policy: "replay", tasks: 1, samples: 1, tasksFile: taskFile, exclude: heldOut }),
    ).rejects.toThrow(
      /exclude: a held-out set can only be left out of generated tasks or an env's own list, not of a task file/,
    );
    const db = join(dir, "held-out-resume.db");
    const controller = new AbortController();
    const common = {
      env: "frozenlake",
      policy: "oracle",
      tasks: 200,
      samples: 1,
      exclude: heldOut,
      seed: 2,
      bootstrap: 0,
      db,
    } as const;
    const stopped = await evaluate({
      ...common,
      run: "r",
      signal: controller.signal,
      onProgress: (done) => void (done >= 5 && controller.abort()),
    });
    expect(stopped.interrupted).toBe(true);
    await evaluate({ ...common, run: "r", resume: true });
    await evaluate({ ...common, run: "whole" });
    const [resumed, whole] = [await storedIds(db, "r"), await storedIds(db, "whole")];
    expect(resumed).toHaveLength(200);
    expect(new Set(resumed).size).toBe(200);
    expect(resumed).toEqual(whole);
    expect(resumed.filter((id) => held.has(id))).toEqual([]);
  });
});

describe("listed tasks", () => {
  it("refuse a task twice, naming both, in a task file and in a list handed to evaluate", async () => {
    const file = join(dir, "twice.txt");
    writeFileSync(file, "# three tasks, the third the first again\n3 BAA\n3 ABA\n\n3 baa\n");
    await expect(
      evaluate({ env: "hanoi", policy: "oracle", tasksFile: file, samples: 1, bootstrap: 0 }),
    ).rejects.toThrow(/^tasks-file: task 3 of .*twice\.txt repeats task 1 of .*twice\.txt \(hanoi-3-BAA\)/);
    // Only the tasks the run uses count: the first two are distinct.
    expect(
      (await evaluate({ env: "hanoi", policy: "oracle", tasksFile: file, tasks: 2, samples: 1, bootstrap: 0 })).done,
    ).toBe(2);
    const env = hanoi({ disks: 3, randomStart: true });
    const [first, second] = env.tasks.parse("3 BAA\n3 ABA");
    await expect(
      evaluate({ env, policy: "oracle", tasks: [first, second, first], samples: 1, bootstrap: 0 }),
    ).rejects.toThrow(/^tasks: tasks\[2\] repeats tasks\[0\]/);
  });
});

describe("tasks distinct in structure", () => {
  it("are exactly the held-out set by structure of the run's seed, and no two are the same problem", async () => {
    const env: AnyEnv = thinice();
    const db = join(dir, "structure.db");
    const result = await evaluate({
      env: "thinice",
      policy: "oracle",
      tasks: 120,
      samples: 1,
      seed: 7,
      distinct: "structure",
      bootstrap: 0,
      db,
      run: "structure",
    });
    expect(result.config.distinct).toBe("structure");
    const ids = await storedIds(db, "structure");
    expect(ids).toEqual([...heldOutTaskIds(env, { seed: 7, tasks: 120, by: "structure" })]);
    const tasks = resolveTasks(env, { tasks: 120, seed: 7, distinct: "structure" });
    expect(idsOf(env, tasks)).toEqual(ids);
    expect(new Set(tasks.map((task) => env.tasks.structureKey(task))).size).toBe(120);
    // By content the same seed repeats layouts.
    const byContent = resolveTasks(env, { tasks: 120, seed: 7 });
    expect(new Set(byContent.map((task) => env.tasks.structureKey(task))).size).toBeLessThan(110);
  });

  it("refuse more tasks than the env has structures before any work, and a task file that repeats a structure", async () => {
    const db = join(dir, "too-many-structures.db");
    await expect(
      evaluate({ env: "thinice", policy: "oracle", tasks: 607, distinct: "structure", db, run: "r" }),
    ).rejects.toThrow(/^tasks: thinice .* has only 606 distinct structures, fewer than the 607 asked for/);
    await expect(
      evaluate({
        env: "thinice",
        policy: "oracle",
        tasks: 600,
        distinct: "structure",
        exclude: { seed: 1, tasks: 10, by: "structure" },
        db,
        run: "r",
      }),
    ).rejects.toThrow(
      /has only 606 distinct structures, 10 of them held out \(596 left\), fewer than the 600 asked for/,
    );
    expect(existsSync(db)).toBe(false);
    // Two maps of one playable layout (the ice right of the rock column is out of reach).
    const file = join(dir, "one-layout.txt");
    writeFileSync(file, "S.~.G#.\n..#.##.\n....#..\n\nS.~.G##\n..#.###\n....###\n");
    const common = { env: "thinice", policy: "oracle", tasksFile: file, samples: 1, bootstrap: 0 } as const;
    await expect(evaluate({ ...common, distinct: "structure" })).rejects.toThrow(
      /^tasks-file: task 2 of .*one-layout\.txt is the same problem as task 1 of .*one-layout\.txt/,
    );
    expect((await evaluate(common)).done).toBe(2);
  });

  it("keep a dataset's first entry of each structure, and leave out every entry of a held-out structure", async () => {
    const env: AnyEnv = bfcl();
    const entries = env.tasks.list?.() ?? [];
    const ids = (tasks: readonly unknown[]): string[] => tasks.map((task) => env.tasks.id(task));
    const heldOut = { seed: 7, tasks: 3, by: "structure" } as const;
    expect([...heldOutTaskIds(env, heldOut)]).toEqual(ids(entries.slice(0, 3)));
    // By content the held-out set's variants in the other categories are still played; by structure none is.
    const rest = resolveTasks(env, { tasks: 800, seed: 1, exclude: { seed: 7, tasks: 3 } });
    expect(rest.filter((task) => ["0", "1", "2"].includes(env.tasks.structureKey(task)))).toHaveLength(9);
    const apart = resolveTasks(env, { tasks: 800, seed: 1, exclude: heldOut });
    expect(apart).toHaveLength(800 - 12);
    expect(apart.filter((task) => ["0", "1", "2"].includes(env.tasks.structureKey(task)))).toEqual([]);
    expect(ids(resolveTasks(env, { tasks: 300, seed: 1, distinct: "structure" }))).toEqual(ids(entries.slice(0, 200)));
  });
});
