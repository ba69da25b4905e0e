// The tiny in-process transformer as a policy: conversation rendering, the context rule (what it sees of an
// episode, and the sequences RL and SFT train on), its replay over a whole conversation (serve), the batching
// of sampling calls and the batching Policy adapter.
export { renderMessage, renderPrompt } from "./render.js";
export {
  contextRule,
  DEFAULT_MAX_NEW_TOKENS,
  episodeSequences,
  HISTORY,
  refuseRetiredHistory,
  turnPrompt,
  type ContextRule,
  type EpisodeMessages,
  type EpisodeSequence,
  type PreviousTurn,
  type ReplySpan,
} from "./context.js";
export {
  conversationPrompt,
  conversationTurn,
  textReplyTokens,
  type ConversationTurn,
  type ReplyTokens,
} from "./conversation.js";
export { createSampleBatcher, type SampleBatcher, type SampleRow, type SampleSettings } from "./batcher.js";
export { createTinyPolicy, policySeed, type TinyPolicy, type TinyPolicyOptions } from "./policy.js";
