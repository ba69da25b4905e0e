// The held-out evaluations of a training run: every `evalEvery` steps (0: never), the current policy plays the
// first `evalTasks` distinct tasks (distinct in what `evalDistinct` says: content or structure) from the eval seed
// (`evalSeed`, default derived from --seed) at `evalBudgets`, `evalSamples` samples each, as an eval run named
// eval-step-N in the run's train.db. A resumed run recomputes the evaluations after its checkpoint, and the one at it
// unless it completed.
import { BudgetrlError, StoppedError } from "../core/errors.js";
import { deriveSeed } from "../core/rng.js";
import { evaluate } from "../eval/evaluate.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { evalWaitOptions } from "../eval/run-options.js";
import type { Store, StoreWaitOptions } from "../store/open.js";
import { getRun, runExists } from "../store/runs.js";
import { deleteRun } from "../store/train-log.js";
import type { TrainerBackend } from "./backend.js";
import { trainDbPath } from "./run-folder.js";
import type { TrainConfig } from "./train-config.js";

export interface EvalPoint {
  readonly step: number;
  readonly run: string;
  readonly table: PassAtKTTable;
}

/** What an evaluation reports to, and stops on. */
export interface EvaluationHooks {
  readonly signal?: AbortSignal;
  readonly onEval?: (point: EvalPoint) => void;
  /** How long a wait for train.db lasts, and who hears of one that lasted a second. */
  readonly storeWaits?: StoreWaitOptions;
}

export function evalRunName(step: number): string {
  return `eval-step-${step}`;
}

export function evalSeedOf(config: Readonly<TrainConfig>): number {
  return config.evalSeed ?? deriveSeed(config.seed, "eval");
}

/** True when the run evaluates after `step` steps. */
export function evaluatesAt(config: Readonly<TrainConfig>, step: number): boolean {
  return config.evalEvery > 0 && step % config.evalEvery === 0;
}

/** Evaluations to recompute on resume: every one after the checkpoint, and the one at it unless it completed
 * (true: the one at the checkpoint is to be run again). */
export async function discardStaleEvaluations(
  store: Store,
  config: Readonly<TrainConfig>,
  startStep: number,
): Promise<boolean> {
  for (let later = startStep + 1; later <= config.steps; later++) await deleteRun(store, evalRunName(later));
  if (!evaluatesAt(config, startStep)) return false;
  if (
    (await runExists(store, evalRunName(startStep))) &&
    (await getRun(store, evalRunName(startStep))).status === "complete"
  )
    return false;
  await deleteRun(store, evalRunName(startStep));
  return true;
}

/** The held-out evaluation after `step` steps, stored in the run's train.db. */
export async function evaluateAt(
  backend: TrainerBackend,
  config: Readonly<TrainConfig>,
  out: string,
  step: number,
  hooks: EvaluationHooks,
): Promise<EvalPoint> {
  const result = await evaluate({
    env: config.env,
    envOptions: config.envOptions,
    policy: backend.policy(),
    tasks: config.evalTasks,
    distinct: config.evalDistinct,
    samples: config.evalSamples,
    ks: [1],
    budgets: config.evalBudgets,
    budgetMode: config.budgetMode,
    budgetScope: config.budgetScope,
    seed: evalSeedOf(config),
    bootstrap: 200,
    annotate: false,
    db: trainDbPath(out),
    run: evalRunName(step),
    concurrency: 256,
    now: () => new Date(0),
    ...evalWaitOptions(hooks.storeWaits),
    ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
  });
  if (result.interrupted) throw new StoppedError(`evaluation at step ${step} stopped`);
  if (!result.complete)
    throw new BudgetrlError(
      "train:eval",
      `evaluation at step ${step} did not finish (${result.errors} policy errors${result.firstError === undefined ? "" : `, first: ${result.firstError}`})`,
    );
  const point = { step, run: result.run, table: result.table };
  hooks.onEval?.(point);
  return point;
}
