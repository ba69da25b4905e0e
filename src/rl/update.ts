// One policy update from a batch of examples: several epochs over shuffled minibatches; in each minibatch,
// current log-probs -> clipped-ratio coefficients (with KL to the reference, if any) -> backward -> AdamW step.
//   loss = (1/N) sum_t [ -min(r_t A_t, clip(r_t) A_t) + beta KL_t ],  N = policy tokens of the minibatch
import { shuffledIndices } from "../core/rng.js";
import type { ReferenceScorer, TrainerBackend } from "./backend.js";
import { ppoCoefficients, type PpoOptions } from "./loss/ppo.js";
import type { PolicyExample } from "./sequences.js";

export interface UpdateOptions extends PpoOptions {
  readonly epochs: number;
  readonly minibatches: number;
  readonly learningRate: number;
  readonly seed: number;
  readonly reference?: ReferenceScorer;
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

export async function updatePolicy(backend: TrainerBackend, examples: readonly PolicyExample[], options: UpdateOptions): Promise<UpdateStats> {
  const refLogprobs = options.reference !== undefined && options.klCoefficient > 0 ? await options.reference.logprobs(examples.map((example) => example.sequence)) : undefined;
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
      const batch = members.map((index) => (examples[index] as PolicyExample).sequence);
      const normaliser = Math.max(1, members.reduce((sum, index) => sum + (examples[index] as PolicyExample).oldLogprobs.length, 0));
      let minibatchLoss = 0;
      const stats = await backend.accumulate(
        batch,
        (logprobs, first) =>
          logprobs.map((current, offset) => {
            const index = members[first + offset] as number;
            const example = examples[index] as PolicyExample;
            const result = ppoCoefficients(
              {
                logprobs: current,
                oldLogprobs: example.oldLogprobs,
                advantages: example.advantages,
                mask: new Float32Array(current.length).fill(1),
                ...(refLogprobs === undefined ? {} : { refLogprobs: refLogprobs[index] as Float32Array }),
              },
              options,
            );
            minibatchLoss += result.loss * result.tokens;
            clipped += result.clipFraction * result.tokens;
            kl += result.kl * result.tokens;
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
  return { loss: loss / Math.max(1, updates), clipFraction: clipped / perToken, kl: kl / perToken, entropy: entropy / perToken, gradNorm: gradNorm / Math.max(1, updates), tokens, updates };
}
