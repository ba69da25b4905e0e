// Where a reply stops, and how much of it the client sees, as vLLM does it (pure functions):
//
//   stop              strings; a reply whose sampled tokens end with one of them (its UTF-8 bytes) stops there;
//                     the string is left out of the text unless include_stop_str_in_output
//   stop_token_ids    token ids; sampling one stops the reply; left out of the text likewise
//   the end token     <|end|> (an hf renderer's stop tokens) stops the reply unless ignore_eos (it is never text)
//   min_tokens        before a reply has this many tokens, stop tokens cannot be sampled (the model masks them)
//                     and no stop string ends it
//
// The stop's tokens stay in the reply's token ids, log-probs and usage (they were sampled, as in vLLM); only the
// text leaves them out. `stop_reason` is the string or the token id that stopped the reply, null for the end
// token or a reply that ran out of room. Stop strings match tokens as sampled: the byte tokenizer's bytes (a role
// marker sampled in mid-text, which the text drops, breaks a match); with an hf renderer, the tokens its tokenizer
// writes the string with (a reply that spells it with other tokens does not stop).
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

const BYTES = byteVocabulary(260);

export interface StopRule {
  /** The stop strings, with their bytes. */
  readonly strings: readonly { readonly text: string; readonly tokens: readonly number[] }[];
  /** Tokens that stop a reply: stop_token_ids, then the end tokens unless ignore_eos. */
  readonly tokens: readonly number[];
  /** The vocabulary's end tokens (a reply they stop has no stop_reason, and they are never text). */
  readonly ends: readonly number[];
  readonly minTokens: number;
  readonly includeInOutput: boolean;
}

export interface StopFields {
  readonly stop?: readonly string[];
  readonly stopTokenIds?: readonly number[];
  readonly ignoreEos?: boolean;
  readonly minTokens?: number;
  readonly includeStopStrInOutput?: boolean;
}

export function stopRule(fields: StopFields, vocabulary: Vocabulary = BYTES): StopRule {
  const ends = vocabulary.endTokens;
  const tokens = [...new Set([...(fields.stopTokenIds ?? []), ...(fields.ignoreEos === true ? [] : ends)])];
  return {
    strings: (fields.stop ?? []).map((text) => ({ text, tokens: vocabulary.encode(text) })),
    tokens,
    ends,
    minTokens: fields.minTokens ?? 0,
    includeInOutput: fields.includeStopStrInOutput ?? false,
  };
}

/** How a reply ended: the tokens its text is made of, why it stopped. */
export interface StopHit {
  /** The first `textTokens` tokens give the text (specials dropped). */
  readonly textTokens: number;
  /** The stop string or token id; null for the end token. */
  readonly reason: string | number | null;
}

function endsWith(tokens: readonly number[], suffix: readonly number[]): boolean {
  return (
    suffix.length > 0 &&
    suffix.length <= tokens.length &&
    suffix.every((token, i) => tokens[tokens.length - suffix.length + i] === token)
  );
}

/**
 * The stop that ends `tokens` (a reply whose last token was just sampled), or undefined: stop tokens first, then
 * stop strings (as vLLM checks them), none before minTokens.
 */
export function stopAt(tokens: readonly number[], rule: StopRule): StopHit | undefined {
  if (tokens.length === 0 || tokens.length < rule.minTokens) return undefined;
  const last = tokens[tokens.length - 1]!;
  if (rule.tokens.includes(last)) {
    const end = rule.ends.includes(last);
    const keep = rule.includeInOutput || end ? tokens.length : tokens.length - 1;
    return { textTokens: keep, reason: end ? null : last };
  }
  const string = rule.strings.find((candidate) => endsWith(tokens, candidate.tokens));
  if (string === undefined) return undefined;
  return {
    textTokens: rule.includeInOutput ? tokens.length : tokens.length - string.tokens.length,
    reason: string.text,
  };
}

/**
 * How many of the last tokens might still become a stop string's start (the longest suffix that is a proper
 * prefix of one): a stream holds their text back until it knows.
 */
export function heldForStop(tokens: readonly number[], rule: StopRule): number {
  if (rule.includeInOutput) return 0;
  let held = 0;
  for (const { tokens: stop } of rule.strings) {
    for (let length = Math.min(stop.length - 1, tokens.length); length > held; length--) {
      if (stop.slice(0, length).every((token, i) => tokens[tokens.length - length + i] === token)) {
        held = length;
        break;
      }
    }
  }
  return held;
}
