// One policy update from a batch of examples: several epochs over shuffled minibatches; in each minibatch,
// current log-probs -> clipped-ratio coefficients (with KL to the reference, if any) -> backward -> AdamW step.
//   loss = (1/N) sum_t [ -min(r_t A_t, clip(r_t) A_t) + beta KL_t ],  N = policy tokens of the minibatch
// With `backendLoss` the backend computes the loss itself from the behaviour log-probs and advantages
// (accumulateLoss: a remote trainer's ppo or importance_sampling loss, no KL); the statistics are then computed
// here from the log-probs it returns, as on the coefficient path.
import { ConfigError } from "../core/errors.js";
import { deriveSeed, shuffledIndices } from "../core/rng.js";
import type { BackendLossName, ReferenceScorer, TrainerBackend } from "./backend.js";
import { ppoCoefficients, type PpoOptions } from "./loss/ppo.js";
import type { PolicyExample } from "./sequences.js";
import type { TrainConfig } from "./train-config.js";

export interface UpdateOptions extends PpoOptions {
  readonly epochs: number;
  readonly minibatches: number;
  readonly learningRate: number;
  readonly seed: number;
  readonly reference?: ReferenceScorer;
  /** The backend's own loss instead of coefficients (the backend must offer accumulateLoss; no KL). */
  readonly backendLoss?: BackendLossName;
}

/** The update options of step `step` of a run with `config` (minibatch order seeded by (seed, step)). */
export function stepUpdateOptions(
  config: Readonly<TrainConfig>,
  step: number,
  learningRate: number,
  reference?: ReferenceScorer,
): UpdateOptions {
  const { epochs, minibatches, clipLow, clipHigh, kl: klCoefficient } = config;
  const seed = deriveSeed(config.seed, "minibatch", step);
  const options: UpdateOptions = { epochs, minibatches, learningRate, seed, clipLow, clipHigh, klCoefficient };
  const backendLoss = config.backend.kind === "tinker" ? config.backend.backendLoss : "none";
  return {
    ...options,
    ...(reference === undefined ? {} : { reference }),
    ...(backendLoss === "none" ? {} : { backendLoss }),
  };
}

export interface UpdateStats {
  readonly loss: number;
  readonly clipFraction: number;
  readonly kl: number;
  readonly entropy: number;
  readonly gradNorm: number;
  readonly tokens: number;
  readonly updates: number;
}

export async function updatePolicy(
  backend: TrainerBackend,
  examples: readonly PolicyExample[],
  options: UpdateOptions,
): Promise<UpdateStats> {
  if (options.backendLoss !== undefined) checkBackendLoss(backend, options);
  const refLogprobs =
    options.reference !== undefined && options.klCoefficient > 0
      ? await options.reference.logprobs(examples.map((example) => example.sequence))
      : undefined;
  let loss = 0;
  let clipped = 0;
  let kl = 0;
  let entropy = 0;
  let gradNorm = 0;
  let tokens = 0;
  let updates = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const order = shuffledIndices(examples.length, options.seed * 1000 + epoch);
    const size = Math.ceil(order.length / Math.max(1, options.minibatches));
    for (let start = 0; start < order.length; start += size) {
      const members = order.slice(start, start + size);
      const batch = members.map((index) => examples[index]!.sequence);
      const normaliser = Math.max(
        1,
        members.reduce((sum, index) => sum + examples[index]!.oldLogprobs.length, 0),
      );
      let minibatchLoss = 0;
      const tally = (result: {
        readonly loss: number;
        readonly tokens: number;
        readonly clipFraction: number;
        readonly kl: number;
      }): void => {
        minibatchLoss += result.loss * result.tokens;
        clipped += result.clipFraction * result.tokens;
        kl += result.kl * result.tokens;
      };
      const stats =
        options.backendLoss !== undefined
          ? await backendLossPass(
              backend,
              members.map((index) => examples[index]!),
              normaliser,
              options,
              tally,
            )
          : await backend.accumulate(
              batch,
              (logprobs, first) =>
                logprobs.map((current, offset) => {
                  const index = members[first + offset]!;
                  const example = examples[index]!;
                  const result = ppoCoefficients(
                    {
                      logprobs: current,
                      oldLogprobs: example.oldLogprobs,
                      advantages: example.advantages,
                      mask: new Float32Array(current.length).fill(1),
                      ...(refLogprobs === undefined ? {} : { refLogprobs: refLogprobs[index]! }),
                    },
                    options,
                  );
                  tally(result);
                  return result.coefficients;
                }),
              normaliser,
            );
      const step = await backend.step(options.learningRate);
      loss += minibatchLoss / normaliser;
      entropy += stats.entropy * stats.tokens;
      tokens += stats.tokens;
      gradNorm += step.gradNorm;
      updates++;
    }
  }
  const perToken = Math.max(1, tokens);
  return {
    loss: loss / Math.max(1, updates),
    clipFraction: clipped / perToken,
    kl: kl / perToken,
    entropy: entropy / perToken,
    gradNorm: gradNorm / Math.max(1, updates),
    tokens,
    updates,
  };
}

function checkBackendLoss(backend: TrainerBackend, options: UpdateOptions): void {
  if (backend.accumulateLoss === undefined)
    throw new ConfigError(
      "backendLoss",
      `the ${backend.name} backend computes no loss of its own`,
      "leave --backend-loss at none",
    );
  if (options.klCoefficient > 0)
    throw new ConfigError(
      "backendLoss",
      `${options.backendLoss} has no KL term`,
      "use --kl 0, or --backend-loss none (the KL then enters the coefficients)",
    );
}

/** One minibatch through the backend's own loss; its statistics from the log-probs the backend returns. */
async function backendLossPass(
  backend: TrainerBackend,
  members: readonly PolicyExample[],
  normaliser: number,
  options: UpdateOptions,
  tally: (result: ReturnType<typeof ppoCoefficients>) => void,
) {
  const name = options.backendLoss as BackendLossName;
  const tokens = members.map((example) => ({ oldLogprobs: example.oldLogprobs, advantages: example.advantages }));
  const stats = await (backend.accumulateLoss as NonNullable<TrainerBackend["accumulateLoss"]>)(
    members.map((example) => example.sequence),
    tokens,
    { name, clipLow: options.clipLow, clipHigh: options.clipHigh },
    normaliser,
  );
  // importance_sampling is the clipped objective with bounds that never bind: [0, infinity).
  const bounds =
    name === "ppo"
      ? { clipLow: options.clipLow, clipHigh: options.clipHigh }
      : { clipLow: 1, clipHigh: Number.POSITIVE_INFINITY };
  members.forEach((example, i) => {
    const current = stats.logprobs[i]!;
    tally(
      ppoCoefficients(
        {
          logprobs: current,
          oldLogprobs: example.oldLogprobs,
          advantages: example.advantages,
          mask: new Float32Array(current.length).fill(1),
        },
        { ...bounds, klCoefficient: 0 },
      ),
    );
  });
  return stats;
}
