// Conversation rendering and the context-window rule.
import { describe, expect, it } from "vitest";
import { ASSISTANT, describeTokens, END, SYSTEM, USER } from "../../../src/nn/tokenizer.js";
import { renderMessage, renderPrompt } from "../../../src/policies/tiny/render.js";

const conversation = [
  { role: "system", content: "rules" },
  { role: "user", content: "grid 1" },
  { role: "assistant", content: "up" },
  { role: "user", content: "grid 2" },
] as const;

describe("renderPrompt", () => {
  it("renders roles with special tokens and ends with the assistant marker", () => {
    expect(describeTokens(renderPrompt(conversation, 256))).toBe(
      "<|system|>rules<|end|><|user|>grid 1<|end|><|assistant|>up<|end|><|user|>grid 2<|end|><|assistant|>",
    );
    expect(renderMessage({ role: "tool", content: "42", toolCallId: "c1" })).toEqual([
      USER,
      ...Buffer.from("[tool] 42"),
      END,
    ]);
    expect(
      describeTokens(
        renderMessage({ role: "assistant", content: "", toolCalls: [{ id: "1", name: "add", arguments: '{"a":1}' }] }),
      ),
    ).toBe('<|assistant|>\n<call add>{"a":1}<|end|>');
  });

  it("keeps the newest whole messages that fit", () => {
    // user "grid 2" = 8 tokens, assistant "up" = 4, user "grid 1" = 8, + final marker 1.
    expect(describeTokens(renderPrompt(conversation, 13))).toBe(
      "<|assistant|>up<|end|><|user|>grid 2<|end|><|assistant|>",
    );
    expect(describeTokens(renderPrompt(conversation, 20))).toBe(
      "<|assistant|>up<|end|><|user|>grid 2<|end|><|assistant|>",
    );
    expect(describeTokens(renderPrompt(conversation, 21))).toBe(
      "<|user|>grid 1<|end|><|assistant|>up<|end|><|user|>grid 2<|end|><|assistant|>",
    );
  });

  it("keeps the newest bytes of a newest message that alone is too long", () => {
    const tokens = renderPrompt([{ role: "user", content: "abcdefghij" }], 8);
    expect(tokens).toHaveLength(8);
    expect(describeTokens(tokens)).toBe("<|user|>fghij<|end|><|assistant|>");
    expect(renderPrompt([{ role: "system", content: "x" }], 4)).toEqual([SYSTEM, 120, END, ASSISTANT]);
  });
});
