// Task lists of runs: a held-out set is left out by content, even where generated tasks repeat often.
import { describe, expect, it } from "vitest";
import type { AnyEnv } from "../../src/core/env.js";
import { frozenlake } from "../../src/envs/frozenlake/index.js";
import { hanoi } from "../../src/envs/hanoi/index.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "../../src/eval/evaluate.js";
import { openStore } from "../../src/store/open.js";
import { loadTasks } from "../../src/store/runs.js";
import { drawTask, heldOutTaskIds, resolveTasks, taskSeed } from "../../src/eval/tasks.js";

describe("held-out sets", () => {
  it("leave every held-out task out of a generated run, where without exclusion many would be drawn", () => {
    const env: AnyEnv = frozenlake(); // generated 4x4 maps: few distinct ones, so repeats are common
    const heldOut = { seed: 9, tasks: 40 };
    const held = heldOutTaskIds(env, heldOut);
    const plain = resolveTasks(env, { tasks: 300, seed: 1 }).map((task) => env.taskId(task));
    expect(plain.filter((id) => held.has(id)).length).toBeGreaterThan(20);
    const kept = resolveTasks(env, { tasks: 300, seed: 1, exclude: heldOut }).map((task) => env.taskId(task));
    expect(kept.filter((id) => held.has(id))).toEqual([]);
    // Tasks outside the set keep the seeds they had without exclusion.
    kept.forEach((id, index) => {
      if (!held.has(plain[index] as string)) expect(id).toBe(plain[index]);
    });
  });

  it("refuse, naming the field, when the env has too few distinct tasks to keep them apart", () => {
    const env = hanoi({ disks: 2 }); // one task only
    const held = heldOutTaskIds(env, { seed: 1, tasks: 1 });
    expect(() => drawTask(env, (attempt) => taskSeed(5, attempt), held)).toThrow(/exclude: 1000 draws in a row gave tasks of the held-out set/);
  });

  it("are stored with an evaluation run and respected on resume", async () => {
    const env = frozenlake();
    const heldOut = { seed: 3, tasks: 30 };
    const result = await evaluate({ env: "frozenlake", policy: "oracle", tasks: 60, samples: 1, exclude: heldOut, seed: 2, bootstrap: 0, keepEpisodes: true });
    expect(result.config.exclude).toEqual(heldOut);
    const held = heldOutTaskIds(env, heldOut);
    expect(result.episodes.filter((episode) => held.has(episode.taskId))).toEqual([]);
    await expect(evaluate({ env: "bfcl", policy: "replay", tasks: 2, samples: 1, exclude: heldOut })).rejects.toThrow(/exclude: a held-out set can only be left out of generated tasks/);
    // Stopped after a few episodes and resumed: the tasks made on resume leave the set out too, and the list is
    // the uninterrupted run's.
    const db = join(mkdtempSync(join(tmpdir(), "budgetrl-held-out-")), "runs.db");
    const controller = new AbortController();
    const common = { env: "frozenlake", policy: "oracle", tasks: 200, samples: 1, exclude: heldOut, seed: 2, bootstrap: 0, db } as const;
    const stopped = await evaluate({ ...common, run: "r", signal: controller.signal, onProgress: (done) => void (done >= 5 && controller.abort()) });
    expect(stopped.interrupted).toBe(true);
    await evaluate({ ...common, run: "r", resume: true });
    await evaluate({ ...common, run: "whole" });
    const store = await openStore(db, { readonly: true });
    const ids = async (run: string): Promise<string[]> => (await loadTasks(store, run)).map((task) => task.id);
    const [resumed, whole] = [await ids("r"), await ids("whole")];
    await store.close();
    expect(resumed).toHaveLength(200);
    expect(resumed).toEqual(whole);
    expect(resumed.filter((id) => held.has(id))).toEqual([]);
  });
});
