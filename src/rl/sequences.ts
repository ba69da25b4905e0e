// From episodes to training examples. The policy says in which token sequences it sampled an episode's
// replies (policies/tiny/context.ts: one sequence per segment of the episode); each reply's tokens are the sampled ones, at the place they were sampled, so the
// log-probs a training pass computes for them are the behaviour log-probs (up to float rounding).
import type { Episode } from "../core/episode.js";
import type { ResponseSpan, TrainablePolicy, TrainSequence } from "./backend.js";

export interface PolicyExample {
  readonly sequence: TrainSequence;
  /** Behaviour log-probs of the response tokens (from the rollout), in order. */
  readonly oldLogprobs: Float32Array;
  /** Per response token, the advantage of its turn. */
  readonly advantages: Float32Array;
}

/**
 * One example per sequence the policy sampled the episode in; its responses are the replies of turns that
 * carry sampled tokens and a nonzero advantage (`advantages[t]` is turn t's). Turns without them stay in the
 * sequence as context; a sequence is cut after its last response, and dropped when it has none.
 */
export function policyExamples(
  episode: Episode,
  advantages: readonly number[],
  policy: TrainablePolicy,
): PolicyExample[] {
  const replies = episode.turns.map((turn) =>
    turn.tokens !== undefined && turn.tokens.length > 0 ? turn.tokens : policy.responseTokens(turn.action),
  );
  const trained = (t: number): boolean => (episode.turns[t]?.tokens?.length ?? 0) > 0 && advantages[t] !== 0;
  const out: PolicyExample[] = [];
  for (const sequence of policy.episodeSequences(episode, replies)) {
    const spans = sequence.replies.filter((span) => trained(span.turn));
    if (spans.length === 0) continue;
    const responses: ResponseSpan[] = spans.map(({ start, end }) => ({ start, end }));
    out.push({
      sequence: { tokens: sequence.tokens.slice(0, spans[spans.length - 1]!.end), responses },
      oldLogprobs: Float32Array.from(spans.flatMap((span) => episode.turns[span.turn]!.logprobs ?? [])),
      advantages: Float32Array.from(
        spans.flatMap((span) => Array.from({ length: span.end - span.start }, () => advantages[span.turn]!)),
      ),
    });
  }
  return out;
}
