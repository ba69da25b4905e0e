// The training charts: reward and success per step of every RL run (a colour per model, a dash per seed, a row per
// env), and each run's held-out Pass@(1,T) at its evaluations.
import type { Json } from "../../core/json.js";
import type { StudyReport } from "../study-model.js";
import { budgetLabelOrder } from "./budget-labels.js";
import { colourIn, header, modelNames, row } from "./chart-fields.js";
import { bandedLines, type Chart } from "./chart-kit.js";

/** Steps averaged over for the per-step training curves. */
export const SMOOTHING_STEPS = 10;

/**
 * Trailing means of `values` over windows of `window` entries (fewer at the start), with the smallest and
 * largest single value of each window: the curve and the spread the per-step chart draws.
 */
export function trailingMeans(
  values: readonly number[],
  window: number,
): { mean: number; low: number; high: number }[] {
  return values.map((_, i) => {
    const part = values.slice(Math.max(0, i - window + 1), i + 1);
    return {
      mean: part.reduce((sum, value) => sum + value, 0) / part.length,
      low: Math.min(...part),
      high: Math.max(...part),
    };
  });
}

/** A training run's model, env and seed, from its stored config (a run folder without one: its name). */
function trainingKey(entry: StudyReport["training"][number]): { model: string; env: string; seed: string } {
  const config: Readonly<Record<string, Json>> =
    entry.config !== null && typeof entry.config === "object" && !Array.isArray(entry.config)
      ? (entry.config as Readonly<Record<string, Json>>)
      : {};
  return {
    model: entry.model ?? entry.name,
    env: typeof config["env"] === "string" ? config["env"] : "",
    seed: typeof config["seed"] === "number" ? `seed ${config["seed"]}` : "",
  };
}

export function trainingCharts(report: StudyReport): Chart[] {
  if (report.training.length === 0) return [];
  const names = report.training.map((entry) => entry.name);
  const keys = report.training.map(trainingKey);
  const envs = [...new Set(keys.map((key) => key.env))];
  const seeds = [...new Set(keys.map((key) => key.seed))];
  // Colour by model (the same colour in every chart), a dash per seed, a row per env: one line per training run.
  const steps = report.training.flatMap((entry, index) =>
    (["reward", "success"] as const).flatMap((metric) => {
      const measured = entry.steps.filter((step) => step[metric] !== null);
      const smoothed = trailingMeans(
        measured.map((step) => step[metric]!),
        SMOOTHING_STEPS,
      );
      return measured.map((step, i) => ({
        ...keys[index],
        run: entry.name,
        step: step.step,
        metric,
        value: smoothed[i]!.mean,
        low: smoothed[i]!.low,
        high: smoothed[i]!.high,
        tasks: 0,
        label: `${smoothed[i]!.mean.toFixed(3)} (this step ${step[metric]!.toFixed(3)})`,
      }));
    }),
  );
  const runColor = colourIn(modelNames(report), steps);
  const budgets = budgetLabelOrder(report.training.flatMap((entry) => entry.evals.map((point) => point.budget)));
  const evals = report.training.flatMap((entry) =>
    entry.evals.map((point) =>
      row({ model: entry.name, run: entry.name, step: point.step, budget: point.budget }, point.estimate),
    ),
  );
  const charts: Chart[] = [];
  if (steps.length > 0)
    charts.push({
      id: "training-steps",
      title: "Training: reward and success per step",
      caption: `Lines: the mean of each step's rollouts (fresh training tasks, the step's budgets), averaged over the last ${SMOOTHING_STEPS} steps; bands: the lowest and highest single step in those ${SMOOTHING_STEPS}.`,
      spec: bandedLines(steps, {
        x: { field: "step", type: "quantitative", title: "step" },
        y: `mean (last ${SMOOTHING_STEPS} steps)`,
        color: runColor,
        ...(seeds.length > 1 ? { strokeDash: { field: "seed", type: "nominal", title: "seed", sort: seeds } } : {}),
        facets: {
          column: header("metric", "", ["reward", "success"]),
          ...(envs.length > 1 ? { row: header("env", "", envs) } : {}),
        },
        width: 300,
        height: 170,
        independentY: true,
        points: false,
      }),
    });
  if (evals.length > 0)
    charts.push({
      id: "training-heldout",
      title: "Training: held-out Pass@(1,T) at each evaluation",
      caption:
        "The held-out tasks are generated from another seed than the training tasks (their overlap is counted in the table below).",
      spec: bandedLines(evals, {
        x: { field: "step", type: "quantitative", title: "step" },
        y: "Pass@(1,T)",
        color: { field: "budget", type: "ordinal", sort: budgets, title: "budget T", scale: { scheme: "viridis" } },
        facets: { wrap: { facet: header("run", "", names), columns: 3 } },
        width: 240,
        height: 150,
        yDomain: [0, 1],
      }),
    });
  return charts;
}
