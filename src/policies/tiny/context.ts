// What the tiny policy conditions on at each turn of an episode (the context rule), as pure functions of the
// episode so far: the policy samples with them, and RL and SFT rebuild with them the exact token sequences
// the replies were (or would be) sampled in.
//
// The prompt may use `budget` = contextLength - min(maxNewTokens, contextLength / 2) tokens (the rest is room
// for the answer). One history, "segments": the episode is one growing sequence, kept in the model's KV cache
//   between turns. Turn t's prompt is turn t-1's prompt, its sampled reply (its tokens as sampled, an end token added if the
//   reply was cut), the new messages (the observation with its budget text) and <|assistant|>: only those new
//   tokens are prefilled. When that would pass the budget, a new segment starts: the prompt is the new
//   messages alone (whole messages, newest first; the system prompt only at the first turn), and the cache
//   starts again. Every token of an episode is processed once when sampling and once when training (each
//   segment is one training sequence).
// The retired window history (every turn re-rendered the newest messages that fit and was its own training
// sequence) is refused where a checkpoint records it: refuseRetiredHistory.
import type { Message } from "../../core/message.js";
import { ASSISTANT, END } from "../../nn/tokenizer.js";
import { DataError } from "../../core/errors.js";
import { renderMessage, renderPrompt } from "./render.js";

/** The context rule sft and train record in a checkpoint (policy.json, a Tinker manifest): the only one there is. */
export const HISTORY = "segments";

/**
 * Throws a DataError, one line with a hint, unless the history a checkpoint's settings file (`record`: its
 * policy.json or Tinker manifest) records is "segments". `recorded` undefined: the file predates the rule's
 * record, so the checkpoint was trained under the retired window history. Editing the file plays the
 * checkpoint under segments, but it learnt on other prompts (each turn re-rendered): the hint says so.
 */
export function refuseRetiredHistory(record: string, recorded: unknown): void {
  if (recorded === HISTORY) return;
  if (recorded !== undefined && recorded !== "window")
    throw new DataError(
      `${record}: history must be "segments" (the one context rule), got ${JSON.stringify(recorded)}`,
    );
  const found =
    recorded === undefined
      ? "records no history: the checkpoint was trained under the retired 'window' history"
      : "records the retired 'window' history";
  throw new DataError(
    `${record} ${found}; retrain it (budgetrl sft / train), or add "history": "segments" to the file to play it under segments anyway (it then sees prompts it was not trained on)`,
  );
}
/** Longest reply in tokens (bytes), the one default of the policy, its RL backend and checkpoints' policy.json. */
export const DEFAULT_MAX_NEW_TOKENS = 16;

export interface ContextRule {
  /** Most tokens a prompt may hold. */
  readonly budget: number;
}

/** The rule for a model context and an answer length: all of maxNewTokens is kept free, but never more than half the context. */
export function contextRule(contextLength: number, maxNewTokens: number): ContextRule {
  return { budget: contextLength - Math.min(maxNewTokens, Math.floor(contextLength / 2)) };
}

/** The turn before: its prompt, its reply tokens, and how many messages of the conversation they cover (the reply included). */
export interface PreviousTurn {
  readonly prompt: readonly number[];
  readonly reply: readonly number[];
  readonly messages: number;
}

/**
 * The prompt of the next turn for `conversation` (everything so far, ending with the new observation);
 * `previous` is the turn before in the same episode (undefined at the first turn).
 */
export function turnPrompt(rule: ContextRule, conversation: readonly Message[], previous?: PreviousTurn): number[] {
  if (previous === undefined) return renderPrompt(conversation, rule.budget);
  const fresh = conversation.slice(previous.messages);
  const extension = [...(previous.reply.at(-1) === END ? [] : [END]), ...fresh.flatMap(renderMessage), ASSISTANT];
  if (previous.prompt.length + previous.reply.length + extension.length <= rule.budget)
    return [...previous.prompt, ...previous.reply, ...extension];
  return renderPrompt(fresh, rule.budget);
}

/** Turn `turn`'s reply occupies tokens[start, end) of its sequence. */
export interface ReplySpan {
  readonly turn: number;
  readonly start: number;
  readonly end: number;
}

/** One sequence the policy sampled replies in: a prompt, then replies and the tokens between them. */
export interface EpisodeSequence {
  readonly tokens: readonly number[];
  readonly replies: readonly ReplySpan[];
}

/** An episode as the policy saw it: the preamble, then per turn the new messages and the reply message. */
export interface EpisodeMessages {
  readonly preamble: readonly Message[];
  readonly turns: readonly { readonly observation: readonly Message[]; readonly action: Message }[];
}

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  return prefix.length <= tokens.length && prefix.every((token, i) => tokens[i] === token);
}

/** The prompt of an episode's turn `turn` (0-based) from the conversation so far and the turn before (a renderer's `prompt`). */
export type TurnPrompter = (
  conversation: readonly Message[],
  previous: PreviousTurn | undefined,
  turn: number,
) => number[];

/**
 * The sequences an episode's replies were sampled in, `replies[t]` being turn t's reply tokens: a turn joins
 * the sequence before while its prompt extends it (one sequence per segment).
 */
export function episodeSequences(
  rule: ContextRule,
  episode: EpisodeMessages,
  replies: readonly (readonly number[])[],
): EpisodeSequence[] {
  return promptSequences((conversation, previous) => turnPrompt(rule, conversation, previous), episode, replies, true);
}

/**
 * The sequences of an episode whose turn prompts come from `prompter`: with `join`, a turn joins the sequence
 * before when its prompt starts with that sequence's tokens (the earlier prompts and replies as sampled), and a
 * turn whose prompt does not starts a new sequence; without, every turn is its own sequence. Each reply's span
 * marks where its tokens sit in its sequence.
 */
export function promptSequences(
  prompter: TurnPrompter,
  episode: EpisodeMessages,
  replies: readonly (readonly number[])[],
  join: boolean,
): EpisodeSequence[] {
  const conversation: Message[] = [...episode.preamble];
  const out: { tokens: number[]; replies: ReplySpan[] }[] = [];
  let previous: PreviousTurn | undefined;
  episode.turns.forEach((turn, t) => {
    conversation.push(...turn.observation);
    const prompt = prompter(conversation, previous, t);
    const reply = replies[t] ?? [];
    const current = out[out.length - 1];
    if (join && current !== undefined && startsWith(prompt, current.tokens))
      current.tokens.push(...prompt.slice(current.tokens.length));
    else out.push({ tokens: [...prompt], replies: [] });
    const sequence = out[out.length - 1]!;
    sequence.replies.push({ turn: t, start: sequence.tokens.length, end: sequence.tokens.length + reply.length });
    sequence.tokens.push(...reply);
    conversation.push(turn.action);
    previous = { prompt, reply, messages: conversation.length };
  });
  return out;
}
