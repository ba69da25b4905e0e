// The paper's findings, and the hidden-budget question beyond it, tested as the analysis plan says (analysis-plan.ts):
// each claim's test (claims/) reads its measures (finding-measures.ts) for the models with the plan's two roles, a - b,
// paired over the same distinct tasks and seeds. Every claim is read over every scope: each env of the claim and all
// of them pooled (each env weighing the same), in each seed and over all seeds (intervals resample seeds, then tasks).
// The claim's verdict is the one the plan decides by (pooled over seeds and envs; or one per env, then the same
// verdict everywhere or inconclusive); the others are shown beside it: the single seeds' verdicts (does the verdict
// hold in every seed, or is it seed-dependent?) and a sensitivity table, the verdict re-read under the reasonable
// alternatives to the plan (each env alone, other budgets, no margin, half and twice the margin), all on the same
// resamples, so a reader sees whether a verdict is fragile. A statistic that cannot move on an env (the oracle and a
// random policy differ by less than the plan's minimum range) is left out there, with a note.
import { isBudgetReading, type AnalysisPlan, type ClaimPlan } from "./analysis-plan.js";
import { claimTest, pointsText, type PlannedMeasure } from "./claims/index.js";
import { detectableEffect, nonInferiority, outcomeOf } from "./effect-outcome.js";
import {
  estimateMeasure,
  NAMES,
  statisticKey,
  statisticRange,
  statisticsOf,
  type MeasureContext,
  type MeasureResult,
  type Statistic,
  type StatisticRange,
  type StatisticValues,
} from "./finding-measures.js";
import {
  jsonEstimate,
  type JsonEstimate,
  type ModelRole,
  type StudyComparison,
  type StudyFinding,
  type StudyFindingScope,
  type StudyRange,
  type StudySensitivity,
  type Verdict,
} from "./study-model.js";

/** What the findings read: the models with their roles, the budgets they were run at, and per seed their per-task
 * values; the oracle's and the random policy's values ("oracle", "random") when the study measured its ranges. */
export interface FindingInputs {
  /** roleSource "given": the role came from the caller (--role, or `reproduce`'s own models); when some model has
   * none, the "Needs a model with role" text says how to give the missing roles. */
  readonly models: readonly {
    readonly name: string;
    readonly role: ModelRole;
    readonly roleSource?: "given" | "none";
  }[];
  /** Budget labels a model was run at on an env in a mode, in axis order. */
  budgets(model: string, env: string, mode: string): readonly string[];
  readonly seeds: readonly { readonly seed: number; readonly values: StatisticValues }[];
  readonly references: StatisticValues | null;
  /** The label of an env's longest optimal-length bin ("8-10"), or null when its lengths are unknown. */
  longestTasks(env: string): string | null;
}

export interface FindingOptions {
  readonly plan: AnalysisPlan;
}

export interface FindingsResult {
  readonly findings: StudyFinding[];
  readonly ranges: StudyRange[];
}

const points = (value: number): string => (100 * value).toFixed(1);
const signed = (value: number | null): string =>
  value === null ? "n/a" : `${value >= 0 ? "+" : "-"}${points(Math.abs(value))}`;

/** "+12.0 [+5.0, +19.0] points (200 tasks, 3 seeds)": differences of rates in percentage points. */
export function formatDifference(estimate: JsonEstimate): string {
  if (estimate.value === null) return "no shared tasks";
  const interval = estimate.low === null ? "" : ` [${signed(estimate.low)}, ${signed(estimate.high)}]`;
  const seeds = estimate.seeds === undefined ? "" : `, ${estimate.seeds} seeds`;
  return `${signed(estimate.value)}${interval} points (${estimate.tasks} tasks${seeds})`;
}

function describe(comparison: StudyComparison): string {
  if (comparison.outcome === "cannot move")
    return `${comparison.metric}: cannot move here (left out: ${comparison.leftOut.join(", ")})`;
  const means =
    comparison.meanA.value === null
      ? ""
      : comparison.statistic === "difference of differences"
        ? ` (gains ${signed(comparison.meanA.value)} vs ${signed(comparison.meanB.value)})`
        : ` (${points(comparison.meanA.value)}% vs ${points(comparison.meanB.value ?? NaN)}%)`;
  const reading = comparison.decides ? `, ${comparison.outcome}` : "";
  return `${comparison.metric}: ${formatDifference(comparison.difference)}${means}${reading}`;
}

/** Envs of a scope in words: "vault" or "vault + thinice". */
const envsText = (envs: readonly string[]): string => envs.join(" + ");
/** "seed 3" or "seeds 1, 2, 3". */
export const seedText = (seeds: readonly number[]): string =>
  seeds.length === 1 ? `seed ${seeds[0]}` : `seeds ${seeds.join(", ")}`;

/** A claim's envs that have both models, and the budgets both were run at on every one of them (axis order). */
function claimBudgets(inputs: FindingInputs, plan: ClaimPlan, a: string, b: string, mode: string): string[] {
  const lists = plan.envs.map((env) => {
    const other = new Set(inputs.budgets(b, env, mode));
    return inputs.budgets(a, env, mode).filter((budget) => other.has(budget));
  });
  const first = lists[0] ?? [];
  return first.filter((budget) => lists.every((list) => list.includes(budget)));
}

/** What a claim needs that no model has, in words; null when nothing is missing. */
function missingRoles(inputs: FindingInputs, plan: ClaimPlan): string | null {
  const absent = [plan.a, plan.b].filter((role) => !inputs.models.some((model) => model.role === role));
  if (absent.length === 0) return null;
  const present = inputs.models.map((model) => `${model.name} (${model.role})`).join(", ") || "none";
  const hint = inputs.models.every((model) => model.roleSource === "given")
    ? ""
    : `: give ${absent.length === 1 ? "it" : "them"} with ${absent.map((role) => `--role NAME=${role}`).join(" ")}, NAME one of the models`;
  return `Needs a model with role ${absent.join(" and a model with role ")}${hint}; present: ${present}.`;
}

/** Reads the measures of one claim over scopes, each measure estimated once per (envs, seeds). */
interface ClaimReader {
  /** The deciding measures of a scope on which the two models tie on every task in every seed. */
  tied(measures: readonly PlannedMeasure[], envs: readonly string[]): string[];
  /** The comparisons over some envs and seeds; `seed` labels them (one seed, or null: several pooled). */
  comparisons(
    measures: readonly PlannedMeasure[],
    envs: readonly string[],
    seeds: SeedSelection,
    margin: number,
  ): StudyComparison[];
}

/** The seeds a reading pools, and its label: one seed, or null (several). */
interface SeedSelection {
  readonly seeds: readonly number[];
  readonly seed: number | null;
}

const oneSeed = (seed: number): SeedSelection => ({ seeds: [seed], seed });
const pooledSeeds = (seeds: readonly number[]): SeedSelection => ({ seeds, seed: null });

function claimReader(context: MeasureContext, seeds: readonly number[], a: string, b: string): ClaimReader {
  const cache = new Map<string, MeasureResult>();
  const measured = (planned: PlannedMeasure, envs: readonly string[], scopeSeeds: readonly number[]): MeasureResult => {
    const key = `${planned.measure.name}\u0000${planned.mode}\u0000${envs.join("+")}\u0000${scopeSeeds.join("+")}`;
    let result = cache.get(key);
    if (result === undefined) {
      result = estimateMeasure(context, planned.measure, a, b, { envs, seeds: scopeSeeds });
      cache.set(key, result);
    }
    return result;
  };
  return {
    tied: (measures, envs) =>
      measures
        .filter((planned) => planned.decides && measured(planned, envs, seeds).tied)
        .map((planned) => planned.measure.name),
    comparisons: (measures, envs, selection, margin) =>
      measures.map((planned) => {
        const result = measured(planned, envs, selection.seeds);
        const difference = jsonEstimate(result.difference);
        const outcome =
          result.envs.length === 0
            ? result.leftOut.length > 0
              ? "cannot move"
              : "no data"
            : result.tied
              ? "tied"
              : outcomeOf(difference, margin);
        return {
          key: planned.key,
          metric: planned.measure.name,
          a,
          b,
          scope: envsText(result.envs.length === 0 ? envs : result.envs),
          seed: selection.seed,
          mode: planned.mode,
          meanA: jsonEstimate(result.sideA),
          meanB: jsonEstimate(result.sideB),
          difference,
          outcome,
          nonInferiority: nonInferiority(difference, margin),
          margin,
          detectable: detectableEffect(difference),
          decides: planned.decides,
          statistic: planned.measure.contrasts[0]?.kind ?? "difference",
          leftOut: result.leftOut,
        };
      }),
  };
}

/** The plan's reasonable alternatives for one claim (other budgets, no margin, half and twice the margin). */
function alternatives(plan: ClaimPlan, budgets: readonly string[]): { name: string; plan: ClaimPlan }[] {
  const margins = [
    { name: "no margin (any difference whose interval excludes zero counts)", plan: { ...plan, margin: 0 } },
    { name: `margin ${pointsText(plan.margin / 2)} (half)`, plan: { ...plan, margin: plan.margin / 2 } },
    { name: `margin ${pointsText(plan.margin * 2)} (twice)`, plan: { ...plan, margin: plan.margin * 2 } },
  ];
  const readings = ["pooled", ...budgets];
  switch (plan.id) {
    case "rl-budgets": {
      const pairs = budgets.flatMap((generous, g) =>
        budgets
          .slice(0, g)
          .filter((tight) => generous !== plan.generous || tight !== plan.tight)
          .map((tight) => ({ name: `generous ${generous}, tight ${tight}`, plan: { ...plan, generous, tight } })),
      );
      return [...margins, ...pairs];
    }
    case "recovery-horizon":
      return [
        ...margins,
        ...readings
          .filter((reading) => reading !== plan.concentration)
          .map((reading) => ({
            name: `concentration ${isBudgetReading(reading) ? "pooled over the budgets" : `at ${reading}`}`,
            plan: { ...plan, concentration: reading },
          })),
      ];
    case "process":
      return [
        ...margins,
        ...readings
          .filter((reading) => reading !== plan.stepAndRecovery)
          .map((reading) => ({
            name: `step quality and recovery ${isBudgetReading(reading) ? "pooled over the budgets" : `at ${reading}`}`,
            plan: { ...plan, stepAndRecovery: reading },
          })),
      ];
    default:
      return margins;
  }
}

/** The verdict of a claim read with a plan over some envs and seeds. */
function readClaim(
  reader: ClaimReader,
  plan: ClaimPlan,
  budgets: readonly string[],
  envs: readonly string[],
  seeds: SeedSelection,
): { verdict: Verdict; comparisons: StudyComparison[] } {
  const test = claimTest(plan);
  const comparisons = reader.comparisons(test.measures(plan, budgets), envs, seeds, plan.margin);
  const verdict = test.verdict(plan, new Map(comparisons.map((comparison) => [comparison.key, comparison])));
  return { verdict: verdict === "no data" && everyDecidingTied(comparisons) ? "tied" : verdict, comparisons };
}

/** Whether the comparisons that decide were all there and all tied: the two models gave the same value on every task,
 * which is not the absence of data the claim's test sees (it leaves ties out). */
const everyDecidingTied = (comparisons: readonly StudyComparison[]): boolean => {
  const deciding = comparisons.filter((comparison) => comparison.decides);
  return deciding.length > 0 && deciding.every((comparison) => comparison.outcome === "tied");
};

/** How the single seeds' verdicts relate to the all-seeds ones: "every seed agrees" only where every seed gives, on
 * every env of the claim and pooled, the verdict all the seeds give there; else each seed's verdict where the claim is
 * decided, and the envs where some seed differs. */
function seedAgreement(scopes: readonly StudyFindingScope[], decidedScope: string): string {
  const single = scopes.filter((scope) => scope.seed !== null);
  if (single.length === 0) return "one seed: no replication";
  const overall = new Map(scopes.filter((scope) => scope.seed === null).map((scope) => [scope.scope, scope.verdict]));
  const differing = [...overall.keys()].filter((scope) =>
    single.some((entry) => entry.scope === scope && entry.verdict !== overall.get(scope)),
  );
  const seeds = new Set(single.map((scope) => scope.seed)).size;
  if (differing.length === 0) return `every seed agrees, on each env and pooled (${seeds} of ${seeds})`;
  const name = (scope: string): string => (scope === decidedScope && overall.size > 1 ? "pooled" : scope);
  const listed = differing.map(
    (scope) =>
      `${name(scope)} (all seeds: ${overall.get(scope)}) ${single
        .filter((entry) => entry.scope === scope)
        .map((entry) => `seed ${entry.seed} ${entry.verdict}`)
        .join(", ")}`,
  );
  return `not every seed gives the all-seeds verdict: ${listed.join("; ")}`;
}

/** "GRPO-Full falls below the base at 1.25x" (finding 1's context), from the tight comparison. */
function belowBase(comparisons: readonly StudyComparison[], plan: ClaimPlan): string {
  if (plan.id !== "rl-budgets") return "";
  const tight = comparisons.find((comparison) => comparison.key === "tight");
  if (tight === undefined || tight.difference.value === null) return "";
  if (tight.difference.high !== null && tight.difference.high < 0)
    return ` ${plan.a === "grpo" ? "GRPO-Full" : tight.a} falls below the ${tight.b} at ${plan.tight}.`;
  if (tight.difference.low !== null && tight.difference.low > 0)
    return ` ${tight.a} stays above ${tight.b} at ${plan.tight}.`;
  return ` Whether ${tight.a} falls below ${tight.b} at ${plan.tight} is unclear.`;
}

function rangeNotes(ranges: readonly StatisticRange[], minimum: number): string[] {
  return ranges
    .filter((range) => !range.moves)
    .map(
      (range) =>
        `${NAMES[range.statistic.kind]} at ${range.statistic.budget} cannot move on ${range.env}: the oracle ${points(range.oracle ?? NaN)}%, a random policy ${points(range.random ?? NaN)}% (under the ${pointsText(minimum)} the plan asks); left out there.`,
    );
}

/** A claim with its two models and the budgets both were run at: what every reading of it shares. */
interface ClaimSetting {
  readonly claim: ClaimPlan;
  readonly a: string;
  readonly b: string;
  readonly budgets: readonly string[];
  readonly seeds: readonly number[];
  readonly reader: ClaimReader;
}

/** The envs a claim is read over: each env alone and the envs pooled (one env: itself). */
const envScopesOf = (claim: ClaimPlan): (readonly string[])[] =>
  claim.envs.length > 1 ? [...claim.envs.map((env) => [env]), claim.envs] : [claim.envs];

/** The claim read over each env and the envs pooled, in each seed and over all seeds. */
function readScopes(setting: ClaimSetting): StudyFindingScope[] {
  const { seeds } = setting;
  const selections = seeds.length > 1 ? [...seeds.map(oneSeed), pooledSeeds(seeds)] : [pooledSeeds(seeds)];
  return envScopesOf(setting.claim).flatMap((envs) =>
    selections.map((selection) => readScope(setting, envs, selection)),
  );
}

/** The claim read over some envs and seeds. */
function readScope(setting: ClaimSetting, envs: readonly string[], selection: SeedSelection): StudyFindingScope {
  const { claim, a, b, budgets, reader } = setting;
  const { verdict, comparisons } = readClaim(reader, claim, budgets, envs, selection);
  return {
    scope: envsText(envs),
    seed: selection.seed,
    verdict,
    text: `${envsText(envs)}, ${seedText(selection.seeds)}: ${a} - ${b}, ${comparisons.map(describe).join("; ")}.`,
    comparisons,
  };
}

/** The claim read over each env and the envs pooled, over some seeds (all of them, or one half). */
function readPooledScopes(setting: ClaimSetting, seeds: readonly number[]): StudyFindingScope[] {
  return envScopesOf(setting.claim).map((envs) => readScope(setting, envs, pooledSeeds(seeds)));
}

/** The declared replication: the claim decided over each half of the seeds alone, as the plan decides it. */
function replicationOf(plan: AnalysisPlan, setting: ClaimSetting, verdict: Verdict): StudyFinding["replication"] {
  if (plan.replication === null) return null;
  const halves = plan.replication.halves.map((half) => {
    const seeds = half.filter((seed) => setting.seeds.includes(seed));
    const scopes = seeds.length === 0 ? [] : readPooledScopes(setting, seeds);
    return { seeds, verdict: seeds.length === 0 ? ("no data" as const) : decide(plan, setting.claim, scopes), scopes };
  });
  const replicated = halves.every((half) => half.verdict === verdict);
  const each = halves.map((half) => `${seedText(half.seeds)} ${half.verdict}`).join("; ");
  return {
    halves,
    replicated,
    text: replicated ? `replicated: each half gives ${verdict} (${each})` : `does not replicate: ${each}`,
  };
}

/** The claim's verdict where the plan decides it: pooled over seeds and envs, or one per env (the same, else
 * inconclusive). */
function decide(plan: AnalysisPlan, claim: ClaimPlan, scopes: readonly StudyFindingScope[]): Verdict {
  const pooled = scopes.filter((scope) => scope.seed === null);
  if (plan.decidedBy === "pooled")
    return pooled.find((scope) => scope.scope === envsText(claim.envs))?.verdict ?? "no data";
  const perEnv = pooled.filter((scope) => claim.envs.includes(scope.scope));
  return perEnv.every((scope) => scope.verdict === perEnv[0]?.verdict)
    ? (perEnv[0]?.verdict ?? "no data")
    : "inconclusive";
}

/** The verdict under each reasonable alternative: each env alone, then the plan's others (alternatives()). */
function sensitivityOf(setting: ClaimSetting, scopes: readonly StudyFindingScope[]): StudySensitivity[] {
  const { claim, budgets, reader } = setting;
  const alone = (env: string): Verdict =>
    scopes.find((scope) => scope.seed === null && scope.scope === env)?.verdict ?? "no data";
  return [
    ...(claim.envs.length > 1 ? claim.envs.map((env) => ({ alternative: `${env} only`, verdict: alone(env) })) : []),
    ...alternatives(claim, budgets).map(({ name, plan: alternative }) => ({
      alternative: name,
      verdict: readClaim(reader, alternative, budgets, claim.envs, pooledSeeds(setting.seeds)).verdict,
    })),
  ];
}

/** What the reader should know: statistics that cannot move on an env, deciding measures tied on every task. */
function claimNotes(
  setting: ClaimSetting,
  minimum: number,
  ranges: (env: string, statistic: Statistic) => StatisticRange,
): string[] {
  const { claim, a, b, budgets, reader } = setting;
  const measures = claimTest(claim).measures(claim, budgets);
  const used = new Map<string, StatisticRange>();
  for (const planned of measures)
    for (const contrast of planned.measure.contrasts)
      for (const statistic of statisticsOf(contrast))
        for (const env of claim.envs) used.set(`${env} ${statisticKey(statistic)}`, ranges(env, statistic));
  const tied = reader
    .tied(measures, claim.envs)
    .map(
      (name) =>
        `${name}: ${a} and ${b} give the same value on every task in every seed (both at the floor or the ceiling): it shows nothing either way and is left out of the verdict (the statistic can move on the env; these two models did not).`,
    );
  return [...rangeNotes([...used.values()], minimum), ...tied];
}

function testClaim(
  inputs: FindingInputs,
  plan: AnalysisPlan,
  claim: ClaimPlan,
  context: MeasureContext,
  ranges: (env: string, statistic: Statistic) => StatisticRange,
): StudyFinding {
  const test = claimTest(claim);
  const seeds = inputs.seeds.map((entry) => entry.seed);
  const decidedBy = `${envsText(claim.envs)}, ${seedText(seeds)}`;
  const header = {
    id: claim.id,
    title: test.title,
    claim: test.claim,
    statistic: test.statistic(claim),
    rule: test.rule(claim),
    margin: claim.margin,
    decidedBy,
  };
  const a = inputs.models.find((model) => model.role === claim.a)?.name;
  const b = inputs.models.find((model) => model.role === claim.b)?.name;
  const absent = missingRoles(inputs, claim);
  if (absent !== null || a === undefined || b === undefined)
    return {
      ...header,
      verdict: "no data",
      seedAgreement: "",
      replication: null,
      summary: absent ?? "",
      scopes: [],
      sensitivity: [],
      notes: [],
    };
  const budgets = claimBudgets(inputs, claim, a, b, claim.id === "hidden-budget" ? "hidden" : "announced");
  const setting: ClaimSetting = { claim, a, b, budgets, seeds, reader: claimReader(context, seeds, a, b) };
  const scopes = readScopes(setting);
  const verdict = decide(plan, claim, scopes);
  const sensitivity = sensitivityOf(setting, scopes);
  const agreement = seedAgreement(scopes, envsText(claim.envs));
  const replication = replicationOf(plan, setting, verdict);
  const robust = sensitivity.filter((entry) => entry.verdict === verdict).length;
  const decided = scopes.find((scope) => scope.seed === null && scope.scope === envsText(claim.envs));
  const replicationText = replication === null ? "" : `; ${replication.text}`;
  return {
    ...header,
    verdict,
    seedAgreement: agreement,
    replication,
    summary: `${verdict} over ${decidedBy}${replicationText}; ${agreement}; the same verdict under ${robust} of ${sensitivity.length} alternatives.${belowBase(decided?.comparisons ?? [], claim)}`,
    scopes,
    sensitivity,
    notes: claimNotes(setting, plan.minimumRange.value, ranges),
  };
}

/** Every claim of the plan, and the ranges of the statistics they use. */
export function studyFindings(inputs: FindingInputs, options: FindingOptions): FindingsResult {
  const { plan } = options;
  const rangeCache = new Map<string, StatisticRange>();
  const ranges = (env: string, statistic: Statistic): StatisticRange => {
    const key = `${env} ${statisticKey({ ...statistic, mode: "announced" })}`;
    let range = rangeCache.get(key);
    if (range === undefined) {
      range = statisticRange(inputs.references, env, statistic, plan.minimumRange.value);
      rangeCache.set(key, range);
    }
    return range;
  };
  const context: MeasureContext = {
    seeds: inputs.seeds,
    moves: (env, statistic) => ranges(env, statistic).moves,
    level: plan.level,
  };
  const findings = plan.claims.map((claim) => testClaim(inputs, plan, claim, context, ranges));
  const studyRanges = [...rangeCache.values()]
    .filter((range) => range.oracle !== null || range.random !== null)
    .map((range) => ({
      env: range.env,
      statistic: NAMES[range.statistic.kind],
      budget: range.statistic.budget,
      oracle: range.oracle,
      random: range.random,
      moves: range.moves,
    }));
  return { findings, ranges: orderRanges(studyRanges) };
}

/** Ranges by env, then statistic (a stable sort: the budgets stay in the order the claims read them, axis order). */
function orderRanges(ranges: readonly StudyRange[]): StudyRange[] {
  return [...ranges].sort((x, y) => x.env.localeCompare(y.env) || x.statistic.localeCompare(y.statistic));
}
