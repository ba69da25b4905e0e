// Supervised warm start: train the policy on demonstration rollouts (e.g. of noisy-oracle:0.3), on its own reply
// tokens only (prompts, i.e. observations, are masked out). This is how a "base model" is made: competent but
// imperfect, the starting point of every RL run, as a pretrained LLM is in the paper. The demonstrations are
// laid out as the policy would have sampled them (one sequence per segment of an episode:
// policies/tiny/context.ts), so the base model learns in the context it will act in.
//   loss = -(1/N) sum over reply tokens of log p(token | everything before it in its sequence)
import type { Episode } from "../core/episode.js";
import { deriveSeed, shuffledIndices } from "../core/rng.js";
import { responseLength, type TrainablePolicy, type TrainerBackend, type TrainSequence } from "./backend.js";
import { everyReply, type TargetTurns } from "./sft-targets.js";

/** The sequences the policy would have sampled each demonstration in, with the demonstrated replies as responses:
 * those `targets` names (sft-targets.ts: all, the optimal ones, ...); the others stay in the sequence as context.
 * Sequences left without a response are dropped. */
export function demonstrationSequences(
  episodes: Iterable<Episode>,
  policy: Pick<TrainablePolicy, "episodeSequences" | "responseTokens">,
  targets: TargetTurns = everyReply,
): TrainSequence[] {
  const out: TrainSequence[] = [];
  for (const episode of episodes) {
    const replies = episode.turns.map((turn) => policy.responseTokens(turn.action));
    const targetTurns = targets(episode);
    const isTarget = (position: number): boolean => targetTurns[position] === true;
    for (const sequence of policy.episodeSequences(episode, replies)) {
      const responses = sequence.replies
        .filter((span) => isTarget(span.turn))
        .map(({ start, end }) => ({ start, end }));
      if (responses.length > 0) out.push({ tokens: sequence.tokens, responses });
    }
  }
  return out;
}

export interface SftOptions {
  readonly steps: number;
  readonly batchSize: number;
  readonly learningRate: (step: number) => number;
  readonly seed: number;
  /** Called after every step. */
  readonly onStep?: (
    step: number,
    stats: { readonly loss: number; readonly tokens: number; readonly gradNorm: number },
  ) => void | Promise<void>;
  /** First step to run (resume). */
  readonly startStep?: number;
}

/** Minibatch SGD over the sequences: batch b of step s is drawn from a permutation per epoch, seeded by (seed, epoch). */
export async function trainSft(
  backend: TrainerBackend,
  sequences: readonly TrainSequence[],
  options: SftOptions,
): Promise<void> {
  if (sequences.length === 0) throw new Error("trainSft: no demonstration sequences");
  const perEpoch = Math.max(1, Math.floor(sequences.length / options.batchSize));
  let permutation: number[] = [];
  let epochOfPermutation = -1;
  for (let step = options.startStep ?? 0; step < options.steps; step++) {
    const epoch = Math.floor(step / perEpoch);
    if (epoch !== epochOfPermutation) {
      permutation = shuffledIndices(sequences.length, deriveSeed(options.seed, "sft-epoch", epoch));
      epochOfPermutation = epoch;
    }
    const offset = (step % perEpoch) * options.batchSize;
    const batch = permutation.slice(offset, offset + options.batchSize).map((index) => sequences[index]!);
    const normaliser = batch.reduce((sum, sequence) => sum + responseLength(sequence), 0);
    let lossSum = 0;
    const stats = await backend.accumulate(
      batch,
      (logprobs) =>
        logprobs.map((values) => {
          for (const value of values) lossSum -= value;
          return new Float32Array(values.length).fill(1);
        }),
      normaliser,
    );
    const update = await backend.step(options.learningRate(step));
    await options.onStep?.(step, {
      loss: lossSum / Math.max(1, normaliser),
      tokens: stats.tokens,
      gradNorm: update.gradNorm,
    });
  }
}
