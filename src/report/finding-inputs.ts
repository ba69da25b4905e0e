// The findings' view of a study's rows (study-data.ts): per seed, each model's per-task value of a statistic on an
// env (finding-measures.ts), and the same for the oracle and the random policy that measure the statistics' ranges.
//   pass          Pass@1 at the budget, in the statistic's budget mode (the grid runs)
//   step-quality  the share of turns on the expert's states whose reply is optimal within the turns left
//                 (teacher-forced runs, budget announced), per task the mean over its turns
//   recovery      success after one error forced on the expert's states (recover:J runs), per task the mean over
//                 the forced turns j
//   long-tasks    success of the tasks in the env's longest optimal-length bin (the bin the horizon table shows
//                 last: one binning per env over every model, so every model's longest tasks are the same tasks)
import type { BudgetSpec } from "../core/budget.js";
import { orderBudgets } from "../metrics/budget-axis.js";
import { horizonPerTask } from "../metrics/horizon.js";
import type { HorizonBinning } from "../metrics/horizon-bins.js";
import { perTaskPassAtK } from "../metrics/per-task-pass.js";
import { stepQualityPerTask } from "../metrics/step-quality.js";
import type { FindingInputs } from "./findings.js";
import type { Statistic, StatisticValues } from "./finding-measures.js";
import type { StudyData } from "./study-data.js";
import type { ModelRole } from "./study-model.js";

/** The rows at one budget (by its label). */
const atBudget = <Row extends { readonly budget: BudgetSpec }>(rows: readonly Row[], budget: string): readonly Row[] =>
  rows.filter((row) => row.budget.label === budget);

/** Task -> the mean of its values over the maps that have it (recovery at each forced turn j, weighted alike). */
export function meanPerTask(maps: readonly ReadonlyMap<number, number>[]): Map<number, number> {
  const sums = new Map<number, { sum: number; count: number }>();
  for (const map of maps) {
    for (const [task, value] of map) {
      const entry = sums.get(task) ?? { sum: 0, count: 0 };
      entry.sum += value;
      entry.count += 1;
      sums.set(task, entry);
    }
  }
  return new Map([...sums].map(([task, { sum, count }]) => [task, sum / count]));
}

/** The key of an env's longest optimal-length bin, or undefined when no length is known. */
function longestBin(binnings: ReadonlyMap<string, HorizonBinning>, env: string): number | undefined {
  const keys = [...(binnings.get(env)?.lengths.spans.keys() ?? [])];
  return keys.length === 0 ? undefined : Math.max(...keys);
}

/** Per-task values of the statistics, read from one load of rows. */
export function statisticValues(data: StudyData, binnings: ReadonlyMap<string, HorizonBinning>): StatisticValues {
  const analysis = (model: string, env: string, mode: string) =>
    data.analysisCells.find((cell) => cell.model === model && cell.env === env && cell.mode === mode);
  return (model: string, env: string, statistic: Statistic): ReadonlyMap<number, number> => {
    switch (statistic.kind) {
      case "pass":
        return perTaskPassAtK(
          data.passCells
            .filter((cell) => cell.model === model && cell.env === env && cell.mode === statistic.mode)
            .flatMap((cell) => cell.counts),
          1,
          statistic.budget,
        );
      case "step-quality":
        return stepQualityPerTask(atBudget(analysis(model, env, statistic.mode)?.teacherSteps ?? [], statistic.budget));
      case "recovery":
        return meanPerTask(
          data.perturbations
            .filter((entry) => entry.model === model && entry.env === env && entry.mode === statistic.mode)
            .map((entry) => entry.perTask(statistic.budget)),
        );
      case "long-tasks": {
        const bin = longestBin(binnings, env);
        return bin === undefined
          ? new Map()
          : horizonPerTask(analysis(model, env, statistic.mode)?.horizon ?? [], bin, statistic.budget);
      }
    }
  };
}

export interface FindingSources {
  readonly models: FindingInputs["models"];
  /** Every seed's rows pooled (the budgets each model was run at). */
  readonly pooled: StudyData;
  readonly seeds: readonly { readonly seed: number; readonly data: StudyData }[];
  readonly references: StudyData | null;
  readonly binnings: ReadonlyMap<string, HorizonBinning>;
}

export function findingInputs(sources: FindingSources): FindingInputs {
  return {
    models: sources.models,
    budgets: (model, env, mode) =>
      orderBudgets(
        sources.pooled.passCells
          .filter((cell) => cell.model === model && cell.env === env && cell.mode === mode)
          .flatMap((cell) => cell.budgets),
      ).map((spec) => spec.label),
    seeds: sources.seeds.map(({ seed, data }) => ({ seed, values: statisticValues(data, sources.binnings) })),
    references: sources.references === null ? null : statisticValues(sources.references, sources.binnings),
    longestTasks: (env) => {
      const bin = longestBin(sources.binnings, env);
      return bin === undefined ? null : (sources.binnings.get(env)?.lengths.spans.get(bin)?.label ?? null);
    },
  };
}

/** The envs of a report's runs as the default plan sees them: budgets (announced, axis order) and the roles of the
 * models run there. */
export function planEnvs(
  data: StudyData,
  models: readonly { readonly name: string; readonly role: ModelRole }[],
): { env: string; budgets: string[]; roles: string[] }[] {
  const envs = [...new Set(data.passCells.map((cell) => cell.env))];
  return envs.map((env) => {
    const cells = data.passCells.filter((cell) => cell.env === env);
    const roles = models
      .filter((model) => cells.some((cell) => cell.model === model.name))
      .map((model) => model.role)
      .filter((role) => role !== "other");
    return {
      env,
      budgets: orderBudgets(cells.filter((cell) => cell.mode === "announced").flatMap((cell) => cell.budgets)).map(
        (spec) => spec.label,
      ),
      roles: [...new Set(roles)],
    };
  });
}
