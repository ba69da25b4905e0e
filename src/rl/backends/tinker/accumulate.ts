// The Tinker backend's gradient passes, a minibatch sent in chunks of at most `requestTokens` tokens:
//   accumulate      the current log-probs of a chunk (logprobs.ts) -> the caller's coefficients c_t ->
//                   forward_backward with cross_entropy and weights c_t / N: loss = -sum_t (c_t / N) log p_t, exactly
//                   the interface's objective (KL included); two passes per chunk, the SDK's forward_backward_custom
//                   pattern. The backward pass's log-probs are not needed: checked when present, never missed
//   accumulateLoss  forward_backward with the server's ppo (clip thresholds 1 - clipLow, 1 + clipHigh) or
//                   importance_sampling loss on advantages A_t / N: Tinker's losses are sums over tokens, so scaling
//                   the advantages gives rl/update.ts's token mean; one pass, no KL. The statistics need the
//                   log-probs the gradient was taken at: the current weights' sampler has them when the results do
//                   not (no optim_step in between)
// Values are divided in float32, as the in-process kernel computes c_t / N. The server reports no entropy (NaN).
import * as api from "../../../tinker/operations.js";
import {
  responseLength,
  type AccumulateStats,
  type BackendLoss,
  type CoefficientFunction,
  type LossAccumulateStats,
  type LossTokens,
  type TrainSequence,
} from "../../backend.js";
import { tokenChunks } from "../token-chunks.js";
import { crossEntropyDatum, policyLossDatum, responseLogprobs } from "./datum.js";
import { batchTokens, type LogprobSource } from "./logprobs.js";
import type { TinkerSession } from "./session.js";

/** Float32 values divided by the normaliser, in float32. */
function scaled(values: ArrayLike<number>, normaliser: number): Float32Array {
  return Float32Array.from(values, (value) => Math.fround(value / normaliser));
}

/** Forward, the caller's coefficients, backward: gradients accumulate on the server until optim_step. */
export async function accumulateCoefficients(
  session: TinkerSession,
  logprobs: LogprobSource,
  requestTokens: number,
  batch: readonly TrainSequence[],
  coefficientsFor: CoefficientFunction,
  normaliser: number,
): Promise<AccumulateStats> {
  let first = 0;
  let tokens = 0;
  for (const part of tokenChunks(batch, requestTokens)) {
    const coefficients = coefficientsFor(await logprobs.current(part), first);
    const data = part.map((sequence, i) => crossEntropyDatum(sequence, scaled(coefficients[i]!, normaliser)));
    session.counts.tokens += batchTokens(part);
    responseLogprobs(
      await api.forwardBackward(session.client, session.modelId, session.nextTrain(), {
        data,
        loss_fn: "cross_entropy",
      }),
      part,
    );
    tokens += part.reduce((sum, sequence) => sum + responseLength(sequence), 0);
    first += part.length;
  }
  return { entropy: Number.NaN, tokens };
}

/** The server's own policy-gradient loss: one forward_backward per chunk, with the log-probs it was taken at. */
export async function accumulateServerLoss(
  session: TinkerSession,
  logprobs: LogprobSource,
  requestTokens: number,
  batch: readonly TrainSequence[],
  inputs: readonly LossTokens[],
  loss: BackendLoss,
  normaliser: number,
): Promise<LossAccumulateStats> {
  const config =
    loss.name === "ppo"
      ? { loss_fn_config: { clip_low_threshold: 1 - loss.clipLow, clip_high_threshold: 1 + loss.clipHigh } }
      : {};
  const out: Float32Array[] = [];
  let first = 0;
  for (const part of tokenChunks(batch, requestTokens)) {
    const data = part.map((sequence, i) => {
      const { oldLogprobs, advantages } = inputs[first + i]!;
      return policyLossDatum(sequence, oldLogprobs, scaled(advantages, normaliser));
    });
    session.counts.tokens += batchTokens(part);
    const output = await api.forwardBackward(session.client, session.modelId, session.nextTrain(), {
      data,
      loss_fn: loss.name,
      ...config,
    });
    let scored = responseLogprobs(output, part);
    if (scored === undefined) logprobs.stripped();
    scored ??= await logprobs.onSampler(await session.currentSampler(), part);
    out.push(...scored);
    first += part.length;
  }
  return { entropy: Number.NaN, tokens: out.reduce((sum, values) => sum + values.length, 0), logprobs: out };
}
