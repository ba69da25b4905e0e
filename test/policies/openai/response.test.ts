import { describe, expect, it } from "vitest";
import { readChoices } from "../../../src/policies/openai/response.js";

describe("readChoices", () => {
  it("reads OpenAI log-probs as token texts, vLLM token_id:N texts as ids, token_ids and prompt_token_ids", () => {
    const [openai] = readChoices({ model: "gpt", choices: [{ index: 0, message: { content: "Up" }, finish_reason: "stop", logprobs: { content: [{ token: "U", logprob: -0.5 }, { token: "p", logprob: -0.25 }] } }] }, "call");
    expect(openai).toEqual({ message: { role: "assistant", content: "Up" }, logprobs: [-0.5, -0.25], tokenTexts: ["U", "p"], finishReason: "stop", model: "gpt" });
    const [vllm] = readChoices({ prompt_token_ids: [1, 2, 3], choices: [{ message: { content: "x" }, logprobs: { content: [{ token: "token_id:17", logprob: -1 }, { token: "token_id:4", logprob: -2 }] } }] }, "call");
    expect(vllm).toMatchObject({ tokens: [17, 4], logprobs: [-1, -2], promptTokens: [1, 2, 3] });
    expect(vllm).not.toHaveProperty("tokenTexts");
    const [ids] = readChoices({ choices: [{ message: { content: "x" }, token_ids: [9, 8], prompt_token_ids: [5] }] }, "call");
    expect(ids).toMatchObject({ tokens: [9, 8], promptTokens: [5] });
  });

  it("turns garbage into replies instead of throwing", () => {
    expect(readChoices({ choices: [] }, "c")).toEqual([]);
    expect(readChoices("not an object", "c")).toEqual([]);
    expect(readChoices({ choices: [{ message: { content: null } }] }, "c")[0]?.message).toEqual({ role: "assistant", content: "" });
    const [calls] = readChoices(
      { choices: [{ message: { content: null, tool_calls: [{ function: { name: "cd", arguments: "{'folder': 1" } }, { id: "x", function: { name: "no_such_tool", arguments: { folder: "a" } } }, { id: "y" }] } }] },
      "call_t3",
    );
    expect(calls?.message.toolCalls).toEqual([
      { id: "call_t3_0", name: "cd", arguments: "{'folder': 1" },
      { id: "x", name: "no_such_tool", arguments: '{"folder":"a"}' },
      { id: "y", name: "", arguments: "" },
    ]);
  });

  it("places choices by their index", () => {
    const choices = readChoices({ choices: [{ index: 1, message: { content: "b" } }, { index: 0, message: { content: "a" } }] }, "c");
    expect(choices.map((choice) => choice?.message.content)).toEqual(["a", "b"]);
  });
});
