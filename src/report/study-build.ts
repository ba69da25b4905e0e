// Building the study report from runs in a store: select runs and models (study-runs.ts), load their rows
// (study-data.ts), compute every table and analysis with seeded bootstrap intervals over tasks, read the
// training folders, check the findings. The result is plain data (study-model.ts); nothing here renders.
import { deriveSeed } from "../core/rng.js";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES } from "../metrics/bootstrap.js";
import { budgetTable } from "../metrics/budget-table.js";
import { orderBudgets } from "../metrics/budget-axis.js";
import { horizon, horizonBinning } from "../metrics/horizon.js";
import { invalidReplies } from "../metrics/invalid-replies.js";
import { seedPointsOf, seedSpreads } from "./seed-spread.js";
import { envHasNoOracle, noOracleNote } from "./no-oracle.js";
import type { HorizonBinning } from "../metrics/horizon-bins.js";
import { naturalRecovery, type RecoveryCells } from "../metrics/natural-recovery.js";
import { passAtKT, type PassAtKTTable } from "../metrics/pass-at-kt.js";
import { stepQuality } from "../metrics/step-quality.js";
import type { Estimate, IntervalOptions } from "../metrics/task-mean.js";
import type { HorizonBin } from "../metrics/horizon.js";
import { codeVersion } from "../eval/code-version.js";
import { policySpecKindName } from "../core/policy-spec.js";
import { policyKinds } from "../policies/spec.js";
import { budgetsToRun } from "../eval/config.js";
import { exampleEpisode } from "../store/analysis-rows.js";
import type { Store } from "../store/store.js";
import { listRuns } from "../store/runs.js";
import { baseCompetenceNotes } from "./base-competence.js";
import { analysisPlanHash, defaultAnalysisPlan } from "./analysis-plan.js";
import { findingInputs, planEnvs } from "./finding-inputs.js";
import { heldOutSplit, type HeldOutFacts } from "./held-out-split.js";
import { studyFindings } from "./findings.js";
import {
  loadStudyData,
  mergeStudyData,
  taskNumbering,
  type AnalysisCellData,
  type PassCellData,
  type StudyData,
  type TaskNumbering,
} from "./study-data.js";
import {
  EXAMPLE_REPLY_CHARS,
  MODEL_ROLES,
  ROLE_NAMES,
  STUDY_REPORT_VERSION,
  type StudyExample,
  jsonEstimate,
  type JsonEstimate,
  type StudyHorizonBin,
  type StudyInvalidTable,
  type StudyModel,
  type StudyPassTable,
  type StudyRecoveryCells,
  type StudyPlanHeader,
  type StudyReport,
  type StudyRun,
  type StudySetup,
} from "./study-model.js";
import { givenRoles, modelRoles, selectRuns, type SelectedRun, type StudySelection } from "./study-runs.js";
import { readTraining, type TrainingSelection } from "./training-curves.js";

/** The bootstrap's seed when none is given. */
export const DEFAULT_REPORT_SEED = 1;
export const DEFAULT_REPORT_TITLE = "budgetrl study report";

export interface StudyReportOptions {
  readonly selection: StudySelection;
  readonly training?: readonly TrainingSelection[];
  /** Bootstrap resamples for every interval (default 1000). */
  readonly bootstrap?: number;
  /** Seed of every bootstrap (default 1). */
  readonly seed?: number;
  readonly level?: number;
  readonly title?: string;
  readonly now?: () => Date;
  /** A study's seeds, each with its runs (a subset of the selection): the findings replicate over them and the tables
   * pool them; absent: one seed, every run. */
  readonly replicates?: readonly { readonly seed: number; readonly runs: readonly string[] }[];
  /** Runs of the oracle and of a random policy on the same held-out tasks: the ranges of the findings' statistics
   * (absent: every statistic counts as able to move, and the report says the ranges were not measured). */
  readonly references?: { readonly oracle: readonly string[]; readonly random: readonly string[] };
  /** The analysis plan and where it came from (a study's, fixed before its data); absent: the default plan for the
   * runs' envs and roles, made here. */
  readonly plan?: StudyPlanHeader;
  /** A study's facts about each env's held-out tasks and its seeds' training tasks (held-out-split.ts). */
  readonly heldOut?: readonly HeldOutFacts[];
  /** A study's model sources and trainer, for the header. */
  readonly setup?: StudySetup;
}

const estimates = <Cell extends { estimate: Estimate }>(
  cells: readonly Cell[],
): (Omit<Cell, "estimate"> & { estimate: JsonEstimate })[] =>
  cells.map((cell) => ({ ...cell, estimate: jsonEstimate(cell.estimate) }));

/** A stored run's policy, as stored, with what its kind is (its config's decoded spec, not a prefix of the text). */
function policyDescription(run: SelectedRun): string {
  const policy = run.record.policy;
  const kind = policyKinds().find((entry) => entry.kind === policySpecKindName(run.config.policy));
  return kind === undefined ? policy : `${policy} (${kind.description})`;
}

/** The first run of each stored policy, in the runs' order. */
function firstRunPerPolicy(runs: readonly SelectedRun[]): SelectedRun[] {
  const first = new Map<string, SelectedRun>();
  for (const run of runs) if (!first.has(run.record.policy)) first.set(run.record.policy, run);
  return [...first.values()];
}

function modelsOf(
  runs: readonly SelectedRun[],
  selection: StudySelection,
  training: readonly TrainingSelection[],
): StudyModel[] {
  const names = [...new Set(runs.map((run) => run.model))];
  const roles = modelRoles(names, givenRoles(selection));
  const sources = new Map(
    (selection.models ?? []).flatMap((model) =>
      model.source === undefined ? [] : [[model.name, model.source] as const],
    ),
  );
  return names.map((name) => {
    const own = runs.filter((run) => run.model === name);
    const firstRuns = firstRunPerPolicy(own);
    const policies = firstRuns.map((run) => run.record.policy);
    const role = roles.get(name) ?? { role: "other" as const, source: "none" as const };
    const source = sources.get(name) ?? null;
    const roleText = role.role === "other" ? "no role in the findings" : ROLE_NAMES[role.role];
    const what =
      source === null
        ? `policy ${firstRuns.map(policyDescription).join("; ")}`
        : `${source.made}; policy ${policies.join("; ")}`;
    return {
      name,
      role: role.role,
      roleSource: role.source,
      source,
      description: `${roleText}; ${what}`,
      policies,
      runs: own.map((run) => run.record.id),
      training: training.filter((entry) => entry.model === name).map((entry) => entry.name),
    };
  });
}

async function runsOf(store: Store, runs: readonly SelectedRun[]): Promise<StudyRun[]> {
  const summaries = new Map((await listRuns(store)).map((summary) => [summary.id, summary]));
  return runs.map((run) => ({
    id: run.record.id,
    model: run.model,
    env: run.config.env,
    variant: run.variant,
    mode: run.config.budgetMode,
    scope: run.config.budgetScope,
    protocol: run.config.protocol,
    kind: run.kind,
    perturbTurn: run.perturbTurn,
    policy: run.record.policy,
    seed: run.record.seed,
    tasks: run.config.tasks,
    samples: run.config.samples,
    budgets: run.config.budgets.map((spec) => spec.label),
    ks: [...run.config.ks],
    episodes: summaries.get(run.record.id)?.episodes ?? 0,
    status: run.record.status,
    createdAt: run.record.createdAt,
    codeVersion: run.record.codeVersion,
    config: run.record.config,
  }));
}

function computePassTable(cell: PassCellData, options: IntervalOptions): PassAtKTTable {
  return passAtKT(cell.counts, {
    ks: cell.ks,
    budgets: cell.budgets,
    bootstrap: options.bootstrap ?? DEFAULT_RESAMPLES,
    seed: deriveSeed(options.seed ?? 0, "pass", cell.model, cell.variant, cell.mode),
    ...(options.level === undefined ? {} : { level: options.level }),
  });
}

function passTable(cell: PassCellData, table: PassAtKTTable): StudyPassTable {
  return {
    model: cell.model,
    variant: cell.variant,
    env: cell.env,
    mode: cell.mode,
    runs: cell.runs,
    tasks: table.tasks,
    minSamples: table.minSamples,
    ks: table.ks,
    budgets: table.budgets.map((spec) => spec.label),
    cells: table.cells.map((row) => row.map(jsonEstimate)),
    auc: table.auc.map((cell) => (cell === null ? null : jsonEstimate(cell))),
  };
}

/** Invalid-reply rates beside a budget table: its rows (model, mode) and budgets. */
function invalidTable(
  variant: string,
  budgets: readonly string[],
  cells: readonly PassCellData[],
  options: IntervalOptions,
): StudyInvalidTable {
  const rows = cells.map((cell) => {
    const rates = new Map(
      invalidReplies(cell.invalid, {
        ...options,
        seed: deriveSeed(options.seed ?? 0, "invalid", cell.model, cell.variant, cell.mode),
      }).map((rate) => [rate.budget, jsonEstimate(rate.estimate)]),
    );
    return { model: cell.model, mode: cell.mode, rates: budgets.map((budget) => rates.get(budget) ?? null) };
  });
  return { variant, budgets: [...budgets], rows };
}

const recoveryCells = (cells: RecoveryCells): StudyRecoveryCells => ({
  budget: cells.budget,
  clean: jsonEstimate(cells.clean),
  anyError: jsonEstimate(cells.anyError),
  errorRate: jsonEstimate(cells.errorRate),
  byFirstError: estimates(cells.byFirstError),
});
const horizonBin = (bin: HorizonBin): StudyHorizonBin => ({
  label: bin.label,
  low: bin.low,
  high: bin.high,
  estimate: jsonEstimate(bin.estimate),
});

/** One horizon binning per env, over every model and mode: each curve of a chart, and the findings, label a bin the
 * same way. */
function envBinnings(cells: readonly AnalysisCellData[]): ReadonlyMap<string, HorizonBinning> {
  const envs = [...new Set(cells.map((cell) => cell.env))];
  return new Map(
    envs.map((env) => [env, horizonBinning(cells.filter((cell) => cell.env === env).flatMap((cell) => cell.horizon))]),
  );
}

function analyses(
  cells: readonly AnalysisCellData[],
  binnings: ReadonlyMap<string, HorizonBinning>,
  options: IntervalOptions,
): Pick<StudyReport, "stepQuality" | "recovery" | "horizon"> {
  const seeded = (cell: AnalysisCellData, label: string): IntervalOptions => ({
    ...options,
    seed: deriveSeed(options.seed ?? 0, label, cell.model, cell.env, cell.mode),
  });
  const out: {
    stepQuality: StudyReport["stepQuality"][number][];
    recovery: StudyReport["recovery"][number][];
    horizon: StudyReport["horizon"][number][];
  } = { stepQuality: [], recovery: [], horizon: [] };
  for (const cell of cells) {
    const key = { model: cell.model, env: cell.env, mode: cell.mode };
    for (const [source, rows] of [
      ["self", cell.steps],
      ["teacher-forced", cell.teacherSteps],
    ] as const) {
      if (rows.length === 0) continue;
      const quality = stepQuality(rows, seeded(cell, `steps-${source}`));
      out.stepQuality.push({
        ...key,
        source,
        overall: jsonEstimate(quality.overall),
        byTurn: estimates(quality.byTurn),
        byTurnsLeft: estimates(quality.byTurnsLeft),
        byBudget: estimates(quality.byBudget),
        byBudgetAndTurnsLeft: estimates(quality.byBudgetAndTurnsLeft),
      });
    }
    if (cell.firstErrors.length > 0) {
      const recovery = naturalRecovery(cell.firstErrors, seeded(cell, "recovery"));
      out.recovery.push({
        ...key,
        perBudget: recovery.perBudget.map(recoveryCells),
        pooled: recoveryCells(recovery.pooled),
      });
    }
    const result = horizon(cell.horizon, { ...seeded(cell, "horizon"), binning: binnings.get(cell.env) });
    if (result.byRatio.length > 0)
      out.horizon.push({
        ...key,
        byLength: result.byLength.map((curve) => ({ budget: curve.budget, bins: curve.bins.map(horizonBin) })),
        byRatio: result.byRatio.map(horizonBin),
        unknown: result.unknown,
      });
  }
  return out;
}

async function examplesOf(
  store: Store,
  runs: readonly SelectedRun[],
  models: readonly StudyModel[],
): Promise<StudyExample[]> {
  const examples: StudyExample[] = [];
  for (const model of models) {
    const own = runs.filter((run) => run.model === model.name && run.kind === "policy");
    const run = own.find((candidate) => candidate.config.budgetMode === "announced") ?? own[0];
    if (run === undefined) continue;
    const tightest = orderBudgets(budgetsToRun(run.config))[0]?.label;
    if (tightest === undefined) continue;
    const episode =
      (await exampleEpisode(store, run.record.id, tightest, false)) ??
      (await exampleEpisode(store, run.record.id, tightest, true));
    if (episode === null) continue;
    const { taskIndex: _taskIndex, ...shown } = episode;
    examples.push({
      model: model.name,
      run: run.record.id,
      variant: run.variant,
      ...shown,
      turns: episode.turns.map((turn) => ({
        ...turn,
        reply: turn.reply.length > EXAMPLE_REPLY_CHARS ? `${turn.reply.slice(0, EXAMPLE_REPLY_CHARS)}...` : turn.reply,
      })),
    });
  }
  return examples;
}

/** One note per (tasks listed, distinct) count: a study's runs share their task list, so they would repeat it. */
export function repeatedTaskNotes(entries: StudyData["repeatedTasks"]): string[] {
  const groups = new Map<string, { tasks: number; distinct: number; runs: string[] }>();
  for (const entry of entries) {
    const key = `${entry.tasks}/${entry.distinct}`;
    const group = groups.get(key) ?? { tasks: entry.tasks, distinct: entry.distinct, runs: [] };
    group.runs.push(entry.run);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ tasks, distinct, runs }) => {
    const which =
      runs.length === 1
        ? `run ${runs[0]} lists`
        : `${runs.length} runs (${runs.slice(0, 3).join(", ")}${runs.length > 3 ? ", ..." : ""}) list`;
    return `${which} ${tasks} tasks but only ${distinct} distinct ${distinct === 1 ? "one" : "ones"}; repeated tasks played identical episodes (same seeds) and count once`;
  });
}

function notesOf(runs: readonly StudyRun[], models: readonly StudyModel[], data: StudyData): string[] {
  const notes: string[] = [];
  for (const run of runs)
    if (run.status !== "complete")
      notes.push(
        `run ${run.id} is not complete (${run.episodes} episodes stored): its numbers may change when it is resumed`,
      );
  // A role given as "other" (reproduce's GRPO-Full@25%) was chosen: only models left without one get the hint.
  const named = models
    .filter((model) => model.role === "other" && model.roleSource === "given")
    .map((model) => model.name);
  const roleless = models
    .filter((model) => model.role === "other" && model.roleSource !== "given")
    .map((model) => model.name);
  if (named.length > 0) notes.push(`models with role "other" take part in no finding: ${named.join(", ")}`);
  if (roleless.length > 0)
    notes.push(
      `models without a role take part in no finding: ${roleless.join(", ")} (give one with --role NAME=${MODEL_ROLES.filter((role) => role !== "other").join("|")})`,
    );
  notes.push(...repeatedTaskNotes(data.repeatedTasks));
  for (const perturbation of data.perturbations)
    if (perturbation.problem !== null) notes.push(`perturbed run ${perturbation.run}: ${perturbation.problem}`);
  // An OpenEnv server's env has no oracle: the analyses that judge a move against one have nothing to judge with.
  for (const variant of new Set(runs.filter((run) => envHasNoOracle(run.env)).map((run) => run.variant)))
    notes.push(noOracleNote(variant));
  if (!runs.some((run) => run.kind === "teacher-forced"))
    notes.push("no teacher-forced runs: step quality is measured on the states each policy reached itself");
  if (!runs.some((run) => run.kind === "perturbed"))
    notes.push("no perturbed runs: error recovery is measured on natural errors only");
  return notes;
}

/** The default plan for a report over runs: every claim on every env whose models have its roles. */
function defaultPlanHeader(data: StudyData, models: readonly StudyModel[], seeds: readonly number[]): StudyPlanHeader {
  const plan = defaultAnalysisPlan(planEnvs(data, models), seeds, { everyClaim: true });
  return {
    plan,
    hash: analysisPlanHash(plan),
    fixedAt: null,
    changedAfterResults: null,
    source: "the default plan for these runs' envs and roles (a report over runs: no plan was fixed before them)",
  };
}

/** Each replicate's (seed's) data, loaded from its own runs with the one task numbering. */
async function replicateData(
  store: Store,
  selected: readonly SelectedRun[],
  replicates: readonly { readonly seed: number; readonly runs: readonly string[] }[],
  interval: IntervalOptions,
  numbering: TaskNumbering,
): Promise<{ seed: number; data: StudyData }[]> {
  const seeds: { seed: number; data: StudyData }[] = [];
  for (const replicate of replicates) {
    const own = new Set(replicate.runs);
    seeds.push({
      seed: replicate.seed,
      data: await loadStudyData(
        store,
        selected.filter((run) => own.has(run.record.id)),
        interval,
        numbering,
      ),
    });
  }
  return seeds;
}

/** Per variant, the budget table: Pass@1 and Pass@K of every model and mode at every budget. */
function budgetTablesOf(
  data: StudyData,
  computed: readonly { readonly cell: StudyData["passCells"][number]; readonly table: PassAtKTTable }[],
  seeds: readonly { readonly seed: number; readonly data: StudyData }[],
): StudyReport["budgetTables"] {
  return [...new Set(data.passCells.map((cell) => cell.variant))].map((variant) => {
    const entries = computed
      .filter(({ cell }) => cell.variant === variant)
      .map(({ cell, table }) => ({ model: cell.model, mode: cell.mode, table }));
    const table = budgetTable(entries);
    const budgets = table.budgets.map((spec) => spec.label);
    const rows = table.rows.map((row) => ({ model: row.model, mode: row.mode }));
    const points = seedPointsOf({ variant, budgets, rows }, seeds);
    return {
      variant,
      budgets,
      k: table.k,
      rows: table.rows.map((row, i) => ({
        model: row.model,
        mode: row.mode,
        pass1: row.pass1.map((cell) => (cell === null ? null : jsonEstimate(cell))),
        passK: row.passK.map((cell) => (cell === null ? null : jsonEstimate(cell))),
        seeds: points[i]!,
      })),
    };
  });
}

/** A held-out task's number from its env and id (the numbering every load shared). */
function taskNumbers(data: StudyData, numbering: TaskNumbering): (env: string, id: string) => number | undefined {
  const numbers = new Map<string, number>();
  for (const cell of data.passCells)
    for (const run of cell.runs) {
      const ids = data.taskIds.get(run) ?? [];
      numbering(cell.variant, ids).forEach((task, index) => {
        if (task >= 0) numbers.set(`${cell.env}\u0000${ids[index]}`, task);
      });
    }
  return (env, id) => numbers.get(`${env}\u0000${id}`);
}

function perturbationOf(data: StudyData): StudyReport["perturbation"] {
  return data.perturbations.map((entry) => ({
    model: entry.model,
    env: entry.env,
    mode: entry.mode,
    run: entry.run,
    perturbTurn: entry.perturbTurn,
    cells: entry.result.cells.map((cell) => ({
      budget: cell.budget,
      recovery: jsonEstimate(cell.recovery),
      episodes: cell.episodes,
    })),
    excluded: entry.result.excluded,
    problem: entry.problem,
  }));
}

export async function buildStudyReport(store: Store, options: StudyReportOptions): Promise<StudyReport> {
  const interval: IntervalOptions & { readonly bootstrap: number; readonly seed: number } = {
    bootstrap: options.bootstrap ?? DEFAULT_RESAMPLES,
    seed: options.seed ?? DEFAULT_REPORT_SEED,
    ...(options.level === undefined ? {} : { level: options.level }),
  };
  const training = options.training ?? [];
  const selected = await selectRuns(store, options.selection);
  const models = modelsOf(selected, options.selection, training);
  const runs = await runsOf(store, selected);
  const numbering = taskNumbering();
  const replicates = options.replicates ?? [
    { seed: selected[0]?.record.seed ?? 1, runs: selected.map((run) => run.record.id) },
  ];
  const seeds = await replicateData(store, selected, replicates, interval, numbering);
  const data =
    seeds.length === 1 ? (seeds[0] as { data: StudyData }).data : mergeStudyData(seeds.map((entry) => entry.data));
  const references =
    options.references === undefined
      ? null
      : await loadStudyData(
          store,
          await selectRuns(store, {
            models: [
              { name: "oracle", runs: options.references.oracle },
              { name: "random", runs: options.references.random },
            ],
          }),
          interval,
          numbering,
        );
  const computed = data.passCells.map((cell) => ({ cell, table: computePassTable(cell, interval) }));
  const passTables = computed.map(({ cell, table }) => passTable(cell, table));
  const budgetTables = budgetTablesOf(data, computed, seeds);
  const invalid = budgetTables.map((table) =>
    invalidTable(
      table.variant,
      table.budgets,
      data.passCells.filter((cell) => cell.variant === table.variant),
      interval,
    ),
  );
  const binnings = envBinnings([...data.analysisCells, ...(references?.analysisCells ?? [])]);
  const analysed = analyses(data.analysisCells, binnings, interval);
  const studyTasks = selected.map((run) => ({
    run: run.record.id,
    variant: run.variant,
    taskIds: data.taskIds.get(run.record.id) ?? [],
  }));
  const plan =
    options.plan ??
    defaultPlanHeader(
      data,
      models,
      seeds.map((entry) => entry.seed),
    );
  const numberOf = taskNumbers(data, numbering);
  const tested = studyFindings(findingInputs({ models, pooled: data, seeds, references, binnings }), {
    plan: plan.plan,
  });
  return {
    version: STUDY_REPORT_VERSION,
    title: options.title ?? DEFAULT_REPORT_TITLE,
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    store: store.location,
    codeVersion: codeVersion(),
    settings: { bootstrap: interval.bootstrap, seed: interval.seed, level: interval.level ?? DEFAULT_LEVEL },
    setup: options.setup ?? null,
    models,
    runs,
    passTables,
    budgetTables,
    invalidReplies: invalid,
    seedSpread: seedSpreads(budgetTables, 2 * plan.plan.smallestEffect.value),
    ...analysed,
    perturbation: perturbationOf(data),
    training: await Promise.all(training.map((entry) => readTraining(entry, studyTasks, interval))),
    examples: await examplesOf(store, selected, models),
    plan,
    seeds: seeds.map((entry) => entry.seed),
    heldOut: (options.heldOut ?? []).map((facts) => heldOutSplit(facts, seeds, numberOf, interval)),
    ranges: tested.ranges,
    findings: tested.findings,
    notes: [
      ...notesOf(runs, models, data),
      ...baseCompetenceNotes(models, analysed.stepQuality),
      ...(references === null
        ? [
            "the statistics' ranges were not measured (no oracle and random-policy runs): every statistic enters the verdicts",
          ]
        : []),
    ],
  };
}
