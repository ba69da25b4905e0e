// Loading a study's rows from the store: outcome counts per (model, env variant, budget mode) for the Pass@(K,T)
// tables and invalid-reply counts beside them, analysis rows per (model, env, mode), and the episodes of recover:J
// runs streamed into their analysis. Tasks are renumbered across runs by (variant, task id, occurrence), so two
// models evaluated on the same tasks share task numbers (the paired comparisons pair on them) and runs of one model
// pool their episodes per task. Every row carries its run's BudgetSpec (the run's config, decoded once when the run
// was selected, names the budgets its episodes are stored under).
import { resolveTurns, UNKNOWN_BASIS, type BudgetSpec } from "../core/budget.js";
import type { FirstErrorCounts, HorizonCounts, InvalidCounts, StepCounts } from "../core/analysis-rows.js";
import type { OutcomeCounts } from "../core/outcome.js";
import { storedRunOutcomes } from "../eval/table.js";
import { countsWithinBudgets } from "../metrics/pass-at-kt.js";
import { recoveryTally, type PerturbationRecovery } from "../metrics/perturbation-recovery.js";
import type { IntervalOptions } from "../metrics/task-mean.js";
import {
  firstErrorCounts,
  horizonCounts,
  invalidCounts,
  recoveryRows,
  stepCounts,
  taskIdsOf,
} from "../store/analysis-rows.js";
import type { Store } from "../store/store.js";
import type { PerturbationRunKey } from "./study-model.js";
import type { SelectedRun } from "./study-runs.js";

export interface PassCellData {
  readonly model: string;
  readonly variant: string;
  readonly env: string;
  readonly mode: string;
  readonly runs: string[];
  readonly counts: OutcomeCounts[];
  readonly budgets: BudgetSpec[];
  readonly ks: number[];
  /** The policy's own turns and its invalid replies, per task and budget. */
  readonly invalid: InvalidCounts[];
}

export interface AnalysisCellData {
  readonly model: string;
  readonly env: string;
  readonly mode: string;
  readonly steps: StepCounts[];
  readonly teacherSteps: StepCounts[];
  readonly firstErrors: FirstErrorCounts[];
  readonly horizon: HorizonCounts[];
}

export interface PerturbationData extends PerturbationRunKey {
  readonly result: PerturbationRecovery;
  /** Task -> success after the forced error, over every budget or at one (what models are compared on). */
  perTask(budget?: string): ReadonlyMap<number, number>;
  readonly problem: string | null;
}

export interface StudyData {
  readonly passCells: readonly PassCellData[];
  readonly analysisCells: readonly AnalysisCellData[];
  readonly perturbations: readonly PerturbationData[];
  /** Task ids of each run, by task index. */
  readonly taskIds: ReadonlyMap<string, readonly string[]>;
  /** Runs that list a task more than once, with their number of distinct tasks. */
  readonly repeatedTasks: readonly { readonly run: string; readonly tasks: number; readonly distinct: number }[];
}

/** Numbers tasks by (variant, task id) across every load that shares it (the seeds of a study, its references). */
export type TaskNumbering = (variant: string, ids: readonly string[]) => number[];

/**
 * Global task numbers from (variant, task id). A run that lists one task several times (hanoi without random
 * starts: every task is the same) played identical episodes for each copy (episode seeds derive from the task
 * id), so only the first copy counts: the others get -1 and their rows are dropped.
 */
export function taskNumbering(): TaskNumbering {
  const numbers = new Map<string, number>();
  return (variant, ids) => {
    const seen = new Set<string>();
    return ids.map((id) => {
      if (seen.has(id)) return -1;
      seen.add(id);
      const key = `${variant}\u0000${id}`;
      let number = numbers.get(key);
      if (number === undefined) numbers.set(key, (number = numbers.size));
      return number;
    });
  };
}

/** Outcome counts of a run under either protocol (protocol "single": success within each T from one run). */
async function runCounts(store: Store, run: SelectedRun): Promise<OutcomeCounts[]> {
  const outcomes = await storedRunOutcomes(store, run.record.id, run.config);
  if (run.config.protocol === "separate") return [...outcomes.counts];
  return countsWithinBudgets(outcomes.firstSuccesses, run.config.budgets, (taskIndex, spec) =>
    resolveTurns(spec, outcomes.bases.get(taskIndex) ?? UNKNOWN_BASIS),
  );
}

function cellIn<Cell>(cells: Map<string, Cell>, key: string, make: () => Cell): Cell {
  let cell = cells.get(key);
  if (cell === undefined) cells.set(key, (cell = make()));
  return cell;
}

/** Rows with their tasks' global numbers; rows of repeated tasks are dropped. */
const renumber = <Row extends { taskIndex: number }>(rows: readonly Row[], numbers: readonly number[]): Row[] =>
  rows.flatMap((row) => {
    const task = numbers[row.taskIndex] ?? -1;
    return task < 0 ? [] : [{ ...row, taskIndex: task }];
  });

export async function loadStudyData(
  store: Store,
  runs: readonly SelectedRun[],
  options: IntervalOptions,
  number: TaskNumbering = taskNumbering(),
): Promise<StudyData> {
  const taskIds = new Map<string, readonly string[]>();
  const numbers = new Map<string, number[]>();
  for (const run of runs) {
    const ids = await taskIdsOf(store, run.record.id);
    taskIds.set(run.record.id, ids);
    numbers.set(run.record.id, number(run.variant, ids));
  }
  const passCells = new Map<string, PassCellData>();
  const analysisCells = new Map<string, AnalysisCellData>();
  const perturbations: PerturbationData[] = [];
  for (const run of runs) {
    const id = run.record.id;
    const mode = run.config.budgetMode;
    const runNumbers = numbers.get(id)!;
    const analysis = cellIn(analysisCells, `${run.model}\u0000${run.config.env}\u0000${mode}`, () => ({
      model: run.model,
      env: run.config.env,
      mode,
      steps: [],
      teacherSteps: [],
      firstErrors: [],
      horizon: [],
    }));
    if (run.kind === "teacher-forced") {
      analysis.teacherSteps.push(...renumber(await stepCounts(store, id, run.config.budgets), runNumbers));
      continue;
    }
    if (run.kind === "perturbed") {
      perturbations.push(await loadPerturbation(store, run, runNumbers, options));
      continue;
    }
    const pass = cellIn(passCells, `${run.model}\u0000${run.variant}\u0000${mode}`, () => ({
      model: run.model,
      variant: run.variant,
      env: run.config.env,
      mode,
      runs: [],
      counts: [],
      budgets: [],
      ks: [],
      invalid: [],
    }));
    pass.runs.push(id);
    pass.counts.push(...renumber(await runCounts(store, run), runNumbers));
    pass.invalid.push(...renumber(await invalidCounts(store, id, run.config.budgets), runNumbers));
    for (const spec of run.config.budgets)
      if (!pass.budgets.some((known) => known.label === spec.label)) pass.budgets.push(spec);
    for (const k of run.config.ks) if (!pass.ks.includes(k)) pass.ks.push(k);
    pass.ks.sort((a, b) => a - b);
    analysis.steps.push(...renumber(await stepCounts(store, id, run.config.budgets), runNumbers));
    analysis.firstErrors.push(...renumber(await firstErrorCounts(store, id, run.config.budgets), runNumbers));
    analysis.horizon.push(...renumber(await horizonCounts(store, id, run.config.budgets), runNumbers));
  }
  const repeatedTasks = [...taskIds]
    .map(([run, ids]) => ({ run, tasks: ids.length, distinct: new Set(ids).size }))
    .filter((entry) => entry.distinct < entry.tasks);
  return {
    passCells: [...passCells.values()],
    analysisCells: [...analysisCells.values()],
    perturbations,
    taskIds,
    repeatedTasks,
  };
}

/** Several loads as one (a study's seeds pooled, for its tables): cells of the same model, env variant and mode
 * hold every load's rows (a task's episodes of every seed), the rest is listed together. The loads must share
 * their task numbering. */
export function mergeStudyData(parts: readonly StudyData[]): StudyData {
  const passCells = new Map<string, PassCellData>();
  const analysisCells = new Map<string, AnalysisCellData>();
  for (const part of parts) {
    for (const cell of part.passCells) {
      const merged = cellIn(passCells, `${cell.model}\u0000${cell.variant}\u0000${cell.mode}`, () => ({
        ...cell,
        runs: [],
        counts: [],
        budgets: [],
        ks: [],
        invalid: [],
      }));
      merged.runs.push(...cell.runs);
      merged.counts.push(...cell.counts);
      merged.invalid.push(...cell.invalid);
      for (const spec of cell.budgets)
        if (!merged.budgets.some((known) => known.label === spec.label)) merged.budgets.push(spec);
      for (const k of cell.ks) if (!merged.ks.includes(k)) merged.ks.push(k);
      merged.ks.sort((a, b) => a - b);
    }
    for (const cell of part.analysisCells) {
      const merged = cellIn(analysisCells, `${cell.model}\u0000${cell.env}\u0000${cell.mode}`, () => ({
        ...cell,
        steps: [],
        teacherSteps: [],
        firstErrors: [],
        horizon: [],
      }));
      merged.steps.push(...cell.steps);
      merged.teacherSteps.push(...cell.teacherSteps);
      merged.firstErrors.push(...cell.firstErrors);
      merged.horizon.push(...cell.horizon);
    }
  }
  return {
    passCells: [...passCells.values()],
    analysisCells: [...analysisCells.values()],
    perturbations: parts.flatMap((part) => part.perturbations),
    taskIds: new Map(parts.flatMap((part) => [...part.taskIds])),
    repeatedTasks: parts.flatMap((part) => part.repeatedTasks),
  };
}

/** A recover:J run's episodes, numbered like every other run's tasks, into their analysis. */
async function loadPerturbation(
  store: Store,
  run: SelectedRun,
  runNumbers: readonly number[],
  options: IntervalOptions,
): Promise<PerturbationData> {
  const perturbTurn = run.perturbTurn as number;
  const tally = recoveryTally();
  for await (const row of recoveryRows(store, run.record.id, run.config.budgets, perturbTurn)) {
    const task = runNumbers[row.outcome.taskIndex] ?? -1;
    if (task >= 0) tally.add({ perturbTurn, outcome: { ...row.outcome, taskIndex: task }, forced: row.forced });
  }
  const result = tally.result(options);
  const used = result.cells.reduce((sum, cell) => sum + (cell.budget === "pooled" ? cell.episodes : 0), 0);
  return {
    model: run.model,
    env: run.config.env,
    mode: run.config.budgetMode,
    run: run.record.id,
    perturbTurn,
    result,
    perTask: (budget) => tally.perTask(budget),
    problem: used === 0 ? "no usable episode (see the excluded counts)" : null,
  };
}
