// Training never draws a held-out task: neither its own evaluation tasks nor a study's held-out set (by content),
// where generated tasks repeat often enough that without exclusion it would; with sets by structure, neither a task
// of a held-out structure (thin ice: 200 held-out maps of distinct layouts share none with 1,500 demonstration maps
// and 1,600 RL step tasks, where by content nearly all of them would).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveSeed } from "../../src/core/rng.js";
import { createEnv } from "../../src/envs/registry.js";
import type { AnyEnv } from "../../src/core/env.js";
import { thinice } from "../../src/envs/thinice/index.js";
import { heldOutTaskIds, heldOutTasks, resolveTasks } from "../../src/eval/tasks.js";
import { checkedHeldOut } from "../../src/rl/held-out.js";
import { stepTasks } from "../../src/rl/rollouts.js";
import { parseSftConfig } from "../../src/rl/sft-config.js";
import { parseTrainConfig } from "../../src/rl/train-config.js";
import { train } from "../../src/rl/train.js";
import { openStore } from "../../src/store/open.js";
import { readTrainSteps } from "../../src/store/train-log.js";
import { storedIds } from "../helpers/stored-ids.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-held-out-"));
const modelConfig = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 };

async function trainedTaskIds(out: string, extra: Record<string, unknown>): Promise<string[]> {
  await train({
    out,
    config: {
      env: "frozenlake",
      backend: { kind: "tiny", modelConfig },
      steps: 6,
      tasksPerStep: 16,
      group: 2,
      evalEvery: 6,
      evalTasks: 40,
      evalSamples: 1,
      evalBudgets: ["100%"],
      checkpointEvery: 6,
      maxNewTokens: 4,
      ...extra,
    },
  });
  const store = await openStore(join(out, "train.db"), { readonly: true });
  try {
    return (await readTrainSteps(store, "train")).flatMap(({ metrics }) => (metrics as { taskIds: string[] }).taskIds);
  } finally {
    await store.close();
  }
}

describe("training tasks", () => {
  it("leave out the run's evaluation tasks and another held-out set, which plain draws would hit", async () => {
    const env = createEnv("frozenlake");
    const study = { seed: 77, tasks: 40 };
    const evaluation = heldOutTaskIds(env, { seed: deriveSeed(1, "eval"), tasks: 40 });
    const studyIds = heldOutTaskIds(env, study);
    const plain = await trainedTaskIds(join(dir, "plain"), { excludeHeldOut: false });
    expect(plain).toHaveLength(96);
    expect(plain.filter((id) => evaluation.has(id) || studyIds.has(id)).length).toBeGreaterThan(10);
    const kept = await trainedTaskIds(join(dir, "kept"), { exclude: study });
    expect(kept).toHaveLength(96);
    expect(kept.filter((id) => evaluation.has(id) || studyIds.has(id))).toEqual([]);
  }, 120_000);

  it("leave out every task of a held-out structure, with evaluations on tasks of distinct structures", async () => {
    const env = createEnv("frozenlake");
    const study = { seed: 77, tasks: 40, by: "structure" } as const;
    const evaluation = heldOutTasks(env, { seed: deriveSeed(1, "eval"), tasks: 40, by: "structure" });
    const studySet = heldOutTasks(env, study);
    const out = join(dir, "structure");
    const ids = await trainedTaskIds(out, { exclude: study, evalDistinct: "structure" });
    expect(ids).toHaveLength(96);
    // The evaluation played the held-out set by structure of its seed.
    expect(await storedIds(join(out, "train.db"), "eval-step-6")).toEqual([...evaluation.ids]);
    // The step tasks, drawn again as the run drew them (seeded by run seed and step): those it trained on.
    const config = parseTrainConfig({ env: "frozenlake", exclude: study, evalDistinct: "structure", evalTasks: 40 });
    const heldOut = checkedHeldOut(env, config);
    const trainedTasksOf = Array.from({ length: 6 }, (_, step) => stepTasks(env, 1, step, 16, heldOut)).flat();
    expect(trainedTasksOf.map((task) => env.tasks.id(task))).toEqual(ids);
    const held = new Set([...evaluation.structures, ...studySet.structures]);
    expect(held.size).toBeGreaterThan(70);
    expect(trainedTasksOf.filter((task) => held.has(env.tasks.structureKey(task)))).toEqual([]);
  }, 120_000);
});

describe("held-out tasks new in structure", () => {
  /** Structures of `tasks` also in `keys`. */
  const shared = (env: AnyEnv, tasks: readonly unknown[], keys: ReadonlySet<string>): number =>
    tasks.filter((task) => keys.has(env.tasks.structureKey(task))).length;

  it("share no structure with SFT demonstrations or RL step tasks (thinice, 200 held out of 606 layouts)", () => {
    const env: AnyEnv = thinice();
    for (const by of ["content", "structure"] as const) {
      const exclude = `7:200${by === "structure" ? ":structure" : ""}`;
      // The held-out tasks: what an eval of 200 tasks from seed 7, --distinct BY, plays.
      const held = resolveTasks(env, { tasks: 200, seed: 7, distinct: by });
      const keys = new Set(held.map((task) => env.tasks.structureKey(task)));
      // The demonstrations: eval's generated tasks with the SFT config's exclude (sft-run.ts, demoEvalConfig).
      const sft = parseSftConfig({ env: "thinice", tasks: 1500, exclude });
      const demos = resolveTasks(env, { tasks: sft.tasks, seed: sft.seed, exclude: sft.exclude });
      // RL: 100 steps of 16 tasks, the held-out tasks as a training run with that exclude holds them out.
      const config = parseTrainConfig({ env: "thinice", exclude, evalEvery: 0 });
      const heldOut = checkedHeldOut(env, config);
      const steps = Array.from({ length: 100 }, (_, step) => stepTasks(env, config.seed, step, 16, heldOut)).flat();
      const demoKeys = new Set(demos.map((task) => env.tasks.structureKey(task)));
      const sharedWithDemos = held.filter((task) => demoKeys.has(env.tasks.structureKey(task)));
      if (by === "content") {
        // By content the held-out maps repeat layouts, and nearly all of them are met again in training.
        expect(keys.size).toBeLessThan(180);
        expect(sharedWithDemos.length).toBeGreaterThan(150);
        expect(shared(env, steps, keys)).toBeGreaterThan(100);
        continue;
      }
      expect(keys.size).toBe(200);
      expect(sharedWithDemos).toEqual([]);
      expect(shared(env, demos, keys)).toBe(0);
      expect(shared(env, steps, keys)).toBe(0);
      expect(new Set(demos.map((task) => env.tasks.id(task))).size).toBe(1500);
      expect(steps).toHaveLength(1600);
    }
  });

  it("refuses, before any work, more evaluation tasks of distinct structures than the env has", () => {
    const pairs = createEnv("vault", { maxLocks: 2 });
    const config = parseTrainConfig({
      env: "vault",
      envOptions: { maxLocks: 2 },
      evalDistinct: "structure",
      evalTasks: 2,
    });
    expect(() => checkedHeldOut(pairs, config)).toThrow(/^evalTasks: vault .* has only 1 distinct structure/);
    // One 2-lock structure held out leaves training no 2-lock vault to draw.
    const heldOut = checkedHeldOut(pairs, { ...config, evalTasks: 1 });
    expect(() => stepTasks(pairs, 1, 0, 1, heldOut)).toThrow(
      /^tasksPerStep: vault .* gave no new task in 1000 draws in a row after 0 distinct training tasks besides the 1 held-out ones and every task of their 1 structures/,
    );
  });
});
