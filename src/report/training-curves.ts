// The training curves of a training run folder (`budgetrl train --out DIR`): the per-step log (reward, success,
// turns, entropy, KL from `train_steps` in DIR/train.db), the held-out Pass@(1,T) of every evaluation (runs
// `eval-step-N` in the same store), the config (DIR/config.json), and how many held-out tasks training also saw:
// every logged step names its training tasks' ids, compared with the held-out tasks and with the study runs on
// the same env variant (training leaves held-out sets out by content, so the count should read 0).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Json } from "../core/json.js";
import { parseEvalConfig } from "../eval/config.js";
import { storedRunOutcomes, tableFor } from "../eval/table.js";
import type { IntervalOptions } from "../metrics/task-mean.js";
import { readStoredTrainConfig, type TrainConfig } from "../rl/train-config.js";
import { taskIdsOf } from "../store/analysis-rows.js";
import { openStore, type Store } from "../store/open.js";
import { listRuns } from "../store/runs.js";
import { readTrainSteps } from "../store/train-log.js";
import { jsonEstimate, type StudyTraining } from "./study-model.js";
import { envVariant } from "./study-runs.js";
import { thrownMessage } from "../core/errors.js";

export interface TrainingSelection {
  readonly name: string;
  readonly dir: string;
  /** The model of the study this training produced, if any. */
  readonly model?: string;
}

/** A study run's tasks, for the overlap count. */
export interface StudyTaskList {
  readonly run: string;
  readonly variant: string;
  readonly taskIds: readonly string[];
}

const numberOf = (metrics: Json, key: string): number | null => {
  if (metrics === null || typeof metrics !== "object" || Array.isArray(metrics)) return null;
  const value = (metrics as Record<string, Json>)[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
};

function readConfig(dir: string, notes: string[]): { config: Readonly<TrainConfig> | null; json: Json | null } {
  const path = join(dir, "config.json");
  if (!existsSync(path)) {
    notes.push(`${path} is missing: no config, no overlap count`);
    return { config: null, json: null };
  }
  const json = JSON.parse(readFileSync(path, "utf8")) as Json;
  try {
    return { config: readStoredTrainConfig(json), json };
  } catch (error) {
    notes.push(`${path} is not a training config: ${thrownMessage(error)}`);
    return { config: null, json };
  }
}

async function evalPoints(store: Store, options: IntervalOptions): Promise<StudyTraining["evals"]> {
  const points: { step: number; run: string; budget: string; estimate: ReturnType<typeof jsonEstimate> }[] = [];
  const runs = (await listRuns(store))
    .map((run) => ({ run, step: /^eval-step-(\d+)$/.exec(run.id)?.[1] }))
    .filter((entry): entry is { run: (typeof entry)["run"]; step: string } => entry.step !== undefined)
    .sort((a, b) => Number(a.step) - Number(b.step));
  for (const { run, step } of runs) {
    const config = parseEvalConfig(run.config);
    const table = tableFor(
      { ...config, bootstrap: options.bootstrap ?? config.bootstrap },
      await storedRunOutcomes(store, run.id, config),
      [1],
    );
    table.budgets.forEach((budget, j) => {
      const cell = table.cells[0]?.[j];
      if (cell !== undefined)
        points.push({ step: Number(step), run: run.id, budget: budget.label, estimate: jsonEstimate(cell) });
    });
  }
  return points;
}

/** Task ids of every training task of the logged steps (each step logs its tasks' ids), or null when the log
 * predates that (then no overlap count). */
function trainingTaskIds(logged: readonly { readonly metrics: Json }[], notes: string[]): Set<string> | null {
  const ids = new Set<string>();
  for (const { metrics } of logged) {
    const taskIds =
      metrics !== null && typeof metrics === "object" && !Array.isArray(metrics)
        ? (metrics as { taskIds?: unknown }).taskIds
        : undefined;
    if (!Array.isArray(taskIds)) {
      notes.push("the step log does not name its training tasks (a run made before it did): no overlap count");
      return null;
    }
    for (const id of taskIds) if (typeof id === "string") ids.add(id);
  }
  return ids;
}

export async function readTraining(
  selection: TrainingSelection,
  study: readonly StudyTaskList[],
  options: IntervalOptions = {},
): Promise<StudyTraining> {
  const notes: string[] = [];
  const { config, json } = readConfig(selection.dir, notes);
  const dbPath = join(selection.dir, "train.db");
  const base = { name: selection.name, dir: selection.dir, model: selection.model ?? null, config: json };
  if (!existsSync(dbPath)) {
    notes.push(`${dbPath} is missing: no curves`);
    return {
      ...base,
      steps: [],
      evals: [],
      overlap: { trainingTasks: null, heldOutTasks: 0, heldOutSeenInTraining: null, studyRuns: [] },
      notes,
    };
  }
  const store = await openStore(dbPath, { readonly: true });
  try {
    const logged = await readTrainSteps(store, "train");
    const steps = logged.map(({ step, metrics }) => ({
      step,
      reward: numberOf(metrics, "reward"),
      success: numberOf(metrics, "success"),
      turns: numberOf(metrics, "turns"),
      entropy: numberOf(metrics, "entropy"),
      kl: numberOf(metrics, "kl"),
    }));
    const evals = await evalPoints(store, options);
    const heldOut = evals.length === 0 ? [] : await taskIdsOf(store, (evals[0] as (typeof evals)[number]).run);
    const trained = trainingTaskIds(logged, notes);
    const variant = config === null ? null : envVariant(config.env, config.envOptions);
    const seen = (ids: readonly string[]): number =>
      trained === null ? 0 : ids.filter((id) => trained.has(id)).length;
    return {
      ...base,
      steps,
      evals,
      overlap: {
        trainingTasks: trained === null ? null : trained.size,
        heldOutTasks: heldOut.length,
        heldOutSeenInTraining: trained === null ? null : seen(heldOut),
        studyRuns:
          trained === null
            ? []
            : study
                .filter((run) => run.variant === variant)
                .map((run) => ({ run: run.run, tasks: run.taskIds.length, seenInTraining: seen(run.taskIds) })),
      },
      notes,
    };
  } finally {
    await store.close();
  }
}
