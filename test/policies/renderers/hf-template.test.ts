// The chat template core shared by the hf:DIR renderer and `budgetrl serve`: the generation prompt on request,
// a request's variables over the template options, the stop tokens and the tool-call format from the template.
import { describe, expect, it } from "vitest";
import { userMessage } from "../../../src/core/message.js";
import { readHfFiles } from "../../../src/policies/renderers/hf-files.js";
import { hfChatTemplate } from "../../../src/policies/renderers/hf-template.js";
import { END, FIXTURE, fixtureCopy, TOOLS_TEMPLATE } from "./hf-fixture.js";

describe("hf chat template", () => {
  it("renders with or without the generation prompt, the request's variables over the options", () => {
    const folder = fixtureCopy("template-core", { "chat_template.jinja": TOOLS_TEMPLATE });
    const chat = hfChatTemplate(readHfFiles(folder), { templateOptions: { enable_thinking: true } });
    const messages = [userMessage("hi")];
    expect(chat.render(messages, [])).toBe("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
    expect(chat.render(messages, [], { addGenerationPrompt: false })).toBe("<|im_start|>user\nhi<|im_end|>\n");
    expect(chat.render(messages, [], { variables: { enable_thinking: false } })).toMatch(/<think><\/think>$/);
    expect(chat.stopTokens).toEqual([END]);
    expect(chat.format).toBe("hermes");
    expect(hfChatTemplate(readHfFiles(FIXTURE)).format).toBeUndefined();
    expect(chat.decode([])).toBe("");
  });
});
