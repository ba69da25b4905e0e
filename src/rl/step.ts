// One RL step, read top to bottom as a CleanRL script: rollouts -> advantages -> loss -> update -> log.
//   rollouts    fresh tasks (distinct within the step, never a held-out one), a budget per group from the schedule,
//               `group` rollouts per task with the current policy (rollouts.ts)
//   advantages  per group, with the run's estimator and its options (config `algo`, advantages/registry.ts); a
//               group whose advantages are all 0 gives no gradient: counted, not trained
//   loss/update the clipped-ratio objective, with KL to the initial policy when kl > 0: epochs x minibatches of
//               AdamW (update.ts, loss/)
//   log         the step's metrics (step-metrics.ts), which the loop writes to the training log
// Every random draw is seeded by (seed, step), so a resumed run repeats a step exactly.
import type { AnyEnv } from "../core/env.js";
import { BudgetrlError } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import { deriveSeed } from "../core/rng.js";
import { advantageEstimator } from "./advantages/registry.js";
import type { TurnAdvantages } from "./advantages/types.js";
import type { ReferenceScorer, TrainerBackend } from "./backend.js";
import { rolloutStep } from "./rollouts.js";
import { policyExamples } from "./sequences.js";
import { NO_UPDATE, stepMetrics, type StepMetrics } from "./step-metrics.js";
import type { TrainConfig } from "./train-config.js";
import { updatePolicy } from "./update.js";

/** What every step of a run shares. */
export interface StepContext {
  readonly backend: TrainerBackend;
  readonly env: AnyEnv;
  readonly config: Readonly<TrainConfig>;
  /** The frozen initial policy of the KL term (when kl > 0). */
  readonly reference?: ReferenceScorer;
  /** Ids of the held-out tasks training never draws. */
  readonly excluded: ReadonlySet<string>;
  readonly signal?: AbortSignal;
}

export async function trainStep({ backend, env, config, reference, excluded, signal }: StepContext, step: number, learningRate: number): Promise<StepMetrics> {
  const started = performance.now();
  const processedBefore = backend.processedTokens();
  const policy = backend.policy();
  // rollouts
  const { seed, steps: totalSteps, tasksPerStep, group, budget: schedule, budgetMode, budgetScope } = config;
  const groups = await rolloutStep(env, policy, { step, totalSteps, seed, tasksPerStep, group, schedule, budgetMode, budgetScope, excluded, ...(signal === undefined ? {} : { signal }) });
  refuseFailedRollouts(groups, step);
  const generated = performance.now();
  // advantages
  const estimator = advantageEstimator(config.algo.name);
  const scored = groups.map((episodes) => ({ episodes, advantages: estimator.estimate(episodes, config.algo) }));
  const trained = scored.filter(({ advantages }) => hasGradient(advantages));
  const examples = trained.flatMap(({ episodes, advantages }) => episodes.flatMap((episode, i) => policyExamples(episode, advantages[i] as number[], policy)));
  // loss -> update
  const update = examples.length === 0 ? NO_UPDATE : await updatePolicy(backend, examples, {
    epochs: config.epochs, minibatches: config.minibatches, learningRate, seed: deriveSeed(config.seed, "minibatch", step), clipLow: config.clipLow, clipHigh: config.clipHigh, klCoefficient: config.kl,
    ...(reference === undefined ? {} : { reference }), ...(config.backend.kind === "tiny" || config.backend.backendLoss === "none" ? {} : { backendLoss: config.backend.backendLoss }),
  });
  // log
  const ended = performance.now();
  return stepMetrics({ step, learningRate, groups, zeroGradientGroups: groups.length - trained.length, update, processedTokens: backend.processedTokens() - processedBefore, times: { started, generated, ended } });
}

/** False for a group whose advantages are all 0 (equal rewards): it would train nothing. */
function hasGradient(advantages: TurnAdvantages): boolean {
  return advantages.some((perTurn) => perTurn.some((value) => value !== 0));
}

/** A policy that failed (a Tinker server that stopped answering) stops the run, resumable, instead of training on
 * error episodes. */
function refuseFailedRollouts(groups: readonly (readonly Episode[])[], step: number): void {
  const failed = groups.flat().find((episode) => episode.stopReason === "error");
  if (failed !== undefined) throw new BudgetrlError("train:rollout", `a rollout of step ${step} failed: ${failed.error ?? "policy error"}`, "fix the cause, then continue with --resume");
}
