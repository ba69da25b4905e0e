// POST /tokenize and POST /detokenize, in vLLM's shapes:
//
//   /tokenize    {model?, prompt, add_special_tokens?, return_token_strs?}: the prompt's tokens as the vocabulary
//                encodes text (no special tokens added, so add_special_tokens changes nothing);
//                {model?, messages, add_generation_prompt? (true), continue_final_message?, tools?,
//                chat_template_kwargs?, return_token_strs?, max_tokens?}: the prompt a chat request with these
//                fields is answered from (the renderer's; under the tiny context rule at the request's or default
//                max_tokens: chat.ts chatPrompt). The length is not checked against the context, as vLLM does not.
//                -> {count, max_model_len, tokens, token_strs?}
//   /detokenize  {model?, tokens} -> {prompt}: the tokens' text, special tokens spelled out ("<|end|>"), as a
//                Hugging Face tokenizer decodes by default. With the bytes renderer text never gives special tokens
//                back: "<|end|>" is seven bytes, so a round trip keeps byte tokens only.
// `model`, when given, must be the served one (404); a token id outside the vocabulary is a 400.
import { z } from "zod";
import type { JsonObject } from "../core/json.js";
import { chatPrompt, type ChatContext } from "./chat.js";
import { badRequest } from "./errors.js";
import { parseChatRequest } from "./request.js";
import { tokenText } from "./response.js";

export interface TokenizeContext extends Pick<ChatContext, "model" | "settings" | "renderer"> {
  /** The served model's name. */
  readonly name: string;
}

const common = {
  model: z.string().nullable().optional(),
  return_token_strs: z.boolean().nullable().optional(),
  add_special_tokens: z.boolean().nullable().optional(),
};
const textBody = z.object({ ...common, prompt: z.string({ error: "expected a string" }) }).strict();
const chatBody = z
  .object({
    ...common,
    messages: z.array(z.unknown(), { error: "expected an array of messages" }),
    add_generation_prompt: z.boolean().nullable().optional(),
    continue_final_message: z.boolean().nullable().optional(),
    max_tokens: z.number().int().min(1).nullable().optional(),
    tools: z.array(z.unknown()).nullable().optional(),
    chat_template: z.null({ error: "is not supported: the server's renderer is the only template" }).optional(),
    chat_template_kwargs: z.record(z.string(), z.unknown()).nullable().optional(),
    documents: z.array(z.unknown()).nullable().optional(),
  })
  .strict();
const detokenizeSchema = z
  .object({
    model: z.string().nullable().optional(),
    tokens: z.array(z.number().int().min(0), { error: "expected an array of token ids" }),
  })
  .strict();

function parsed<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw badRequest(null, "the body must be a JSON object");
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === "unrecognized_keys")
    throw badRequest(issue.keys[0]!, "is not a field of this endpoint", "unsupported_field");
  const param = issue.path.map(String).join(".") || "body";
  throw badRequest(
    param,
    issue.code === "invalid_type" && (raw as Record<string, unknown>)[String(issue.path[0])] === undefined
      ? "is required"
      : issue.message,
  );
}

/** The model a body names, if any: the served one or an HttpError (404). */
export type CheckModel = (name: string | null | undefined) => void;

export function tokenizeBody(context: TokenizeContext, raw: unknown, checkModel: CheckModel): JsonObject {
  const isChat = raw !== null && typeof raw === "object" && "messages" in raw;
  let tokens: number[];
  let body: { model?: string | null | undefined; return_token_strs?: boolean | null | undefined };
  if (isChat) {
    const chat = parsed(chatBody, raw);
    checkModel(chat.model);
    // The fields are read as a chat request reads them (their errors name messages[i], tools[i], ...).
    const {
      model: _model,
      return_token_strs: _strs,
      add_special_tokens: _special,
      chat_template: _t,
      ...fields
    } = chat;
    const request = parseChatRequest({ ...fields, model: "" }, 1, context.model.config.vocabSize, {
      vocabulary: context.renderer.vocabulary,
      strict: true,
    });
    tokens =
      context.settings.contextRule === "tiny"
        ? chatPrompt(context, request, request.sampling.maxTokens).prompt
        : context.renderer.render(request).prompt;
    body = chat;
  } else {
    const text = parsed(textBody, raw);
    checkModel(text.model);
    tokens = context.renderer.vocabulary.encode(text.prompt);
    body = text;
  }
  return {
    count: tokens.length,
    max_model_len: context.model.config.contextLength,
    tokens,
    ...(body.return_token_strs === true
      ? {
          token_strs: tokens.map((token) =>
            tokenText(token, { tokensAsIds: false, vocabulary: context.renderer.vocabulary }),
          ),
        }
      : {}),
  };
}

export function detokenizeBody(context: TokenizeContext, raw: unknown, checkModel: CheckModel): JsonObject {
  const body = parsed(detokenizeSchema, raw);
  checkModel(body.model);
  const vocab = context.model.config.vocabSize;
  const bad = body.tokens.findIndex((token) => token >= vocab);
  if (bad >= 0) throw badRequest(`tokens[${bad}]`, `not a token of this model (its ids are 0..${vocab - 1})`);
  return { prompt: context.renderer.vocabulary.describe(body.tokens) };
}
