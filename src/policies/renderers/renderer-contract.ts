// What a renderer does (renderer.ts says which ones there are): a remote model's conversation to prompt tokens,
// the sequences an episode's replies were sampled in, sampled tokens back to a reply. Its own file so that the
// renderers (renderer.ts, hf-renderer.ts) and their users import the contract without importing each other.
import type { Message, ToolSpec } from "../../core/message.js";
import type { EpisodeMessages, EpisodeSequence, PreviousTurn } from "../tiny/context.js";

export interface Renderer {
  readonly name: string;
  /** Token ids that end a reply (sent as the sampling stop list). */
  readonly stopTokens: readonly number[];
  /** The prompt for the next reply: `conversation` so far (ending with the new observation); `previous` is the
   * same episode's turn before (its prompt and reply tokens), undefined at its first turn, outside an episode or
   * when the tools changed since; `tools` are the functions the env offers now (renderers that write them). */
  prompt(conversation: readonly Message[], previous?: PreviousTurn, tools?: readonly ToolSpec[]): number[];
  /** The sequences an episode's replies were sampled in; replies[t] = turn t's reply tokens as sampled, and
   * sampledPrompt(t) the prompt turn t was sampled after where the policy remembers it. */
  episodeSequences(
    episode: EpisodeMessages,
    replies: readonly (readonly number[])[],
    sampledPrompt?: (turn: number) => readonly number[] | undefined,
  ): EpisodeSequence[];
  /** The assistant message of sampled tokens (stop tokens included or not); with `tools` offered, renderers that
   * know the model's format read its tool calls. */
  decode(tokens: readonly number[], tools?: readonly ToolSpec[]): Message;
  /** The tokens the model would emit for `reply`, end of turn included (SFT targets, replies without tokens). */
  responseTokens(reply: Message): number[];
}
