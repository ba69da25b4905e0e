// The reply memo keeps exactly the replies whose message loses sampled tokens (invalid UTF-8, role markers, tool
// calls), gives them back for the prompt they answered, forgets the least recently used beyond its capacity, and
// falls back to the message otherwise.
import { describe, expect, it } from "vitest";
import { ASSISTANT, encodeText, END, USER } from "../../src/nn/tokenizer.js";
import { textReplyTokens } from "../../src/policies/tiny/conversation.js";
import { createReplyMemo, givesBack, roundTrips } from "../../src/serve/reply-memo.js";

const reply = (content: string) => ({ role: "assistant" as const, content });

describe("reply memo", () => {
  it("tells replies whose text gives their tokens back from the others", () => {
    expect(roundTrips([...encodeText("Up é"), END])).toBe(true);
    expect(roundTrips(encodeText("cut at the lengt"))).toBe(true);
    expect(roundTrips([0xff, 0x41, END])).toBe(false); // not UTF-8: the text shows U+FFFD
    expect(roundTrips([0xc3, END])).toBe(false); // a character cut in two
    expect(roundTrips([0x41, USER, 0x42, END])).toBe(false); // a role marker in mid-reply: the text drops it
  });

  it("keeps only lossy replies, per prompt they answered, and gives them back in place of their text", () => {
    const memo = createReplyMemo(2);
    const prompt = [USER, 0x41, END, ASSISTANT];
    memo.remember(prompt, [...encodeText("Up"), END]);
    expect(memo.size()).toBe(0);
    const lossy = [0xff, 0x41, END];
    memo.remember(prompt, lossy);
    expect(memo.size()).toBe(1);
    expect(memo.replyTokens(reply("\uFFFDA"), prompt)).toEqual(lossy);
    // Another prompt, or another text: the text's own tokens.
    expect(memo.replyTokens(reply("\uFFFDA"), [USER, END, ASSISTANT])).toEqual(textReplyTokens(reply("\uFFFDA")));
    expect(memo.replyTokens(reply("Up"), prompt)).toEqual([...encodeText("Up"), END]);
  });

  it("keeps a reply answered as tool calls, found again by the message a client sends back", () => {
    const memo = createReplyMemo(4);
    const prompt = [USER, 0x41, END, ASSISTANT];
    const sampled = [...encodeText('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'), END];
    const answered = {
      role: "assistant" as const,
      content: "",
      toolCalls: [{ id: "call_1", name: "f", arguments: "{}" }],
    };
    expect(givesBack(sampled, answered)).toBe(false);
    memo.remember(prompt, sampled, answered);
    // The client's copy: another id, the same call.
    expect(memo.replyTokens({ ...answered, toolCalls: [{ id: "other", name: "f", arguments: "{}" }] }, prompt)).toEqual(
      sampled,
    );
    expect(
      memo.replyTokens({ ...answered, toolCalls: [{ id: "call_1", name: "f", arguments: '{"a": 1}' }] }, prompt),
    ).not.toEqual(sampled);
    // A reply cut by a stop string whose text gives its bytes back is not kept.
    memo.remember(prompt, encodeText("Up"), reply("Up"));
    expect(memo.size()).toBe(1);
  });

  it("forgets the least recently used beyond its capacity; capacity 0 keeps nothing", () => {
    const memo = createReplyMemo(2);
    const prompts = [
      [USER, 1, ASSISTANT],
      [USER, 2, ASSISTANT],
      [USER, 3, ASSISTANT],
    ];
    prompts.slice(0, 2).forEach((prompt) => memo.remember(prompt, [0xff, END]));
    expect(memo.replyTokens(reply("\uFFFD"), prompts[0]!)).toEqual([0xff, END]); // now the most recent
    memo.remember(prompts[2]!, [0xfe, END]);
    expect(memo.size()).toBe(2);
    expect(memo.replyTokens(reply("\uFFFD"), prompts[0]!)).toEqual([0xff, END]);
    expect(memo.replyTokens(reply("\uFFFD"), prompts[1]!)).toEqual(textReplyTokens(reply("\uFFFD")));
    const none = createReplyMemo(0);
    none.remember(prompts[0]!, [0xff, END]);
    expect(none.size()).toBe(0);
  });
});
