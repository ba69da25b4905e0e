// How a remote model's conversations become tokens, and its tokens a reply: a Renderer. The server only sees
// token ids, so the client owns the tokenizer and the chat format; RL needs, besides the prompt of each turn,
// the exact sequences the replies were sampled in (to train on them) and a turn's prompt that extends the
// turn before (so that an episode is one sequence, as with the tiny policy's segments history).
//
// Two renderers, named by the train config's `renderer` field (renderer-names.ts checks a name):
// - "bytes": budgetrl's byte tokenizer and role markers (src/nn/tokenizer.ts), with the tiny policy's context
//   rule (src/policies/tiny/context.ts), for models that read bytes: the loopback stand-in server's tiny models.
// - "hf:DIR": a real LLM's Hugging Face tokenizer and chat template, read from the model's tokenizer.json and
//   tokenizer_config.json (chat_template.jinja, generation_config.json when present) copied into DIR: nothing
//   downloads (hf-files.ts reads them, hf-renderer.ts renders with the env's tools and the template options of
//   hf-options.ts, and reads tool calls back from replies; each turn's prompt extends
//   the turn before's prompt and reply, earlier reasoning kept, so an episode is one sequence: hf-extend.ts).
// A library user may also pass any other `Renderer` (renderer-contract.ts) to `openTinkerBackend({ renderer })`.
import { ConfigError } from "../../core/errors.js";
import { decodeTokens, encodeText, END } from "../../nn/tokenizer.js";
import { contextRule, episodeSequences, turnPrompt } from "../tiny/context.js";
import { hfRendererDir, readHfFiles } from "./hf-files.js";
import { DEFAULT_HF_RENDERER_OPTIONS, type HfRendererOptions } from "./hf-options.js";
import { hfRenderer } from "./hf-renderer.js";
import type { Renderer } from "./renderer-contract.js";
import { rendererNameProblem } from "./renderer-names.js";

export type { Renderer } from "./renderer-contract.js";

/**
 * The renderer of a name, for the backend to build once it knows the context length. An "hf:DIR" folder is
 * read here, at once, so that a bad one is refused before any request (ConfigError naming `renderer`); `options`
 * are read by hf renderers only.
 */
export function openRenderer(
  name: string,
  maxNewTokens: number,
  options: HfRendererOptions = DEFAULT_HF_RENDERER_OPTIONS,
): (contextLength: number) => Renderer {
  const dir = hfRendererDir(name);
  if (dir !== undefined) {
    const files = readHfFiles(dir);
    return (contextLength) => hfRenderer(name, files, contextLength, maxNewTokens, options);
  }
  const problem = rendererNameProblem(name);
  if (problem !== undefined) throw new ConfigError("renderer", problem);
  return (contextLength) => byteRenderer(contextLength, maxNewTokens);
}

/** The byte renderer for a model of `contextLength` tokens with replies of at most `maxNewTokens`. */
export function byteRenderer(contextLength: number, maxNewTokens: number): Renderer {
  const rule = contextRule(contextLength, maxNewTokens);
  return {
    name: "bytes",
    stopTokens: [END],
    prompt: (conversation, previous) => turnPrompt(rule, conversation, previous),
    episodeSequences: (episode, replies) => episodeSequences(rule, episode, replies),
    decode: (tokens) => ({ role: "assistant", content: decodeTokens(tokens.filter((token) => token !== END)) }),
    responseTokens: (reply) => [...encodeText(reply.content), END],
  };
}
