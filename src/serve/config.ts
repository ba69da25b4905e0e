// The configuration of `budgetrl serve`, declared once: validated before the checkpoint is loaded (errors name
// the field); the CLI's flags, help and defaults come from it.
import { z } from "zod";
import { parseConfig } from "../core/config.js";
import { DEFAULT_MAX_BATCH } from "../policies/tiny/policy.js";
import { TOOL_CALL_FORMATS } from "../policies/tool-call-text.js";
import { templateOptionsField, TOOL_CALL_OPTIONS } from "../policies/renderers/hf-options.js";
import { CONTEXT_RULES } from "./chat.js";
import { LOGPROBS_MODES } from "./engine.js";

/** Where a server listens (`serve`, `env-server`): loopback by default. */
export const listenFields = {
  host: z
    .string()
    .min(1)
    .default("127.0.0.1")
    .describe("address to listen on (loopback by default; 0.0.0.0 for every interface)"),
  port: z.number().int().min(0).max(65535).default(8000).describe("port to listen on (0: a free one, printed)"),
};

export const serveConfigSchema = z
  .object({
    ckpt: z.string().min(1).describe("checkpoint folder to serve (budgetrl sft / train), with its policy.json"),
    ...listenFields,
    name: z.string().min(1).optional().describe("the model name clients send (default: the --ckpt path as given)"),
    maxTokens: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        "answer length when a request sets no max_tokens (default: the rest of the context, as vLLM; with --context-rule tiny the checkpoint's maxNewTokens)",
      ),
    contextRule: z
      .enum(CONTEXT_RULES)
      .default("vllm")
      .describe(
        "vllm: the whole conversation is the prompt, one longer than the context gets vLLM's 400; tiny: the tiny policy's context rule (older messages dropped, the checkpoint's answer length by default), so that --policy openai:... with seedScheme=tiny equals tiny:CKPT",
      ),
    cutLongMessages: z
      .boolean()
      .default(false)
      .describe(
        "with --context-rule tiny: keep the newest bytes of a last message longer than the context, as the in-process policy does, instead of answering 400",
      ),
    strict: z
      .boolean()
      .default(false)
      .describe(
        "refuse request fields serve does not know (400 naming the field) instead of ignoring them with a warning, as vLLM does",
      ),
    renderer: z
      .string()
      .min(1)
      .optional()
      .describe(
        "how conversations become tokens: bytes (the tiny policy's) or hf:DIR (a Hugging Face tokenizer and chat template copied into DIR); default: the one the checkpoint was trained with (policy.json), else bytes",
      ),
    templateOptions: templateOptionsField,
    toolCallFormat: z
      .enum(TOOL_CALL_OPTIONS)
      .optional()
      .describe(
        "hf renderer: how replies' tool calls are read: hermes, llama3-json, none, or auto (from the chat template); default: the checkpoint's, else auto",
      ),
    logprobsMode: z
      .enum(LOGPROBS_MODES)
      .default("raw")
      .describe(
        "log-probs under the model at temperature 1 (raw, as tiny:CKPT and vLLM) or under the distribution sampled from (processed)",
      ),
    maxN: z.number().int().min(1).max(1024).default(128).describe("most choices (n) per request"),
    maxBatch: z
      .number()
      .int()
      .min(1)
      .default(DEFAULT_MAX_BATCH)
      .describe("most sequences per model call (concurrent requests are batched)"),
    maxQueue: z
      .number()
      .int()
      .min(1)
      .default(1024)
      .describe("most sequences waiting for the model; beyond it requests get 429 with Retry-After"),
    maxRequestBytes: z
      .number()
      .int()
      .min(1024)
      .default(4 * 1024 * 1024)
      .describe(
        "largest request body in bytes: a larger one is a 413, refused as soon as its Content-Length or its bytes pass the limit, never held whole",
      ),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .describe(
        "require Authorization: Bearer KEY on every /v1 path (a 401 without it), as vLLM's --api-key; default: the environment's BUDGETRL_API_KEY, else VLLM_API_KEY, else none (the variables keep the key out of the process list)",
      ),
    sessions: z
      .number()
      .int()
      .min(0)
      .default(256)
      .describe(
        "KV caches kept for conversations' next turns, so a turn prefills only its new tokens (each holds 2 x layers x context x dModel floats; 0: none, every request prefills its whole prompt)",
      ),
    replyMemo: z
      .number()
      .int()
      .min(0)
      .default(65536)
      .describe(
        "replies whose message loses sampled tokens (invalid UTF-8, tool calls) kept to prompt as tiny:CKPT does (0: none)",
      ),
    toolCallParser: z
      .enum(TOOL_CALL_FORMATS)
      .default("hermes")
      .describe(
        'bytes renderer: how replies are read as tool calls with tool_choice auto: hermes (<tool_call>{...}</tool_call> blocks, as vLLM\'s hermes parser) or llama3-json ({"name": ..., "parameters": ...} objects, as vLLM\'s llama3_json)',
      ),
  })
  .refine((config) => config.maxN <= config.maxQueue, {
    path: ["maxQueue"],
    error: "must be at least the most choices per request (--max-n): a request of n choices waits as n sequences",
  });

export type ServeConfig = z.output<typeof serveConfigSchema>;

/** Validate a serve config; throws ConfigError naming the field. */
export function parseServeConfig(input: unknown): Readonly<ServeConfig> {
  return parseConfig(serveConfigSchema, input);
}
