// Where the Tinker backend's log-probs come from (the requests themselves: scoring.ts):
//   current    the current weights' log-probs of response tokens: a forward_only pass on the training model, or,
//              once the service has stripped log-probs from forward_backward results (the hosted one may), the
//              current weights' sampling session (prompt_logprobs): noticed, said once, and from then on no forward
//              pass is sent for log-probs alone
//   sampler    a sampling session scored sequence by sequence (asample with prompt_logprobs), with the
//              limiter's concurrency
//   frozen     a reference scorer (the KL term's): a new sampling session on frozen weights, the base model or
//              sampler weights saved from the current state
import type { ReferenceScorer, TrainSequence } from "../../backend.js";
import * as api from "../../../tinker/operations.js";
import { forwardScores, samplerScore } from "./scoring.js";
import type { TinkerSession } from "./session.js";

export interface LogprobSource {
  /** The current weights' log-probs of each sequence's response tokens. */
  current(batch: readonly TrainSequence[]): Promise<Float32Array[]>;
  /** The log-probs through a sampling session, one request per sequence. */
  onSampler(samplingSessionId: string, batch: readonly TrainSequence[]): Promise<Float32Array[]>;
  /** Says (once) that the service strips log-probs from forward_backward results; `current` then uses the sampler. */
  stripped(): void;
  /** A reference scorer on frozen weights: the base model, or saved sampler weights. */
  frozen(source: { readonly baseModel: string } | { readonly modelPath: string }): Promise<ReferenceScorer>;
}

const STRIPPED_NOTICE =
  "tinker: the service returned forward_backward results without log-probs; the log-probs training needs (the loss coefficients, importance ratios and clip statistics) now come from a sampling session on the same weights (asample with prompt_logprobs, as the SDK's compute_logprobs), one request per sequence";

/** Tokens of a batch, as the token count sees them. */
export function batchTokens(batch: readonly TrainSequence[]): number {
  return batch.reduce((sum, sequence) => sum + sequence.tokens.length, 0);
}

export function logprobSource(session: TinkerSession, requestTokens: number): LogprobSource {
  const { client } = session;
  let stripped = false;
  const onSampler = (samplingSessionId: string, batch: readonly TrainSequence[]): Promise<Float32Array[]> =>
    Promise.all(
      batch.map((sequence) =>
        session.limiter.run(async () => {
          session.counts.tokens += sequence.tokens.length + 1;
          return samplerScore(client, samplingSessionId, session.nextSample(), sequence);
        }),
      ),
    );
  const source: LogprobSource = {
    async current(batch) {
      if (!stripped) {
        session.counts.tokens += batchTokens(batch);
        const scored = await forwardScores(client, session.modelId, session.nextTrain, batch, requestTokens);
        if (scored !== undefined) return scored;
        source.stripped();
      }
      return onSampler(await session.currentSampler(), batch);
    },
    onSampler,
    stripped() {
      if (stripped) return;
      stripped = true;
      client.notice({ level: "warning", message: STRIPPED_NOTICE });
    },
    async frozen(weights) {
      const samplingSessionId = await api.createSamplingSession(
        client,
        session.sessionId,
        session.nextSampler(),
        weights,
      );
      return { logprobs: (batch) => onSampler(samplingSessionId, batch), dispose: () => undefined };
    },
  };
  return source;
}
