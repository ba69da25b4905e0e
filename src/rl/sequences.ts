// From episodes to training sequences. The conversation a policy saw before turn t is rebuilt exactly as the
// rollout engine built it (preamble, then each turn's observation and reply); the policy renders it into the
// same prompt tokens it sampled from, and the turn's sampled tokens are the response.
import type { Episode } from "../core/episode.js";
import type { Message } from "../core/message.js";
import type { TrainablePolicy, TrainSequence } from "./backend.js";

/** The conversation before each turn of an episode: index t holds what the policy saw at turn t + 1. */
export function conversationsBeforeTurns(episode: Pick<Episode, "preamble" | "turns">): Message[][] {
  const conversation: Message[] = [...episode.preamble];
  const out: Message[][] = [];
  for (const turn of episode.turns) {
    conversation.push(...turn.observation);
    out.push([...conversation]);
    conversation.push(turn.action);
  }
  return out;
}

export interface PolicyExample {
  readonly sequence: TrainSequence;
  /** Behaviour log-probs of the response tokens (from the rollout). */
  readonly oldLogprobs: Float32Array;
  /** The advantage of the turn, on every response token. */
  readonly advantage: number;
}

/** One example per turn that carries sampled tokens; `advantages[t]` is turn t's advantage. */
export function policyExamples(episode: Episode, advantages: readonly number[], policy: TrainablePolicy): PolicyExample[] {
  const conversations = conversationsBeforeTurns(episode);
  const out: PolicyExample[] = [];
  episode.turns.forEach((turn, t) => {
    if (turn.tokens === undefined || turn.tokens.length === 0) return;
    const prompt = policy.promptTokens(conversations[t] as Message[]);
    out.push({
      sequence: { tokens: [...prompt, ...turn.tokens], responseStart: prompt.length },
      oldLogprobs: Float32Array.from(turn.logprobs ?? []),
      advantage: advantages[t] as number,
    });
  });
  return out;
}
