// The context rule (segments, the only one): each turn's prompt extends the previous prompt and reply (an end
// token added to a cut reply) until the budget is reached, then starts again from the new messages, and an
// episode's sequences are its segments. A checkpoint of the retired window history is refused with a hint.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { ASSISTANT, encodeText, END } from "../../../src/nn/tokenizer.js";
import {
  contextRule,
  episodeSequences,
  refuseRetiredHistory,
  turnPrompt,
  type EpisodeMessages,
} from "../../../src/policies/tiny/context.js";
import { renderMessage, renderPrompt } from "../../../src/policies/tiny/render.js";

const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });

/** An episode of `turns` turns with 20-byte observations and replies "r<t>" (cut: no end token on turn 1). */
function episode(turns: number): { messages: EpisodeMessages; replies: number[][] } {
  const replies = Array.from({ length: turns }, (_, t) => [...encodeText(`r${t}`), ...(t === 1 ? [] : [END])]);
  return {
    messages: {
      preamble: [{ role: "system", content: "rules" }],
      turns: replies.map((_, t) => ({
        observation: [user(`observation ${String(t).padStart(8, "0")}`)],
        action: assistant(`r${t}`),
      })),
    },
    replies,
  };
}

describe("context rule", () => {
  it("keeps the whole answer room, but never more than half the context", () => {
    expect(contextRule(256, 16).budget).toBe(240);
    expect(contextRule(20, 16).budget).toBe(10);
  });

  it("extends each prompt with the reply as sampled and the new messages, then starts a new segment at the budget", () => {
    const { messages, replies } = episode(6);
    const rule = contextRule(100, 8); // budget 92: three turns per segment (30, 56, 82 tokens; a fourth would make 108)
    const sequences = episodeSequences(rule, messages, replies);
    expect(sequences.map((s) => s.replies.map((r) => r.turn))).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    const first = sequences[0]!;
    const obs = (t: number): number[] => renderMessage(messages.turns[t]!.observation[0]!);
    expect(first.tokens).toEqual([
      ...renderMessage(messages.preamble[0]!),
      ...obs(0),
      ASSISTANT,
      ...replies[0]!,
      ...obs(1),
      ASSISTANT,
      ...replies[1]!,
      END, // turn 1's reply was cut: its end token is context, not reply
      ...obs(2),
      ASSISTANT,
      ...replies[2]!,
    ]);
    first.replies.forEach((span) => expect(first.tokens.slice(span.start, span.end)).toEqual(replies[span.turn]));
    // A new segment holds only the new messages (no system prompt, no earlier turns).
    expect(sequences[1]!.tokens.slice(0, obs(3).length + 1)).toEqual([...obs(3), ASSISTANT]);
    sequences.forEach((s) =>
      expect(s.tokens.length - (s.replies.at(-1)!.end - s.replies.at(-1)!.start)).toBeLessThanOrEqual(rule.budget),
    );
  });

  it("gives the prompts the policy sees turn by turn", () => {
    const { messages, replies } = episode(4);
    const rule = contextRule(120, 8);
    const conversation: Message[] = [...messages.preamble];
    let previous;
    const prompts: number[][] = [];
    for (const [t, turn] of messages.turns.entries()) {
      conversation.push(...turn.observation);
      const prompt = turnPrompt(rule, conversation, previous);
      if (t === 0) expect(prompt).toEqual(renderPrompt(conversation, rule.budget));
      prompts.push(prompt);
      conversation.push(turn.action);
      previous = { prompt, reply: replies[t]!, messages: conversation.length };
    }
    const sequences = episodeSequences(rule, messages, replies);
    for (const sequence of sequences) {
      for (const span of sequence.replies) expect(sequence.tokens.slice(0, span.start)).toEqual(prompts[span.turn]);
    }
  });

  it("refuses a checkpoint of the retired window history (or none recorded) with a one-line hint, and accepts segments", () => {
    expect(() => refuseRetiredHistory("ck/policy.json", "segments")).not.toThrow();
    const hint =
      /; retrain it \(budgetrl sft \/ train\), or add "history": "segments" to the file to play it under segments anyway \(it then sees prompts it was not trained on\)$/;
    expect(() => refuseRetiredHistory("ck/policy.json", "window")).toThrow(
      /^ck\/policy\.json records the retired 'window' history; /,
    );
    expect(() => refuseRetiredHistory("ck/policy.json", "window")).toThrow(hint);
    expect(() => refuseRetiredHistory("ck/policy.json", undefined)).toThrow(
      /^ck\/policy\.json records no history: the checkpoint was trained under the retired 'window' history; retrain it/,
    );
    expect(() => refuseRetiredHistory("ck/policy.json", undefined)).toThrow(hint);
    expect(() => refuseRetiredHistory("ck/policy.json", "everything")).toThrow(
      /^ck\/policy\.json: history must be "segments" \(the one context rule\), got "everything"$/,
    );
    for (const recorded of ["window", undefined]) {
      try {
        refuseRetiredHistory("ck/policy.json", recorded);
      } catch (error) {
        expect((error as Error).message).not.toContain("\n");
      }
    }
  });
});
