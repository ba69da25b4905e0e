// Logit biases and repetition penalties (OpenAI's and vLLM's), applied to one row of logits before temperature and
// truncation, in vLLM's order: biases first, then the penalties.
//
//   logit bias           l_i += bias_i                                        (OpenAI: -100..100 per token id)
//   repetition penalty   l_i / r when l_i > 0, else l_i * r, for every token i in the prompt or the reply so far
//                        (r > 1 discourages repeats; 1: none)                 (vLLM, from the CTRL paper)
//   frequency penalty    l_i -= f * count_i, count_i = times i is in the reply so far  (OpenAI and vLLM)
//   presence penalty     l_i -= p when i is in the reply so far                        (OpenAI and vLLM)
//
// Pure and deterministic: the penalised row depends on the logits, the settings and the tokens only. The model's
// own log-probs (what RL and `logprobs` report) stay those of the raw logits; only the draw reads these.

export interface Penalties {
  /** vLLM's repetition_penalty: 1 is none. */
  readonly repetition: number;
  /** OpenAI's presence_penalty: 0 is none. */
  readonly presence: number;
  /** OpenAI's frequency_penalty: 0 is none. */
  readonly frequency: number;
  /** [token id, bias] pairs (OpenAI's logit_bias). */
  readonly logitBias: readonly (readonly [number, number])[];
}

/** What a row's penalties read: the prompt's tokens (the repetition penalty's) and the reply's tokens so far. */
export interface PenaltyHistory {
  readonly prompt: readonly number[];
  readonly reply: readonly number[];
}

export const NO_PENALTIES: Penalties = Object.freeze({ repetition: 1, presence: 0, frequency: 0, logitBias: [] });

/** True when the penalties change a row. */
export function penalises(penalties: Penalties | undefined): penalties is Penalties {
  return (
    penalties !== undefined &&
    (penalties.repetition !== 1 ||
      penalties.presence !== 0 ||
      penalties.frequency !== 0 ||
      penalties.logitBias.length > 0)
  );
}

/** A copy of the row with the biases and penalties applied; `reply` the reply so far (history's and this call's). */
export function penalisedLogits(
  logits: Float32Array,
  penalties: Penalties,
  prompt: readonly number[],
  reply: readonly number[],
): Float32Array {
  const V = logits.length;
  const out = Float32Array.from(logits);
  for (const [token, bias] of penalties.logitBias) if (token >= 0 && token < V) out[token] = out[token]! + bias;
  if (penalties.repetition !== 1) {
    const seen = new Set<number>();
    for (const token of prompt) seen.add(token);
    for (const token of reply) seen.add(token);
    for (const token of seen) {
      if (token < 0 || token >= V) continue;
      const value = out[token]!;
      out[token] = value > 0 ? value / penalties.repetition : value * penalties.repetition;
    }
  }
  if (penalties.presence !== 0 || penalties.frequency !== 0) {
    const counts = new Map<number, number>();
    for (const token of reply) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, count] of counts) {
      if (token < 0 || token >= V) continue;
      out[token] = out[token]! - penalties.frequency * count - penalties.presence;
    }
  }
  return out;
}
