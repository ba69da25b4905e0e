// The paper's four findings, and the hidden-budget question beyond it, checked against whatever runs a study
// holds. Each finding compares models by role (base, grpo = GRPO-Full, process, budgetmix) with the statistic
// that answers it, paired over the same distinct tasks (and seeds): differences (metrics/paired-difference.ts)
// and, for "gains shrink when budgets tighten", a difference of differences (metrics/difference-of-differences.ts).
// A statistic is "higher" or "lower" when its 95% paired bootstrap interval excludes zero, "unclear" when it
// contains it. Verdict rules (per env or env variant, then combined: the same verdict everywhere, else
// inconclusive; scopes without data are left out; `claimScopes` limits a finding to the envs a study built for it):
//   rl-budgets        GRPO-Full - base at the largest budget (G) and at the smallest (T), announced, and the
//                     difference of the two gains, (GRPO - base at G) - (GRPO - base at T), with the relative
//                     gains beside them: supported if the gain at G is higher and the difference of gains is
//                     higher (the gain shrinks when the budget tightens); not supported if the difference of
//                     gains is lower or the gain at G is lower; else inconclusive. Whether GRPO-Full falls below
//                     the base at T (the paper's BFCL Table 1: 2.5 vs 3.0) is stated beside the verdict.
//   recovery-horizon  GRPO-Full - base: step quality (teacher-forced states when both have them, else their
//                     own), recovery (from errors forced on the same expert states when both have such runs, else
//                     after their own first errors), success on the longest tasks: supported if recovery or long
//                     tasks are higher and step quality is not; not supported if step quality is higher.
//   process           process - GRPO-Full (else base): step quality, Pass@1 at the largest and smallest
//                     budgets, recovery: supported if something is higher (a benefit) and the smallest budget or
//                     recovery is not (a limit); not supported if nothing is higher and something is lower, or
//                     everything is higher.
//   budgetmix         BudgetMix - GRPO-Full (else base), Pass@1 at every budget (announced): supported if lower
//                     nowhere and higher at the smallest budget; not supported if lower somewhere.
//   hidden-budget     BudgetMix trained with hidden budgets (role budgetmix-hidden; else the announced BudgetMix)
//                     - GRPO-Full (else base), Pass@1 at every budget with hidden budgets: supported (BudgetMix
//                     helps) if higher somewhere and lower nowhere; not supported if lower somewhere and higher
//                     nowhere.
import { deriveSeed } from "../core/rng.js";
import { differenceOfDifferences } from "../metrics/difference-of-differences.js";
import { differenceDirection, pairedDifference } from "../metrics/paired-difference.js";
import { relativeGain } from "../metrics/relative-gain.js";
import type { IntervalOptions } from "../metrics/task-mean.js";
import {
  jsonEstimate,
  type FindingId,
  type JsonEstimate,
  type ModelRole,
  type StudyComparison,
  type StudyFinding,
  type Verdict,
} from "./study-model.js";

/** Pass@(K,T) data of one env variant ("hanoi disks=4"), or of every variant of an env pooled. */
export type PassScope = { readonly variant: string } | { readonly env: string };

/** What the findings read: per-task values of each model, by env variant or env. */
export interface FindingInputs {
  /** roleSource "given": the role came from the caller (--role, or `reproduce`'s own models); when some model has
   * none, the "Needs a model with role" text says how to give the missing roles. */
  readonly models: readonly {
    readonly name: string;
    readonly role: ModelRole;
    readonly roleSource?: "given" | "none";
  }[];
  /** Env variants with Pass@(K,T) data, with their env. */
  readonly variants: readonly { readonly variant: string; readonly env: string }[];
  readonly envs: readonly string[];
  /** Budget labels of a model's runs in a variant (or env) and mode, in axis order. */
  budgets(model: string, scope: PassScope, mode: string): readonly string[];
  /** Task -> pass@1 at a budget, over a variant or all variants of an env. */
  pass(model: string, scope: PassScope, mode: string, budget: string): ReadonlyMap<number, number>;
  /** Per task, over every budget, or at one `budget` (a label). */
  stepQuality(
    model: string,
    env: string,
    mode: string,
    source: "self" | "teacher-forced",
    budget?: string,
  ): ReadonlyMap<number, number>;
  recovery(model: string, env: string, mode: string, budget?: string): ReadonlyMap<number, number>;
  /** Task -> success after an error forced on the expert's states (recover:J runs; empty without them). */
  forcedRecovery(model: string, env: string, mode: string, budget?: string): ReadonlyMap<number, number>;
  /** The optimal-length bins a model has episodes in, in order: each bin's key (its lower edge, what longTasks
   * takes) and its label in the horizon table (the lengths it holds: "8-10"). */
  lengthBins(model: string, env: string, mode: string, budget?: string): readonly LengthBin[];
  longTasks(model: string, env: string, mode: string, binLow: number, budget?: string): ReadonlyMap<number, number>;
}

export interface LengthBin {
  readonly key: number;
  readonly label: string;
}

type Scope = StudyFinding["scopes"][number];

const points = (value: number): string => (100 * value).toFixed(1);
const signed = (value: number | null, unit = ""): string =>
  value === null ? "n/a" : `${value >= 0 ? "+" : "-"}${points(Math.abs(value))}${unit}`;

/** "+12.0 [+5.0, +19.0] points (200 tasks)": differences of rates in percentage points. */
export function formatDifference(estimate: JsonEstimate): string {
  if (estimate.value === null) return "no shared tasks";
  const interval = estimate.low === null ? "" : ` [${signed(estimate.low)}, ${signed(estimate.high)}]`;
  return `${signed(estimate.value)}${interval} points (${estimate.tasks} tasks)`;
}

/** "+67% [+20%, +140%]". */
function formatRelative(estimate: JsonEstimate): string {
  if (estimate.value === null) return "relative n/a";
  const interval =
    estimate.low === null
      ? ""
      : ` [${signed(estimate.low, "%")}, ${estimate.high === null ? "inf" : signed(estimate.high, "%")}]`;
  return `${signed(estimate.value, "%")}${interval} relative`;
}

function describe(comparison: StudyComparison): string {
  const means =
    comparison.meanA.value === null
      ? ""
      : comparison.statistic === "difference of differences"
        ? ` (gains ${signed(comparison.meanA.value)} vs ${signed(comparison.meanB.value)})`
        : ` (${points(comparison.meanA.value)}% vs ${points(comparison.meanB.value as number)}%)`;
  const relative = comparison.relative === undefined ? "" : `, ${formatRelative(comparison.relative)}`;
  return `${comparison.metric}: ${formatDifference(comparison.difference)}${means}${relative}`;
}

function combine(scopes: readonly Scope[]): Verdict {
  const measured = scopes.filter((scope) => scope.verdict !== "no data").map((scope) => scope.verdict);
  if (measured.length === 0) return "no data";
  return measured.every((verdict) => verdict === measured[0]) ? (measured[0] as Verdict) : "inconclusive";
}

function summaryOf(verdict: Verdict, scopes: readonly Scope[]): string {
  const measured = scopes.filter((scope) => scope.verdict !== "no data");
  if (measured.length === 0)
    return scopes.length === 0
      ? "No runs to test it: see what it needs below."
      : scopes.map((scope) => scope.text).join(" ");
  const by = (wanted: Verdict): string[] =>
    measured.filter((scope) => scope.verdict === wanted).map((scope) => scope.scope);
  const parts = (["supported", "not supported", "inconclusive"] as const)
    .filter((wanted) => by(wanted).length > 0)
    .map((wanted) => `${wanted} in ${by(wanted).join(", ")}`);
  return `${verdict === "inconclusive" && parts.length > 1 ? "Mixed: " : ""}${parts.join("; ")}.`;
}

/** What every finding uses: the inputs, the models by role, and paired comparisons. */
interface FindingContext {
  readonly inputs: FindingInputs;
  readonly base: string | undefined;
  readonly grpo: string | undefined;
  readonly process: string | undefined;
  readonly budgetmix: string | undefined;
  /** BudgetMix trained with hidden budgets, when the study has one. */
  readonly budgetmixHidden: string | undefined;
  compare(
    metric: string,
    a: string,
    b: string,
    scope: string,
    mode: string,
    valuesA: ReadonlyMap<number, number>,
    valuesB: ReadonlyMap<number, number>,
  ): StudyComparison;
  /** compare with the relative view beside the difference (success rates). */
  compareRates(
    metric: string,
    a: string,
    b: string,
    scope: string,
    mode: string,
    valuesA: ReadonlyMap<number, number>,
    valuesB: ReadonlyMap<number, number>,
  ): StudyComparison;
  /** Whether a finding is tested in an env (the study's claim scopes; every env by default). */
  inScope(id: FindingId, env: string): boolean;
  readonly options: IntervalOptions;
}

function contextOf(inputs: FindingInputs, options: IntervalOptions, claimScopes: ClaimScopes): FindingContext {
  const byRole = (role: ModelRole): string | undefined => inputs.models.find((model) => model.role === role)?.name;
  const seeded = (...parts: string[]): IntervalOptions => ({
    ...options,
    seed: deriveSeed(options.seed ?? 0, "finding", ...parts),
  });
  const compare: FindingContext["compare"] = (metric, a, b, scope, mode, valuesA, valuesB) => {
    const result = pairedDifference(valuesA, valuesB, seeded(metric, a, b, scope, mode));
    return {
      metric,
      a,
      b,
      scope,
      mode,
      meanA: jsonEstimate(result.a),
      meanB: jsonEstimate(result.b),
      difference: jsonEstimate(result.difference),
      direction: differenceDirection(result.difference),
      statistic: "difference",
    };
  };
  return {
    options,
    inScope: (id, env) => claimScopes[id]?.includes(env) ?? true,
    compareRates: (metric, a, b, scope, mode, valuesA, valuesB) => ({
      ...compare(metric, a, b, scope, mode, valuesA, valuesB),
      relative: jsonEstimate(relativeGain(valuesA, valuesB, seeded("relative", metric, a, b, scope, mode))),
    }),
    inputs,
    base: byRole("base"),
    grpo: byRole("grpo"),
    process: byRole("process"),
    budgetmix: byRole("budgetmix"),
    budgetmixHidden: byRole("budgetmix-hidden"),
    compare,
  };
}

/** Envs each finding is tested in (a study says which env it built for which claim); absent: every env. */
export type ClaimScopes = Readonly<Partial<Record<FindingId, readonly string[]>>>;

/** A role a finding needs, the model that has it (undefined: none) and the role that stands in for it, if any. */
type Need = readonly [role: ModelRole, model: string | undefined, fallback?: ModelRole];

/** What a finding lacks, in words: the roles no model has and, unless the caller gave every model its role (a
 * study), how to give them; null when nothing is missing. */
function missing(context: FindingContext, ...needs: readonly Need[]): string | null {
  const absent = needs.filter(([, model]) => model === undefined);
  if (absent.length === 0) return null;
  const { models } = context.inputs;
  const roles = absent.map(([role, , fallback]) => (fallback === undefined ? role : `${role} (or ${fallback})`));
  const present = models.map((model) => `${model.name} (${model.role})`).join(", ") || "none";
  const hint = models.every((model) => model.roleSource === "given")
    ? ""
    : `: give ${absent.length === 1 ? "it" : "them"} with ${absent.map(([role]) => `--role NAME=${role}`).join(" ")}, NAME one of the models`;
  return `Needs a model with role ${roles.join(" and a model with role ")}${hint}; present: ${present}.`;
}

function finding(
  id: StudyFinding["id"],
  title: string,
  claim: string,
  absent: string | null,
  scopes: () => Scope[],
): StudyFinding {
  if (absent !== null) return { id, title, claim, verdict: "no data", summary: absent, scopes: [] };
  const list = scopes();
  const verdict = combine(list);
  return { id, title, claim, verdict, summary: summaryOf(verdict, list), scopes: list };
}

const scopeName = (scope: PassScope): string => ("variant" in scope ? scope.variant : scope.env);

function sharedBudgets(context: FindingContext, a: string, b: string, scope: PassScope, mode: string): string[] {
  const other = new Set(context.inputs.budgets(b, scope, mode));
  return context.inputs.budgets(a, scope, mode).filter((label) => other.has(label));
}

function passAt(
  context: FindingContext,
  a: string,
  b: string,
  scope: PassScope,
  mode: string,
  budget: string,
): StudyComparison {
  return context.compareRates(
    `Pass@(1,${budget})`,
    a,
    b,
    scopeName(scope),
    mode,
    context.inputs.pass(a, scope, mode, budget),
    context.inputs.pass(b, scope, mode, budget),
  );
}

/** (a - b at `generous`) - (a - b at `tight`), Pass@1, paired over the tasks all four cells share. */
function gainShrink(
  context: FindingContext,
  a: string,
  b: string,
  scope: PassScope,
  mode: string,
  generous: string,
  tight: string,
): StudyComparison {
  const { inputs } = context;
  const metric = `gain at ${generous} minus gain at ${tight}`;
  const result = differenceOfDifferences(
    inputs.pass(a, scope, mode, generous),
    inputs.pass(b, scope, mode, generous),
    inputs.pass(a, scope, mode, tight),
    inputs.pass(b, scope, mode, tight),
    {
      ...context.options,
      seed: deriveSeed(context.options.seed ?? 0, "finding", metric, a, b, scopeName(scope), mode),
    },
  );
  return {
    metric,
    a,
    b,
    scope: scopeName(scope),
    mode,
    meanA: jsonEstimate(result.first),
    meanB: jsonEstimate(result.second),
    difference: jsonEstimate(result.difference),
    direction: differenceDirection(result.difference),
    statistic: "difference of differences",
  };
}

const at = (budget: string | undefined): string => (budget === undefined ? "" : ` at ${budget}`);

/** Step quality on teacher-forced states when both models have them, else on their own states; over every budget,
 * or at one. */
function stepComparison(context: FindingContext, a: string, b: string, env: string, budget?: string): StudyComparison {
  const { inputs } = context;
  const source =
    inputs.stepQuality(a, env, "announced", "teacher-forced", budget).size > 0 &&
    inputs.stepQuality(b, env, "announced", "teacher-forced", budget).size > 0
      ? "teacher-forced"
      : "self";
  return context.compare(
    `step quality (${source === "self" ? "own states" : "teacher-forced states"})${at(budget)}`,
    a,
    b,
    env,
    "announced",
    inputs.stepQuality(a, env, "announced", source, budget),
    inputs.stepQuality(b, env, "announced", source, budget),
  );
}

/** Recovery from errors forced on the same expert states when both models have such runs, else from each one's
 * own first errors (states that differ between the models: the weaker comparison); over every budget, or at one. */
function recoveryComparison(
  context: FindingContext,
  a: string,
  b: string,
  env: string,
  budget?: string,
): StudyComparison {
  const { inputs } = context;
  const forcedA = inputs.forcedRecovery(a, env, "announced", budget);
  const forcedB = inputs.forcedRecovery(b, env, "announced", budget);
  if (forcedA.size > 0 && forcedB.size > 0)
    return context.compare(
      `success after a forced error (same states)${at(budget)}`,
      a,
      b,
      env,
      "announced",
      forcedA,
      forcedB,
    );
  return context.compare(
    `success after a first error (own states)${at(budget)}`,
    a,
    b,
    env,
    "announced",
    inputs.recovery(a, env, "announced", budget),
    inputs.recovery(b, env, "announced", budget),
  );
}

/** Success on the longest optimal-length bin both models have episodes in; over every budget, or at one. */
function longComparison(
  context: FindingContext,
  a: string,
  b: string,
  env: string,
  budget?: string,
): StudyComparison | null {
  const { inputs } = context;
  const bins = new Map(inputs.lengthBins(b, env, "announced", budget).map((bin) => [bin.key, bin]));
  const shared = inputs.lengthBins(a, env, "announced", budget).filter((bin) => bins.has(bin.key));
  if (shared.length === 0) return null;
  const { key: longest, label } = shared.reduce((best, bin) => (bin.key > best.key ? bin : best));
  return context.compare(
    `success on the longest tasks (optimal length ${label})${at(budget)}`,
    a,
    b,
    env,
    "announced",
    inputs.longTasks(a, env, "announced", longest, budget),
    inputs.longTasks(b, env, "announced", longest, budget),
  );
}

/** The paper's Table 1 reading: is GRPO-Full below the base at the tight budget? */
function belowBaseText(tight: StudyComparison): string {
  const where = tight.metric.replace("Pass@(1,", "").replace(")", "");
  if (tight.direction === "lower") return `GRPO-Full falls below the base at ${where}`;
  if (tight.direction === "higher") return `GRPO-Full stays above the base at ${where}`;
  return `whether GRPO-Full falls below the base at ${where} is unclear`;
}

function rlBudgetsFinding(context: FindingContext): StudyFinding {
  const { base, grpo } = context;
  return finding(
    "rl-budgets",
    "Trajectory-level RL helps with generous budgets, not tight ones",
    "GRPO-Full raises Pass@1 over the base model when the budget is generous, and much less (or not at all) when it is tight: its gain shrinks as the budget tightens.",
    missing(context, ["base", base], ["grpo", grpo]),
    () =>
      context.inputs.variants
        .filter(({ env }) => context.inScope("rl-budgets", env))
        .map(({ variant }) => {
          const [a, b] = [grpo as string, base as string];
          const budgets = sharedBudgets(context, a, b, { variant }, "announced");
          if (budgets.length < 2)
            return {
              scope: variant,
              verdict: "no data" as Verdict,
              text: `${variant}: needs announced runs of both models at two or more shared budgets.`,
              comparisons: [],
            };
          const [tightest, largest] = [budgets[0] as string, budgets[budgets.length - 1] as string];
          const generous = passAt(context, a, b, { variant }, "announced", largest);
          const tight = passAt(context, a, b, { variant }, "announced", tightest);
          const shrink = gainShrink(context, a, b, { variant }, "announced", largest, tightest);
          const directions = [generous.direction, tight.direction, shrink.direction];
          const verdict: Verdict = directions.includes("no data")
            ? "no data"
            : generous.direction === "higher" && shrink.direction === "higher"
              ? "supported"
              : shrink.direction === "lower" || generous.direction === "lower"
                ? "not supported"
                : "inconclusive";
          return {
            scope: variant,
            verdict,
            text: `${variant}: ${a} - ${b}, ${describe(generous)}; ${describe(tight)}; ${describe(shrink)}; ${belowBaseText(tight)}.`,
            comparisons: [generous, tight, shrink],
          };
        }),
  );
}

function recoveryHorizonFinding(context: FindingContext): StudyFinding {
  const { base, grpo } = context;
  return finding(
    "recovery-horizon",
    "RL's gains sit in error recovery and long-horizon resilience, not single-step quality",
    "Against the base model, GRPO-Full recovers more often after a mistake and succeeds more on long tasks, while the quality of its single decisions barely changes.",
    missing(context, ["base", base], ["grpo", grpo]),
    () =>
      context.inputs.envs
        .filter((env) => context.inScope("recovery-horizon", env))
        .map((env) => {
          const [a, b] = [grpo as string, base as string];
          // At the most generous budget both have, GRPO-Full's own: where a trade-off env's tight budgets (finding 1)
          // cannot pass for a loss of recovery or of long-horizon success.
          const generous = sharedBudgets(context, a, b, { env }, "announced").at(-1);
          const step = stepComparison(context, a, b, env, generous);
          const recovery = recoveryComparison(context, a, b, env, generous);
          const long = longComparison(context, a, b, env, generous);
          const comparisons = [step, recovery, ...(long === null ? [] : [long])];
          const concentrated = recovery.direction === "higher" || long?.direction === "higher";
          const stepGain = step.direction === "higher";
          const verdict: Verdict = comparisons.every((comparison) => comparison.direction === "no data")
            ? "no data"
            : concentrated && !stepGain
              ? "supported"
              : stepGain
                ? "not supported"
                : "inconclusive";
          return {
            scope: env,
            verdict,
            text: `${env}: ${a} - ${b}, ${comparisons.map(describe).join("; ")}.`,
            comparisons,
          };
        }),
  );
}

/** A benefit is any comparison that is higher; a limit is the smallest budget or recovery not being higher. */
function processVerdict(
  comparisons: readonly StudyComparison[],
  limitsAt: readonly (StudyComparison | null)[],
): Verdict {
  const measured = comparisons.filter((comparison) => comparison.direction !== "no data");
  if (measured.length === 0) return "no data";
  const benefits = measured.filter((comparison) => comparison.direction === "higher").length;
  const limits = limitsAt.filter(
    (comparison) => comparison !== null && comparison.direction !== "no data" && comparison.direction !== "higher",
  ).length;
  if (benefits > 0 && limits > 0) return "supported";
  if (benefits === 0)
    return measured.some((comparison) => comparison.direction === "lower") ? "not supported" : "inconclusive";
  return benefits === measured.length ? "not supported" : "inconclusive";
}

function processFinding(context: FindingContext): StudyFinding {
  const reference = context.grpo ?? context.base;
  return finding(
    "process",
    "Process supervision has benefits and limits",
    "Turn-level credit (process supervision) improves some things over trajectory-level RL, but not everything: tight budgets and recovery stay hard.",
    missing(context, ["process", context.process], ["grpo", reference, "base"]),
    () =>
      context.inputs.envs
        .filter((env) => context.inScope("process", env))
        .map((env) => {
          const [a, b] = [context.process as string, reference as string];
          const budgets = sharedBudgets(context, a, b, { env }, "announced");
          const step = stepComparison(context, a, b, env);
          const recovery = recoveryComparison(context, a, b, env);
          const largest =
            budgets.length === 0
              ? null
              : passAt(context, a, b, { env }, "announced", budgets[budgets.length - 1] as string);
          const smallest =
            budgets.length < 2 ? null : passAt(context, a, b, { env }, "announced", budgets[0] as string);
          const comparisons = [
            step,
            ...(largest === null ? [] : [largest]),
            ...(smallest === null ? [] : [smallest]),
            recovery,
          ];
          return {
            scope: env,
            verdict: processVerdict(comparisons, [smallest, recovery]),
            text: `${env}: ${a} - ${b}, ${comparisons.map(describe).join("; ")}.`,
            comparisons,
          };
        }),
  );
}

/** A BudgetMix model against GRPO-Full (else base) at every shared budget of each env variant, in one budget mode. */
function acrossBudgets(
  context: FindingContext,
  id: FindingId,
  a: string,
  mode: string,
  rule: (comparisons: StudyComparison[]) => Verdict,
): Scope[] {
  const b = (context.grpo ?? context.base) as string;
  return context.inputs.variants
    .filter(({ env }) => context.inScope(id, env))
    .map(({ variant }) => {
      const budgets = sharedBudgets(context, a, b, { variant }, mode);
      if (budgets.length === 0)
        return {
          scope: variant,
          verdict: "no data" as Verdict,
          text: `${variant}: needs ${mode} runs of ${a} and ${b} at shared budgets.`,
          comparisons: [],
        };
      const comparisons = budgets.map((budget) => passAt(context, a, b, { variant }, mode, budget));
      return {
        scope: variant,
        verdict: rule(comparisons),
        text: `${variant} (${mode}): ${a} - ${b}, ${comparisons.map(describe).join("; ")}.`,
        comparisons,
      };
    });
}

/** "Robust" is a non-inferiority claim: BudgetMix may trail GRPO-Full by less than this (2 points of Pass@1) at a
 * budget and still count as holding up there; a strict "never lower" rule would turn a significant but trivial
 * 0.5-point difference, which 200 tasks x 16 samples can detect, into a refutation. */
export const NON_INFERIORITY_MARGIN = 0.02;

/** Not worse by more than the margin: the interval's lower end above -margin. */
const nonInferior = (comparison: StudyComparison): boolean =>
  comparison.difference.low !== null && comparison.difference.low > -NON_INFERIORITY_MARGIN;
/** Worse by more than the margin: the interval's upper end below -margin. */
const inferior = (comparison: StudyComparison): boolean =>
  comparison.difference.high !== null && comparison.difference.high < -NON_INFERIORITY_MARGIN;

function budgetmixFinding(context: FindingContext): StudyFinding {
  return finding(
    "budgetmix",
    "BudgetMix is robust across budgets",
    `Training over a mix of announced budgets raises Pass@1 over GRPO-Full at the tightest budget and keeps it within ${100 * NON_INFERIORITY_MARGIN} points of GRPO-Full (or above) at every budget.`,
    missing(context, ["budgetmix", context.budgetmix], ["grpo", context.grpo ?? context.base, "base"]),
    () =>
      acrossBudgets(context, "budgetmix", context.budgetmix as string, "announced", (comparisons) => {
        if (comparisons.every((comparison) => comparison.direction === "no data")) return "no data";
        if (comparisons.some(inferior) || comparisons[0]?.direction === "lower") return "not supported";
        return comparisons[0]?.direction === "higher" && comparisons.every(nonInferior) ? "supported" : "inconclusive";
      }),
  );
}

function hiddenBudgetFinding(context: FindingContext): StudyFinding {
  const mixed = context.budgetmixHidden ?? context.budgetmix;
  return finding(
    "hidden-budget",
    "Beyond the paper: does BudgetMix help when the budget is hidden?",
    "With the budget never stated, BudgetMix (trained with hidden budgets when the study has it) still beats GRPO-Full somewhere and loses nowhere.",
    missing(context, ["budgetmix", mixed], ["grpo", context.grpo ?? context.base, "base"]),
    () =>
      acrossBudgets(context, "hidden-budget", mixed as string, "hidden", (comparisons) => {
        if (comparisons.every((comparison) => comparison.direction === "no data")) return "no data";
        const higher = comparisons.some((comparison) => comparison.direction === "higher");
        if (comparisons.some(inferior) && !higher) return "not supported";
        return higher && comparisons.every(nonInferior) ? "supported" : "inconclusive";
      }),
  );
}

export function studyFindings(
  inputs: FindingInputs,
  options: IntervalOptions = {},
  claimScopes: ClaimScopes = {},
): StudyFinding[] {
  const context = contextOf(inputs, options, claimScopes);
  return [
    rlBudgetsFinding(context),
    recoveryHorizonFinding(context),
    processFinding(context),
    budgetmixFinding(context),
    hiddenBudgetFinding(context),
  ];
}
