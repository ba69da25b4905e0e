// The log-probs object of text completions (OpenAI's legacy shape, as vLLM writes it), pure functions:
//   {tokens, token_logprobs, top_logprobs, text_offset}, one row per token: its text (or "token_id:N"), its
//   log-prob, an object of the token and the k most likely tokens with their log-probs, and the character offset
//   of its text in the choice's text. An echoed prompt comes first: its first token has no log-prob (null), the
//   others the model's scoring (prompt-logprobs.ts) and the k most likely tokens there.
import type { JsonObject } from "../core/json.js";
import type { SampledChoice } from "./engine.js";
import type { PromptPosition } from "./prompt-logprobs.js";
import { finiteLogprob, tokenText } from "./response.js";
import type { Vocabulary } from "./vocabulary.js";

// A type, not an interface: its fields are JSON, so that it is a JsonObject as it is.
export type LogprobRows = {
  readonly tokens: string[];
  readonly token_logprobs: (number | null)[];
  readonly top_logprobs: (JsonObject | null)[];
  readonly text_offset: number[];
};

export const emptyRows = (): LogprobRows => ({ tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] });

/** How tokens are written: by id or by text, in the vocabulary. */
export interface RowFlags {
  readonly tokensAsIds: boolean;
  readonly vocabulary: Vocabulary;
}

/** Character offsets of tokens in a text, token by token: each token's offset is the text decoded before it. */
export function offsetCounter(start: number, vocabulary: Vocabulary): (token: number) => number {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let length = start;
  return (token) => {
    const at = length;
    length += decoder.decode(Uint8Array.from(vocabulary.bytes(token)), { stream: true }).length;
    return at;
  };
}

/** Character offsets of each token's text within the text of `tokens`, from `start` on. */
export function textOffsets(tokens: readonly number[], start: number, vocabulary: Vocabulary): number[] {
  return tokens.map(offsetCounter(start, vocabulary));
}

/** The rows of a sampled choice's tokens. */
export function completionRows(
  choice: Pick<SampledChoice, "tokens" | "logprobs" | "alternatives">,
  flags: RowFlags,
  offsets: readonly number[],
): LogprobRows {
  const rows = emptyRows();
  choice.tokens.forEach((token, i) => {
    rows.tokens.push(tokenText(token, flags));
    rows.token_logprobs.push(finiteLogprob(choice.logprobs[i]!));
    const top: Record<string, number> = { [tokenText(token, flags)]: finiteLogprob(choice.logprobs[i]!) };
    for (const alt of choice.alternatives?.[i] ?? []) top[tokenText(alt.token, flags)] ??= finiteLogprob(alt.logprob);
    rows.top_logprobs.push(top);
    rows.text_offset.push(offsets[i]!);
  });
  return rows;
}

/** The rows of an echoed prompt from its scored positions (prompt-logprobs.ts): the first token has none. */
export function promptRows(
  tokens: readonly number[],
  positions: readonly PromptPosition[],
  flags: RowFlags,
): LogprobRows {
  const rows = emptyRows();
  const offsets = textOffsets(tokens, 0, flags.vocabulary);
  tokens.forEach((token, i) => {
    const text = tokenText(token, flags);
    const position = i === 0 ? undefined : positions[i - 1];
    rows.tokens.push(text);
    rows.token_logprobs.push(position === undefined ? null : finiteLogprob(position.logprob));
    if (position === undefined) rows.top_logprobs.push(null);
    else {
      const top: Record<string, number> = { [text]: finiteLogprob(position.logprob) };
      for (const alt of position.best) top[tokenText(alt.token, flags)] ??= finiteLogprob(alt.logprob);
      rows.top_logprobs.push(top);
    }
    rows.text_offset.push(offsets[i]!);
  });
  return rows;
}

export const joinRows = (a: LogprobRows, b: LogprobRows): LogprobRows => ({
  tokens: [...a.tokens, ...b.tokens],
  token_logprobs: [...a.token_logprobs, ...b.token_logprobs],
  top_logprobs: [...a.top_logprobs, ...b.top_logprobs],
  text_offset: [...a.text_offset, ...b.text_offset],
});
