// What the RL loop needs from wherever the weights live. The algorithm code (advantages, the clipped
// objective, KL) only talks to this interface, so an in-process model and a remote trainer are
// interchangeable. A training example is a token sequence the policy sampled in: its prompt, then its own
// replies, with whatever came between them (observations) as context:
//
//   the loss reads log p(tokens[t] | tokens[<t]) for t in the response spans [start, end)
//
// `accumulate` runs forward passes, hands the current per-token log-probs of each chunk of sequences to the
// caller, who returns per-token coefficients c_t (PPO ratios, advantages, KL), and accumulates the gradient of
// -sum_t c_t log p_t / N, with N given up front (token-mean over the whole minibatch).
//
// A backend may also offer `accumulateLoss` (optional): the policy-gradient loss computed by the backend itself
// from per-token behaviour log-probs and advantages (a remote trainer's own loss, Tinker's `ppo` and
// `importance_sampling`), one pass instead of a forward for the caller's coefficients and then a backward.
import type { TrainablePolicy } from "../policies/trainable-policy.js";

/** tokens[start, end) are response tokens (trained on); start >= 1. */
export interface ResponseSpan {
  readonly start: number;
  readonly end: number;
}

export interface TrainSequence {
  readonly tokens: readonly number[];
  /** The response spans, ascending and disjoint. Log-probs and coefficients run over their tokens in order. */
  readonly responses: readonly ResponseSpan[];
}

/** The rollout policy of a backend (declared with the policies, which the Tinker policy is one of). */
export type { TrainablePolicy } from "../policies/trainable-policy.js";

/** Number of response tokens of a sequence. */
export function responseLength(sequence: TrainSequence): number {
  return sequence.responses.reduce((sum, span) => sum + span.end - span.start, 0);
}

/** Coefficients for sequences [first, first + logprobs.length): one array per sequence, one value per response token. */
export type CoefficientFunction = (logprobs: readonly Float32Array[], first: number) => readonly Float32Array[];

export interface AccumulateStats {
  /** Mean entropy of the policy over the response tokens. */
  readonly entropy: number;
  readonly tokens: number;
}

/** The policy-gradient losses a backend may compute itself (r_t = exp(logp_t - logp_old_t), N the normaliser):
 *   ppo:                 -(1/N) sum_t min(r_t A_t, clip(r_t, 1 - clipLow, 1 + clipHigh) A_t)   (update.ts without KL)
 *   importance_sampling: -(1/N) sum_t r_t A_t                                                   (no clipping) */
export const BACKEND_LOSSES = ["ppo", "importance_sampling"] as const;
export type BackendLossName = (typeof BACKEND_LOSSES)[number];

export interface BackendLoss {
  readonly name: BackendLossName;
  readonly clipLow: number;
  readonly clipHigh: number;
}

/** Per response token of one sequence, in order: the behaviour log-probs and the advantages. */
export interface LossTokens {
  readonly oldLogprobs: Float32Array;
  readonly advantages: Float32Array;
}

export interface LossAccumulateStats extends AccumulateStats {
  /** log p of each sequence's response tokens under the weights the gradient was taken at. */
  readonly logprobs: readonly Float32Array[];
}

export interface StepStats {
  readonly gradNorm: number;
  readonly learningRate: number;
}

/** A frozen copy of the weights, for the KL term. */
export interface ReferenceScorer {
  logprobs(batch: readonly TrainSequence[]): Promise<Float32Array[]>;
  dispose(): void;
}

export interface TrainerBackend {
  readonly name: string;
  /** The policy that samples with the current weights (tokens and behaviour log-probs in every Act). */
  policy(): TrainablePolicy;
  /** log p of each response token under the current weights, without gradients. */
  logprobs(batch: readonly TrainSequence[]): Promise<Float32Array[]>;
  /** Forward, coefficients from the caller, backward (gradients accumulate until `step`). */
  accumulate(
    batch: readonly TrainSequence[],
    coefficients: CoefficientFunction,
    normaliser: number,
  ): Promise<AccumulateStats>;
  /** Optional: forward and backward of the backend's own `loss` (gradients accumulate until `step`). */
  accumulateLoss?(
    batch: readonly TrainSequence[],
    tokens: readonly LossTokens[],
    loss: BackendLoss,
    normaliser: number,
  ): Promise<LossAccumulateStats>;
  /** One optimiser update (clip, AdamW) with this learning rate; zeroes the gradients. */
  step(learningRate: number): Promise<StepStats>;
  /** A frozen copy of the current weights. */
  reference(): Promise<ReferenceScorer>;
  /** Weights and optimiser state to `dir`. */
  save(dir: string): Promise<void>;
  /** Digest of the weights (resume tests compare it). */
  weightsDigest(): string;
  /** Tokens the model has run so far: prompts prefilled, replies decoded, sequences trained and scored. */
  processedTokens(): number;
  dispose(): void;
}

/** A run's trainer backend, and the frozen initial policy for the KL term (opened by open-backend.ts). */
export interface OpenedBackend {
  readonly backend: TrainerBackend;
  initialReference(): Promise<ReferenceScorer>;
}
