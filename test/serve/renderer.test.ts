// The bytes renderer: the tiny policy's rendering of the whole conversation (or under the tiny context rule),
// without the assistant header with add_generation_prompt false, inside the last message with
// continue_final_message; documents refused (it has no template to write them).
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/message.js";
import { ASSISTANT, encodeText, END, USER } from "../../src/nn/tokenizer.js";
import { HttpError } from "../../src/serve/errors.js";
import { byteRenderer, type RenderInput } from "../../src/serve/renderer.js";
import { createReplyMemo } from "../../src/serve/reply-memo.js";

const renderer = byteRenderer({
  contextLength: 64,
  vocabSize: 260,
  memo: createReplyMemo(0),
  toolCallFormat: "hermes",
  cutLongMessages: false,
});
const input = (messages: readonly Message[], extra: Partial<RenderInput> = {}): RenderInput => ({
  messages,
  tools: [],
  addGenerationPrompt: true,
  continueFinalMessage: false,
  templateKwargs: {},
  documents: [],
  ...extra,
});
const user = (content: string): Message => ({ role: "user", content });

describe("bytes renderer", () => {
  it("renders the whole conversation, with or without the assistant header, or inside the last message", () => {
    const hi = [USER, ...encodeText("hi"), END];
    expect(renderer.render(input([user("hi")])).prompt).toEqual([...hi, ASSISTANT]);
    expect(renderer.render(input([user("hi")], { addGenerationPrompt: false })).prompt).toEqual(hi);
    const continued = renderer.render(
      input([user("hi"), { role: "assistant", content: "It is" }], {
        addGenerationPrompt: false,
        continueFinalMessage: true,
      }),
    );
    expect(continued.prompt).toEqual([...hi, ASSISTANT, ...encodeText("It is")]);
    const long = Array.from({ length: 10 }, (_, i) => user(`message number ${i}`));
    expect(renderer.render(input(long)).prompt.length).toBeGreaterThan(64);
    expect(renderer.render(input(long, { answerRoom: 16 })).prompt.length).toBeLessThanOrEqual(48);
  });

  it("changes nothing for template variables, and refuses documents", () => {
    expect(renderer.render(input([user("hi")], { templateKwargs: { enable_thinking: false } })).prompt).toEqual(
      renderer.render(input([user("hi")])).prompt,
    );
    expect(() => renderer.render(input([user("hi")], { documents: [{ text: "x" }] }))).toThrow(HttpError);
    expect(renderer.vocabulary.endTokens).toEqual([END]);
  });
});
