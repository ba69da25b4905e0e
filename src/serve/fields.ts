// Which request fields `budgetrl serve` takes, as explicit lists, so that no field that would change the answer
// is ever dropped in silence (docs/serve.md has the same lists):
//
//   honoured      read by the endpoint's parser (request.ts, completions.ts, sampling-options.ts)
//   neutral only  fields of OpenAI or vLLM that change the answer in ways serve cannot give: accepted at their
//                 neutral value (the one that changes nothing), refused with a 400 naming them otherwise
//   ignored       fields that never change the answer (who asks, bookkeeping, scheduling), accepted and ignored
//   anything else a 400 naming the field: serve does not know what it would do
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
    logit_bias: { neutral: emptyObject, why: "logit biases are not applied" },
    presence_penalty: { neutral: equals(0), why: "penalties are not applied (temperature and top_p only)" },
    frequency_penalty: { neutral: equals(0), why: "penalties are not applied (temperature and top_p only)" },
    repetition_penalty: { neutral: equals(1), why: "penalties are not applied (temperature and top_p only)" },
    top_k: { neutral: equals(0, -1), why: "top-k truncation is not applied (top_p is)" },
    min_p: { neutral: equals(0), why: "min-p truncation is not applied (top_p is)" },
    response_format: {
      neutral: (value) => isNull(value) || (typeof value === "object" && (value as { type?: unknown }).type === "text"),
      why: 'structured output is only given to tool calls (tool_choice "required" or a named function)',
    },
    guided_json: {
      neutral: isNull,
      why: 'guided decoding is only given to tool calls (tool_choice "required" or a named function)',
    },
    guided_regex: { neutral: isNull, why: "guided decoding is not supported" },
    guided_choice: { neutral: isNull, why: "guided decoding is not supported" },
    guided_grammar: { neutral: isNull, why: "guided decoding is not supported" },
    structured_outputs: {
      neutral: isNull,
      why: 'structured output is only given to tool calls (tool_choice "required" or a named function)',
    },
    prompt_logprobs: {
      neutral: isNull,
      why: "prompt log-probs are not computed (on /v1/completions, echo with logprobs 0 gives each prompt token's log-prob)",
    },
    best_of: { neutral: equals(1), why: "best_of is not supported (sample n choices instead)" },
    use_beam_search: { neutral: equals(false), why: "beam search is not supported" },
    length_penalty: { neutral: equals(1), why: "beam search is not supported" },
    bad_words: { neutral: emptyList, why: "bad words are not masked" },
    allowed_token_ids: { neutral: isNull, why: "allowed token ids are not masked" },
    logits_processors: { neutral: emptyList, why: "logits processors are not supported" },
    skip_special_tokens: { neutral: equals(true), why: "special tokens are never text" },
    truncate_prompt_tokens: {
      neutral: isNull,
      why: "prompts are not truncated (a conversation keeps the context rule of the checkpoint)",
    },
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
    echo: { neutral: equals(false), why: "echo is only supported by /v1/completions" },
    suffix: { neutral: equals(""), why: "suffixes (insertion) are not supported" },
    add_generation_prompt: { neutral: equals(true), why: "the prompt always ends with the assistant marker" },
    continue_final_message: { neutral: equals(false), why: "a final assistant message is not continued" },
    chat_template: { neutral: isNull, why: "the checkpoint's rendering (its context rule) is the only template" },
    chat_template_kwargs: {
      neutral: emptyObject,
      why: "the checkpoint's rendering (its context rule) takes no arguments",
    },
    documents: { neutral: emptyList, why: "documents are not rendered" },
    mm_processor_kwargs: { neutral: emptyObject, why: "only text is supported" },
  };

/** Fields that never change the answer. */
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
];

const HONOURED: Readonly<Record<Endpoint, readonly string[]>> = {
  chat: [
    "model",
    "messages",
    "temperature",
    "top_p",
    "n",
    "max_tokens",
    "max_completion_tokens",
    "seed",
    "stop",
    "stop_token_ids",
    "ignore_eos",
    "min_tokens",
    "include_stop_str_in_output",
    "logprobs",
    "top_logprobs",
    "return_token_ids",
    "return_tokens_as_token_ids",
    "stream",
    "stream_options",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
  ],
  completions: [
    "model",
    "prompt",
    "temperature",
    "top_p",
    "n",
    "max_tokens",
    "seed",
    "stop",
    "stop_token_ids",
    "ignore_eos",
    "min_tokens",
    "include_stop_str_in_output",
    "logprobs",
    "echo",
    "return_token_ids",
    "return_tokens_as_token_ids",
    "stream",
    "stream_options",
  ],
};

/** The neutral-only fields, for the docs and tests. */
export const NEUTRAL_ONLY_FIELDS: readonly string[] = Object.keys(NEUTRAL_ONLY);

/** Refuses (400, naming it) the first field the endpoint does not honour, does not ignore, and that is not at its neutral value. */
export function refuseUnhonoured(raw: Readonly<Record<string, unknown>>, endpoint: Endpoint): void {
  const honoured = HONOURED[endpoint];
  for (const [field, value] of Object.entries(raw)) {
    if (honoured.includes(field) || IGNORED_FIELDS.includes(field)) continue;
    const rule = NEUTRAL_ONLY[field];
    if (rule === undefined)
      throw badRequest(
        field,
        "is not a field budgetrl serve knows, so it is refused rather than ignored (docs/serve.md lists the fields it honours and ignores)",
        "unsupported_field",
      );
    if (!rule.neutral(value))
      throw badRequest(field, `is not supported by budgetrl serve: ${rule.why}`, "unsupported_field");
  }
}
