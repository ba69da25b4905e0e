// Masks on every token of a reply, for the request fields that restrict what a reply may write, sampled token by
// token (engine.ts stepwise) as the JSON constraint is:
//
//   allowed_token_ids  the reply's tokens are among these (stop tokens too: without the end token in the list, a
//                      reply runs to max_tokens, as in vLLM)
//   bad_words          vLLM's rule: each word as the tokenizer writes it, and with a space before it; a one-token
//                      word is never sampled, the last token of a longer one is masked right after its others
// Several constraints on one reply (these and a structured output) allow the tokens all of them allow; when none
// is left, the end tokens (so that the reply ends rather than fails).
import type { Vocabulary } from "./vocabulary.js";

/** What the engine asks of a constraint before and after each token of a reply. */
export interface TokenConstraint {
  /** The tokens the next one may be (1: allowed), `remaining` tokens left (this one and the end token included). */
  mask(remaining: number, vocab: number): Uint8Array;
  /** The token sampled. */
  advance(token: number): void;
}

export function allowedTokens(tokens: readonly number[]): TokenConstraint {
  return {
    mask(_remaining, vocab) {
      const mask = new Uint8Array(vocab);
      for (const token of tokens) if (token < vocab) mask[token] = 1;
      return mask;
    },
    advance: () => undefined,
  };
}

export function badWords(words: readonly string[], vocabulary: Vocabulary): TokenConstraint {
  const spelled = words.flatMap((word) => [vocabulary.encode(word), vocabulary.encode(` ${word}`)]);
  const sequences = spelled.filter((tokens) => tokens.length > 0);
  const reply: number[] = [];
  const endsWith = (prefix: readonly number[]): boolean =>
    prefix.length <= reply.length && prefix.every((token, i) => reply[reply.length - prefix.length + i] === token);
  return {
    mask(_remaining, vocab) {
      const mask = new Uint8Array(vocab).fill(1);
      for (const tokens of sequences) if (endsWith(tokens.slice(0, -1))) mask[tokens[tokens.length - 1]!] = 0;
      return mask;
    },
    advance: (token) => void reply.push(token),
  };
}

/** The constraints together: a token is allowed when each allows it (none left: the end tokens). */
export function allOf(constraints: readonly TokenConstraint[], endTokens: readonly number[]): TokenConstraint {
  if (constraints.length === 1) return constraints[0]!;
  return {
    mask(remaining, vocab) {
      const mask = new Uint8Array(vocab).fill(1);
      for (const constraint of constraints) {
        const own = constraint.mask(remaining, vocab);
        for (let token = 0; token < vocab; token++) mask[token] = mask[token]! & own[token]!;
      }
      if (mask.every((allowed) => allowed === 0)) for (const end of endTokens) if (end < vocab) mask[end] = 1;
      return mask;
    },
    advance(token) {
      for (const constraint of constraints) constraint.advance(token);
    },
  };
}
