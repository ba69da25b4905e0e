// What a study's held-out tasks have in common with its training tasks, for the report: per env, the held-out tasks'
// structures (env.tasks.structureKey) and, per seed, the structures of every task that seed trained on: its
// demonstrations (the first demoTasks tasks of its SFT seed outside the held-out set, as the SFT stage draws them) and
// its RL step tasks (every step's, drawn as rl/rollouts.ts draws them; every RL run of a seed draws the same ones).
// The draws are made again here from the study's config (they are seeded), not read from the runs: cheap, and the
// same whatever the runs stored. A held-out set by structure must come out with no seen task (a test checks it).
import { stepTasks } from "../rl/rollouts.js";
import { trainHeldOut } from "../rl/held-out.js";
import { parseTrainConfig } from "../rl/train-config.js";
import { deriveSeed } from "../core/rng.js";
import { createEnv } from "../envs/registry.js";
import { resolveTasks } from "../eval/tasks.js";
import type { HeldOutFacts } from "../report/held-out-split.js";
import type { StudyConfig, StudyEnv } from "./config.js";
import { heldOutSet, rlTrainConfig, rlVariants } from "./plan.js";

/** The structures of one seed's training tasks on an env, and how many tasks they are. */
function trainingStructures(
  config: Readonly<StudyConfig>,
  out: string,
  seed: number,
  entry: StudyEnv,
): { tasks: number; structures: Set<string> } {
  const env = createEnv(entry.env, entry.envOptions);
  const exclude = heldOutSet(config, entry);
  const demonstrations =
    config.base.kind === "sft"
      ? resolveTasks(env, { tasks: config.demoTasks, seed: deriveSeed(seed, "sft", entry.env), exclude })
      : [];
  const variant = rlVariants(entry)[0];
  const steps: unknown[] = [];
  if (variant !== undefined) {
    const train = parseTrainConfig(rlTrainConfig(config, out, seed, entry, variant));
    const heldOut = trainHeldOut(env, train);
    for (let step = 0; step < train.steps; step++)
      steps.push(...stepTasks(env, train.seed, step, train.tasksPerStep, heldOut));
  }
  const tasks = [...demonstrations, ...steps];
  return { tasks: tasks.length, structures: new Set(tasks.map((task) => env.tasks.structureKey(task))) };
}

/** Per env of the study, its held-out tasks' structures and what each seed's training saw of them. */
export function heldOutFacts(config: Readonly<StudyConfig>, out: string): HeldOutFacts[] {
  return config.envs.map((entry) => {
    const env = createEnv(entry.env, entry.envOptions);
    const set = heldOutSet(config, entry);
    const heldOut = resolveTasks(env, { tasks: set.tasks, seed: set.seed, distinct: set.by });
    const keys = heldOut.map((task) => ({ id: env.tasks.id(task), structure: env.tasks.structureKey(task) }));
    return {
      env: entry.env,
      by: entry.heldOut,
      structure: env.tasks.structure,
      distinctStructures: env.tasks.distinctStructures?.() ?? null,
      tasks: heldOut.length,
      heldOutStructures: new Set(keys.map((key) => key.structure)).size,
      seeds: config.seeds.map((seed) => {
        const training = trainingStructures(config, out, seed, entry);
        return {
          seed,
          trainingTasks: training.tasks,
          trainingStructures: training.structures.size,
          seenIds: keys.filter((key) => training.structures.has(key.structure)).map((key) => key.id),
        };
      }),
    };
  });
}
