// A small but real study store for the report's tests: scripted policies standing in for the paper's models
// (noisier = weaker; each with the role it plays, which a report is given: nothing is read from the names), evaluated with announced and hidden budgets on sokoban, frozenlake and hanoi (two disk
// counts for the horizon dial), every run seeded so that models share tasks and episode seeds.
import { evaluate } from "../../src/eval/evaluate.js";
import type { ModelRole } from "../../src/report/study-model.js";

export interface StudyFixtureOptions {
  readonly db: string;
  readonly tasks?: number;
  readonly samples?: number;
  readonly envs?: readonly FixtureEnv[];
  readonly modes?: readonly ("announced" | "hidden")[];
  /** Default FIXTURE_MODELS. */
  readonly models?: readonly FixtureModel[];
}

export interface FixtureModel {
  readonly name: string;
  /** A policy spec ("noisy-oracle:0.3", "tiny:CHECKPOINT"). */
  readonly policy: string;
  /** The role it stands in for in the findings. */
  readonly role: ModelRole;
}

/** The models: display name -> policy. */
export const FIXTURE_MODELS: readonly FixtureModel[] = [
  { name: "base", policy: "noisy-oracle:0.5", role: "base" },
  { name: "GRPO-Full", policy: "noisy-oracle:0.3", role: "grpo" },
  { name: "turn-level", policy: "noisy-oracle:0.25", role: "process" },
  { name: "BudgetMix", policy: "noisy-oracle:0.15", role: "budgetmix" },
];

/** Model name -> role, what a report over the fixture is given (`--role NAME=ROLE`). */
export const fixtureRoles = (models: readonly FixtureModel[] = FIXTURE_MODELS): Record<string, ModelRole> =>
  Object.fromEntries(models.map((model) => [model.name, model.role]));

export interface FixtureEnv {
  readonly env: string;
  readonly envOptions?: Readonly<Record<string, string | number | boolean>>;
}

export const FIXTURE_ENVS: readonly FixtureEnv[] = [
  { env: "sokoban" },
  { env: "frozenlake" },
  { env: "hanoi", envOptions: { disks: 3, randomStart: true } },
  { env: "hanoi", envOptions: { disks: 4, randomStart: true } },
];

/** Runs "<model>-<env>[-<disks>]-<mode>"; returns model name -> run ids. */
export async function buildStudyFixture(options: StudyFixtureOptions): Promise<Map<string, string[]>> {
  const runs = new Map<string, string[]>();
  for (const model of options.models ?? FIXTURE_MODELS) {
    const ids: string[] = [];
    for (const target of options.envs ?? FIXTURE_ENVS) {
      for (const mode of options.modes ?? ["announced", "hidden"]) {
        const disks = target.envOptions?.["disks"];
        const run = `${model.name}-${target.env}${disks === undefined ? "" : `-${disks}`}-${mode}`;
        await evaluate({
          env: target.env,
          envOptions: target.envOptions ?? {},
          policy: model.policy,
          tasks: options.tasks ?? 12,
          samples: options.samples ?? 4,
          ks: [1, 2, 4, 8].filter((k) => k <= (options.samples ?? 4)),
          budgets: ["25%", "50%", "75%", "100%"],
          budgetMode: mode,
          seed: 7,
          bootstrap: 0,
          db: options.db,
          run,
          concurrency: 4,
          now: () => new Date("2026-01-01T00:00:00Z"),
        });
        ids.push(run);
      }
    }
    runs.set(model.name, ids);
  }
  return runs;
}
