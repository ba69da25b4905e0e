// The constraints of a request's replies, one per choice, sampled token by token (engine.ts): the form a structured
// output or tool_choice "required" / a named function asks for (a JSON value of a shape: json-constraint.ts; a
// whole reply matching a regex: regex-constraint.ts; a text of a grammar: grammar-constraint.ts), allowed_token_ids
// and bad_words (token-masks.ts), together. max_tokens too small for the shortest reply of the form is not refused:
// the reply is cut and ends with finish_reason "length", as in vLLM. min_tokens with a form is refused (400: the
// form decides where the reply ends).
import { machineConstraint, type ByteMachine } from "./byte-machine.js";
import { badRequest } from "./errors.js";
import { grammarMachine } from "./grammar-constraint.js";
import type { Grammar } from "./grammar.js";
import { jsonMachine } from "./json-constraint.js";
import { regexMachine } from "./regex-constraint.js";
import type { LazyDfa } from "./regex-dfa.js";
import type { SamplingRequest } from "./sampling-options.js";
import type { Shape } from "./schema-shape.js";
import { allOf, allowedTokens, badWords, type TokenConstraint } from "./token-masks.js";
import type { Vocabulary } from "./vocabulary.js";

/** What a reply must be. */
export type ReplyForm =
  | { readonly kind: "json"; readonly shape: Shape }
  | { readonly kind: "regex"; readonly dfa: LazyDfa }
  | { readonly kind: "grammar"; readonly grammar: Grammar };

export interface ShapeAsked {
  readonly form: ReplyForm;
  /** What the value is, for messages: "a call of f", "a value of response_format". */
  readonly what: string;
  /** The fields that asked for it (min_tokens' refusal names them). */
  readonly fields: string;
}

/** The byte machine of a form. */
function formMachine(form: ReplyForm): ByteMachine<unknown> {
  switch (form.kind) {
    case "json":
      return jsonMachine(form.shape) as ByteMachine<unknown>;
    case "regex":
      return regexMachine(form.dfa) as ByteMachine<unknown>;
    case "grammar":
      return grammarMachine(form.grammar) as ByteMachine<unknown>;
  }
}

/** One constraint per choice, or undefined when the replies are free. */
export function replyConstraints(
  asked: ShapeAsked | undefined,
  sampling: Pick<SamplingRequest, "allowedTokens" | "badWords" | "stop" | "n">,
  vocabulary: Vocabulary,
): TokenConstraint[] | undefined {
  if (asked !== undefined && sampling.stop.minTokens > 0)
    throw badRequest(
      "min_tokens",
      `cannot be combined with ${asked.fields} (the reply's form decides where it ends)`,
      "unsupported_combination",
    );
  const allowed = sampling.allowedTokens;
  if (asked === undefined && allowed === undefined && sampling.badWords.length === 0) return undefined;
  const each = (): TokenConstraint[] => [
    ...(asked === undefined ? [] : [machineConstraint(formMachine(asked.form), vocabulary)]),
    ...(allowed === undefined ? [] : [allowedTokens(allowed)]),
    ...(sampling.badWords.length === 0 ? [] : [badWords(sampling.badWords, vocabulary)]),
  ];
  return Array.from({ length: sampling.n }, () => allOf(each(), vocabulary.endTokens));
}
