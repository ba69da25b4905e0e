// Which request fields `budgetrl serve` takes, as explicit lists (docs/serve.md has the same lists, field by field,
// beside vLLM's behaviour):
//
//   honoured      read by the endpoint's parser (request.ts, completions.ts, sampling-options.ts,
//                 structured-output.ts)
//   neutral only  fields of OpenAI or vLLM that change the answer in ways serve cannot give: accepted at their
//                 neutral value (the one that changes nothing), refused with a 400 naming them otherwise
//   ignored       fields that never change the answer here (who asks, bookkeeping, scheduling, backend tuning)
//   anything else unknown: ignored, as vLLM ignores fields it does not know (its pydantic models allow extras and
//                 log them); the server logs one warning line and names them in the response header
//                 x-ignored-fields. With --strict, a 400 naming the field instead.
import { badRequest } from "./errors.js";

export type Endpoint = "chat" | "completions";

const isNull = (value: unknown): boolean => value === null || value === undefined;
const emptyObject = (value: unknown): boolean =>
  isNull(value) || (typeof value === "object" && !Array.isArray(value) && Object.keys(value as object).length === 0);
const emptyList = (value: unknown): boolean => isNull(value) || (Array.isArray(value) && value.length === 0);
const equals =
  (...neutral: readonly unknown[]) =>
  (value: unknown): boolean =>
    isNull(value) || neutral.includes(value);

/** Fields that change the answer, with the test of their neutral value; the reason serve cannot honour others. */
const NEUTRAL_ONLY: Readonly<Record<string, { readonly neutral: (value: unknown) => boolean; readonly why: string }>> =
  {
    best_of: { neutral: equals(1), why: "best_of is not supported (sample n choices instead)" },
    use_beam_search: { neutral: equals(false), why: "beam search is not supported" },
    length_penalty: { neutral: equals(1), why: "beam search is not supported" },
    logits_processors: { neutral: emptyList, why: "logits processors are not supported" },
    skip_special_tokens: { neutral: equals(true), why: "special tokens are never text" },
    vllm_xargs: { neutral: emptyObject, why: "extra sampling arguments are not supported" },
    prediction: { neutral: isNull, why: "predicted outputs are not supported" },
    audio: { neutral: isNull, why: "audio is not supported" },
    modalities: {
      neutral: (value) => isNull(value) || (Array.isArray(value) && value.every((one) => one === "text")),
      why: "only text is supported",
    },
    web_search_options: { neutral: isNull, why: "web search is not supported" },
    functions: { neutral: emptyList, why: "the legacy functions field is not supported (use tools)" },
    function_call: {
      neutral: equals("none"),
      why: "the legacy function_call field is not supported (use tool_choice)",
    },
    suffix: { neutral: equals(""), why: "suffixes (insertion) are not supported" },
    chat_template: {
      neutral: isNull,
      why: "a request cannot bring its own chat template (the server's renderer renders every conversation)",
    },
    mm_processor_kwargs: { neutral: emptyObject, why: "only text is supported" },
    prompt_embeds: { neutral: isNull, why: "prompts are tokens or text, not embeddings" },
    structural_tag: { neutral: isNull, why: "structural tags are not supported (use response_format json_schema)" },
  };

/** Fields that never change the answer here. */
export const IGNORED_FIELDS: readonly string[] = [
  "user",
  "metadata",
  "store",
  "service_tier",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "request_id",
  "priority",
  "cache_salt",
  "kv_transfer_params",
  "spaces_between_special_tokens",
  "add_special_tokens",
  "return_token_strs",
  // Our models do not reason: a chat template without reasoning ignores these in vLLM too.
  "reasoning_effort",
  "include_reasoning",
  // Backend tuning of structured outputs: the reply is compact JSON whatever they say.
  "guided_decoding_backend",
  "guided_whitespace_pattern",
];

const SAMPLING = [
  "model",
  "temperature",
  "top_p",
  "top_k",
  "min_p",
  "n",
  "max_tokens",
  "seed",
  "stop",
  "stop_token_ids",
  "ignore_eos",
  "min_tokens",
  "include_stop_str_in_output",
  "repetition_penalty",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "allowed_token_ids",
  "bad_words",
  "truncate_prompt_tokens",
  "logprobs",
  "prompt_logprobs",
  "echo",
  "return_token_ids",
  "return_tokens_as_token_ids",
  "stream",
  "stream_options",
  "response_format",
  "structured_outputs",
  "guided_json",
  "guided_choice",
  "guided_regex",
  "guided_grammar",
];

const HONOURED: Readonly<Record<Endpoint, readonly string[]>> = {
  chat: [
    ...SAMPLING,
    "messages",
    "max_completion_tokens",
    "top_logprobs",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "chat_template_kwargs",
    "add_generation_prompt",
    "continue_final_message",
    "documents",
  ],
  completions: [...SAMPLING, "prompt"],
};

/** The neutral-only fields, for the docs and tests. */
export const NEUTRAL_ONLY_FIELDS: readonly string[] = Object.keys(NEUTRAL_ONLY);

/** The fields an endpoint honours, for the docs and tests. */
export function honouredFields(endpoint: Endpoint): readonly string[] {
  return HONOURED[endpoint];
}

/**
 * Checks a body's fields: refuses (400, naming it) a neutral-only field at another value, and, with `strict`, a
 * field the endpoint does not know; returns the unknown fields, which are ignored (sorted).
 */
export function checkFields(raw: Readonly<Record<string, unknown>>, endpoint: Endpoint, strict = false): string[] {
  const honoured = HONOURED[endpoint];
  const unknown: string[] = [];
  for (const [field, value] of Object.entries(raw)) {
    if (honoured.includes(field) || IGNORED_FIELDS.includes(field)) continue;
    const rule = NEUTRAL_ONLY[field];
    if (rule === undefined) {
      if (strict)
        throw badRequest(
          field,
          "is not a field budgetrl serve knows, so it is refused rather than ignored (--strict; docs/serve.md lists the fields it honours and ignores)",
          "unsupported_field",
        );
      unknown.push(field);
    } else if (!rule.neutral(value))
      throw badRequest(field, `is not supported by budgetrl serve: ${rule.why}`, "unsupported_field");
  }
  return unknown.sort();
}
