// How a study's held-out tasks differ from its training tasks, with the numbers: per env, whether they are new in
// structure (no demonstration or RL task of any seed shares a held-out task's structure) or only in content, and
// then, per seed, how many held-out tasks share their structure with a training task of that seed; and for content
// hold-outs, each model's Pass@1 (announced) at each budget on the seen and the unseen held-out tasks, every seed
// pooled (intervals over seeds and tasks: metrics/crossed-mean.ts), each seed split by its own training tasks.
// The facts (which held-out tasks a seed's training saw) come from the study, which knows its training draws.
import { crossedMeans, type SeedValues } from "../metrics/crossed-mean.js";
import { perTaskPassAtK } from "../metrics/per-task-pass.js";
import type { IntervalOptions } from "../metrics/task-mean.js";
import type { StudyData } from "./study-data.js";
import { jsonEstimate, type StudyHeldOut } from "./study-model.js";

/** What a study knows of an env's held-out tasks and its seeds' training tasks: the report's StudyHeldOut before its
 * statement and split, with the ids of the held-out tasks each seed's training saw. */
export interface HeldOutFacts extends Omit<StudyHeldOut, "seeds" | "statement" | "split"> {
  readonly seeds: readonly (Omit<StudyHeldOut["seeds"][number], "seen"> & {
    /** Ids of the held-out tasks whose structure a training task of this seed has. */
    readonly seenIds: readonly string[];
  })[];
}

function statement(facts: HeldOutFacts): string {
  const of = facts.distinctStructures === null ? "" : ` of the ${facts.distinctStructures} the env has`;
  if (facts.by === "structure") {
    const leaks = facts.seeds.filter((seed) => seed.seenIds.length > 0);
    const none =
      leaks.length === 0
        ? `none of the ${facts.tasks} held-out tasks shares its structure with a demonstration or RL task of any seed`
        : `held out by structure, yet ${leaks.map((seed) => `${seed.seenIds.length} in seed ${seed.seed}`).join(", ")} share their structure with a training task`;
    return `${facts.env}: new in structure: ${none}; they are ${facts.heldOutStructures} distinct structures${of} (structure: ${facts.structure}).`;
  }
  const seen = facts.seeds.map((seed) => `${seed.seenIds.length} in seed ${seed.seed}`).join(", ");
  return `${facts.env}: new in content only (its structures are too few to hold whole ones out and still train on every kind of task; structure: ${facts.structure}); of the ${facts.tasks} held-out tasks (${facts.heldOutStructures} distinct structures${of}), ${seen} share their structure with a training task of that seed: results are split below by seen and unseen structure.`;
}

/** The held-out statement of one env, with the seen/unseen split of every model it has (content hold-outs). */
export function heldOutSplit(
  facts: HeldOutFacts,
  seeds: readonly { readonly seed: number; readonly data: StudyData }[],
  numberOf: (env: string, id: string) => number | undefined,
  options: IntervalOptions,
): StudyHeldOut {
  const base = {
    env: facts.env,
    by: facts.by,
    structure: facts.structure,
    distinctStructures: facts.distinctStructures,
    tasks: facts.tasks,
    heldOutStructures: facts.heldOutStructures,
    seeds: facts.seeds.map(({ seed, trainingTasks, trainingStructures, seenIds }) => ({
      seed,
      trainingTasks,
      trainingStructures,
      seen: seenIds.length,
    })),
    statement: statement(facts),
  };
  if (facts.by === "structure") return { ...base, split: [] };
  const seenBySeed = new Map(
    facts.seeds.map((entry) => [
      entry.seed,
      new Set(entry.seenIds.map((id) => numberOf(facts.env, id)).filter((task) => task !== undefined)),
    ]),
  );
  const cells = seeds.flatMap(({ data }) =>
    data.passCells.filter((cell) => cell.env === facts.env && cell.mode === "announced"),
  );
  const models = [...new Set(cells.map((cell) => cell.model))];
  const budgets = [...new Set(cells.flatMap((cell) => cell.budgets.map((spec) => spec.label)))];
  const split = models.flatMap((model) =>
    budgets.map((budget) => {
      const parts = (seen: boolean): SeedValues[] =>
        seeds.map(({ seed, data }) => {
          const perTask = perTaskPassAtK(
            data.passCells
              .filter((cell) => cell.env === facts.env && cell.mode === "announced" && cell.model === model)
              .flatMap((cell) => cell.counts),
            1,
            budget,
          );
          const seenTasks = seenBySeed.get(seed) ?? new Set<number>();
          return {
            stratum: facts.env,
            seed,
            values: new Map(
              [...perTask].filter(([task]) => seenTasks.has(task) === seen).map(([task, value]) => [task, [value]]),
            ),
          };
        });
      const estimate = (seen: boolean) => jsonEstimate(crossedMeans(parts(seen), 1, options)[0]!);
      return { model, budget, seen: estimate(true), unseen: estimate(false) };
    }),
  );
  return { ...base, split };
}
