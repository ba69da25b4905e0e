// The RL loop: a run started or resumed in its folder (start-run.ts), then step after step (step.ts: rollouts ->
// advantages -> loss -> update -> log), each step's metrics written to the store's training log; evaluated on
// held-out tasks every E steps (evaluations.ts, eval runs in the same store); checkpointed every C steps
// (run-folder.ts). Backends (config `backend`, open-backend.ts): the in-process transformer, or a model on a Tinker
// server; a tinker run's checkpoints hold the server paths of its state.
// Resume continues from the newest complete checkpoint and, since every random draw is seeded by (seed, step),
// ends with exactly the weights of an uninterrupted run. A stop signal abandons the step (or evaluation) in flight
// and checkpoints the steps done. A new run that fails before its first step removes what it made, so the same
// command can simply be run again.
import { StoppedError } from "../core/errors.js";
import { warmupCosine } from "../nn/schedule.js";
import { openStore, type Store, type StoreWaitOptions } from "../store/open.js";
import { writeTrainStep } from "../store/train-log.js";
import type { ReferenceScorer } from "./backend.js";
import { discardStaleEvaluations, evaluateAt, evaluatesAt, type EvalPoint } from "./evaluations.js";
import { checkpointDir, removeNewRun, trainDbPath } from "./run-folder.js";
import { startRun, type RunStartOptions, type StartedRun } from "./start-run.js";
import type { StepMetrics } from "./step-metrics.js";
import { trainStep, type StepContext } from "./step.js";
import type { TrainConfig } from "./train-config.js";

export type { EvalPoint } from "./evaluations.js";
export type { StepMetrics } from "./step-metrics.js";

export interface TrainOptions extends RunStartOptions {
  /** Stop (with a checkpoint) after this many steps in total: interruption in tests. */
  readonly stopAfter?: number;
  readonly onStep?: (metrics: StepMetrics, total: number) => void;
  readonly onEval?: (point: EvalPoint) => void;
  /** How long a wait for train.db lasts, and who hears of one that lasted a second. */
  readonly storeWaits?: StoreWaitOptions;
}

export interface TrainResult {
  readonly config: Readonly<TrainConfig>;
  readonly stepsDone: number;
  readonly finished: boolean;
  readonly weightsDigest: string;
  readonly evals: readonly EvalPoint[];
  readonly checkpoint: string;
}

export async function train(options: TrainOptions): Promise<TrainResult> {
  const run = await startRun(options);
  const progress = { steps: 0 };
  try {
    return await trainFrom(run, options, progress);
  } catch (error) {
    // A new run that fails before its first step leaves nothing behind; later failures keep it for --resume.
    if (run.created !== undefined && progress.steps === 0 && !(error instanceof StoppedError))
      await removeNewRun(options.out, run.created);
    throw error;
  }
}

async function trainFrom(run: StartedRun, options: TrainOptions, progress: { steps: number }): Promise<TrainResult> {
  const { config, env, startStep } = run;
  const backend = run.backend.backend;
  const learningRate = warmupCosine({
    peak: config.learningRate,
    warmupSteps: Math.min(config.warmupSteps, config.steps),
    totalSteps: config.steps,
    minRatio: 0.1,
  });
  const evals: EvalPoint[] = [];
  const end = Math.min(config.steps, options.stopAfter ?? config.steps);
  let step = startStep;
  let saved = startStep;
  let store: Store | undefined;
  let reference: ReferenceScorer | undefined;
  try {
    store = await openStore(trainDbPath(options.out), { ...options.storeWaits });
    reference = config.kl > 0 ? await run.backend.initialReference() : undefined;
    const context: StepContext = {
      backend,
      env,
      config,
      heldOut: run.heldOut,
      ...(reference === undefined ? {} : { reference }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    try {
      if (await discardStaleEvaluations(store, config, startStep))
        evals.push(await evaluateAt(backend, config, options.out, startStep, options));
      while (step < end && options.signal?.aborted !== true) {
        const metrics = await trainStep(context, step, learningRate(step));
        await writeTrainStep(store, "train", step, metrics);
        options.onStep?.(metrics, config.steps);
        step++;
        progress.steps++;
        if (evaluatesAt(config, step)) evals.push(await evaluateAt(backend, config, options.out, step, options));
        if (step % config.checkpointEvery === 0 || step === config.steps) {
          await backend.save(checkpointDir(options.out, step));
          saved = step;
        }
      }
    } catch (error) {
      // Ctrl-C in the middle of a step or an evaluation: the step is abandoned, the steps done are kept.
      if (!(error instanceof StoppedError && options.signal?.aborted === true)) throw error;
    }
    if (saved !== step) await backend.save(checkpointDir(options.out, step));
    return {
      config,
      stepsDone: step,
      finished: step === config.steps,
      weightsDigest: backend.weightsDigest(),
      evals,
      checkpoint: checkpointDir(options.out, step),
    };
  } finally {
    await store?.close();
    reference?.dispose();
    backend.dispose();
  }
}
