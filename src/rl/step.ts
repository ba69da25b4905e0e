// One RL step, read top to bottom as a CleanRL script: rollouts -> advantages -> loss -> update -> log.
//   rollouts    fresh tasks (distinct within the step, never a held-out one), a budget per group from the schedule,
//               `group` rollouts per task with the current policy (rollouts.ts)
//   advantages  per group, with the run's estimator and its options (config `algo`, advantages/registry.ts); a
//               group whose advantages are all 0 gives no gradient: counted, not trained
//   loss/update the clipped-ratio objective, with KL to the initial policy when kl > 0: epochs x minibatches of
//               AdamW (update.ts, loss/)
//   log         the step's metrics (step-metrics.ts), which the loop writes to the training log
// Every random draw is seeded by (seed, step), so a resumed run repeats a step exactly.
import type { HeldOutTasks } from "../agent/task-draws.js";
import type { PlayableEnv } from "../core/env.js";
import { advantageEstimator } from "./advantages/registry.js";
import { hasGradient } from "./advantages/types.js";
import type { ReferenceScorer, TrainerBackend } from "./backend.js";
import { refuseFailedRollouts, rolloutStep, stepRolloutOptions } from "./rollouts.js";
import { policyExamples } from "./sequences.js";
import { NO_UPDATE, stepMetrics, type StepMetrics } from "./step-metrics.js";
import type { TrainConfig } from "./train-config.js";
import { stepUpdateOptions, updatePolicy } from "./update.js";

/** What every step of a run shares. */
export interface StepContext {
  readonly backend: TrainerBackend;
  readonly env: PlayableEnv;
  readonly config: Readonly<TrainConfig>;
  /** The frozen initial policy of the KL term (when kl > 0). */
  readonly reference?: ReferenceScorer;
  /** The held-out tasks training never draws. */
  readonly heldOut: HeldOutTasks;
  readonly signal?: AbortSignal;
}

export async function trainStep(context: StepContext, step: number, learningRate: number): Promise<StepMetrics> {
  const { backend, env, config, reference, heldOut, signal } = context;
  const started = performance.now();
  const processedBefore = backend.processedTokens();
  const policy = backend.policy();
  // rollouts
  const groups = await rolloutStep(env, policy, stepRolloutOptions(config, step, heldOut, signal));
  refuseFailedRollouts(groups, step);
  const generated = performance.now();
  // advantages
  const estimator = advantageEstimator(config.algo.name);
  const scored = groups.map((episodes) => ({ episodes, advantages: estimator.estimate(episodes, config.algo) }));
  const trained = scored.filter(({ advantages }) => hasGradient(advantages));
  const examples = trained.flatMap(({ episodes, advantages }) =>
    episodes.flatMap((episode, i) => policyExamples(episode, advantages[i]!, policy)),
  );
  // loss -> update
  const options = stepUpdateOptions(config, step, learningRate, reference);
  const update = examples.length === 0 ? NO_UPDATE : await updatePolicy(backend, examples, options);
  // log
  const ended = performance.now();
  const zeroGradientGroups = groups.length - trained.length;
  const processedTokens = backend.processedTokens() - processedBefore;
  const times = { started, generated, ended };
  return stepMetrics({ step, learningRate, groups, zeroGradientGroups, update, processedTokens, times });
}
