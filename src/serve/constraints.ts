// The constraints of a request's replies, one per choice, sampled token by token (engine.ts): the shape of a
// structured output or of tool_choice "required" / a named function (json-constraint.ts), allowed_token_ids and
// bad_words (token-masks.ts), together. A request whose max_tokens cannot hold the shortest value of its shape is
// refused (400), and so is min_tokens with a shape (the value decides where the reply ends).
import { badRequest } from "./errors.js";
import { createJsonConstraint, shortestReply } from "./json-constraint.js";
import type { SamplingRequest } from "./sampling-options.js";
import type { Shape } from "./schema-shape.js";
import { allOf, allowedTokens, badWords, type TokenConstraint } from "./token-masks.js";
import type { Vocabulary } from "./vocabulary.js";

export interface ShapeAsked {
  readonly shape: Shape;
  /** What the value is, for messages: "a call of f", "a value of response_format". */
  readonly what: string;
  /** The fields that asked for it (min_tokens' refusal names them). */
  readonly fields: string;
}

/** One constraint per choice, or undefined when the replies are free; `room` is the tokens left for a reply. */
export function replyConstraints(
  shape: ShapeAsked | undefined,
  sampling: Pick<SamplingRequest, "allowedTokens" | "badWords" | "stop" | "n">,
  vocabulary: Vocabulary,
  room: number,
): TokenConstraint[] | undefined {
  if (shape !== undefined) {
    if (sampling.stop.minTokens > 0)
      throw badRequest(
        "min_tokens",
        `cannot be combined with ${shape.fields} (the value's JSON decides where the reply ends)`,
      );
    const shortest = shortestReply(shape.shape);
    if (shortest > room)
      throw badRequest(
        "max_tokens",
        `too small for ${shape.what}: the shortest takes ${shortest} tokens (its JSON and the end token), and ${room} are left for the answer`,
      );
  }
  const allowed = sampling.allowedTokens;
  if (shape === undefined && allowed === undefined && sampling.badWords.length === 0) return undefined;
  const each = (): TokenConstraint[] => [
    ...(shape === undefined ? [] : [createJsonConstraint(shape.shape, vocabulary)]),
    ...(allowed === undefined ? [] : [allowedTokens(allowed)]),
    ...(sampling.badWords.length === 0 ? [] : [badWords(sampling.badWords, vocabulary)]),
  ];
  return Array.from({ length: sampling.n }, () => allOf(each(), vocabulary.endTokens));
}
