// How a remote model's conversations become tokens, and its tokens a reply: a Renderer. The server only sees
// token ids, so the client owns the tokenizer and the chat format; RL needs, besides the prompt of each turn,
// the exact sequences the replies were sampled in (to train on them) and a turn's prompt that extends the
// turn before (so that an episode is one sequence, as with the tiny policy's "segments" history).
//
// The one renderer shipped is "bytes": budgetrl's byte tokenizer and role markers (src/nn/tokenizer.ts), with
// the tiny policy's context rule (src/policies/tiny/context.ts), for models that read bytes: the loopback
// stand-in server's tiny models. A real LLM needs its own tokenizer and chat template: implement `Renderer`
// (for example with @huggingface/tokenizers reading a local tokenizer.json and @huggingface/jinja for the
// chat template; nothing may download at run time) and pass it to `tinkerBackend({ renderer })`.
import type { Message } from "../../core/message.js";
import { decodeTokens, encodeText, END } from "../../nn/tokenizer.js";
import { contextRule, episodeSequences, turnPrompt, type EpisodeMessages, type EpisodeSequence, type History, type PreviousTurn } from "../../policies/tiny/context.js";

export interface Renderer {
  readonly name: string;
  /** Token ids that end a reply (sent as the sampling stop list). */
  readonly stopTokens: readonly number[];
  /** The prompt for the next reply: `conversation` so far (ending with the new observation); `previous` is the
   * same episode's turn before (its prompt and reply tokens), undefined at its first turn or outside an episode. */
  prompt(conversation: readonly Message[], previous?: PreviousTurn): number[];
  /** The sequences an episode's replies were sampled in; replies[t] = turn t's reply tokens as sampled. */
  episodeSequences(episode: EpisodeMessages, replies: readonly (readonly number[])[]): EpisodeSequence[];
  /** The assistant message of sampled tokens (stop tokens included or not). */
  decode(tokens: readonly number[]): Message;
  /** The tokens the model would emit for `reply`, end of turn included (SFT targets, replies without tokens). */
  responseTokens(reply: Message): number[];
}

export const RENDERERS = ["bytes"] as const;
export type RendererName = (typeof RENDERERS)[number];

/** The byte renderer for a model of `contextLength` tokens with replies of at most `maxNewTokens`. */
export function byteRenderer(contextLength: number, maxNewTokens: number, history: History): Renderer {
  const rule = contextRule(contextLength, maxNewTokens, history);
  return {
    name: "bytes",
    stopTokens: [END],
    prompt: (conversation, previous) => turnPrompt(rule, conversation, previous),
    episodeSequences: (episode, replies) => episodeSequences(rule, episode, replies),
    decode: (tokens) => ({ role: "assistant", content: decodeTokens(tokens.filter((token) => token !== END)) }),
    responseTokens: (reply) => [...encodeText(reply.content), END],
  };
}
