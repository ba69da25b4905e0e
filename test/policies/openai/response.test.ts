import { describe, expect, it } from "vitest";
import { readChoices, responseProblem } from "../../../src/policies/openai/response.js";

describe("readChoices", () => {
  it("reads OpenAI log-probs as token texts, vLLM token_id:N texts as ids, token_ids and prompt_token_ids", () => {
    const [openai] = readChoices(
      {
        model: "gpt",
        choices: [
          {
            index: 0,
            message: { content: "Up" },
            finish_reason: "stop",
            logprobs: {
              content: [
                { token: "U", logprob: -0.5 },
                { token: "p", logprob: -0.25 },
              ],
            },
          },
        ],
      },
      "call",
    );
    expect(openai).toEqual({
      message: { role: "assistant", content: "Up" },
      logprobs: [-0.5, -0.25],
      tokenTexts: ["U", "p"],
      finishReason: "stop",
      model: "gpt",
    });
    const [vllm] = readChoices(
      {
        prompt_token_ids: [1, 2, 3],
        choices: [
          {
            message: { content: "x" },
            logprobs: {
              content: [
                { token: "token_id:17", logprob: -1 },
                { token: "token_id:4", logprob: -2 },
              ],
            },
          },
        ],
      },
      "call",
    );
    expect(vllm).toMatchObject({ tokens: [17, 4], logprobs: [-1, -2], promptTokens: [1, 2, 3] });
    expect(vllm).not.toHaveProperty("tokenTexts");
    const [ids] = readChoices(
      { choices: [{ message: { content: "x" }, token_ids: [9, 8], prompt_token_ids: [5] }] },
      "call",
    );
    expect(ids).toMatchObject({ tokens: [9, 8], promptTokens: [5] });
  });

  it("turns what the model wrote into replies instead of throwing", () => {
    expect(readChoices({ choices: [] }, "c")).toEqual([]);
    expect(readChoices("not an object", "c")).toEqual([]);
    expect(readChoices({ choices: [{ message: { content: null } }] }, "c")[0]?.message).toEqual({
      role: "assistant",
      content: "",
    });
    const [calls] = readChoices(
      {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [
                { function: { name: "cd", arguments: "{'folder': 1" } },
                { id: "x", function: { name: "no_such_tool", arguments: { folder: "a" } } },
                { id: "y" },
              ],
            },
          },
        ],
      },
      "call_t3",
    );
    expect(calls?.message.toolCalls).toEqual([
      { id: "call_t3_0", name: "cd", arguments: "{'folder': 1" },
      { id: "x", name: "no_such_tool", arguments: '{"folder":"a"}' },
      { id: "y", name: "", arguments: "" },
    ]);
  });

  it("places choices by their index", () => {
    const choices = readChoices(
      {
        choices: [
          { index: 1, message: { content: "b" } },
          { index: 0, message: { content: "a" } },
        ],
      },
      "c",
    );
    expect(choices.map((choice) => choice?.message.content)).toEqual(["a", "b"]);
  });
});

describe("responseProblem", () => {
  const good = { choices: [{ index: 0, message: { role: "assistant", content: "Up" }, finish_reason: "stop" }] };

  it("accepts every chat completion, whatever the model wrote in it", () => {
    expect(responseProblem(good, 1, "application/json")).toBeUndefined();
    const odd = [
      { message: { content: null } },
      { message: {} },
      { message: { content: "", tool_calls: null } },
      {
        message: {
          content: null,
          tool_calls: [
            { function: { name: "no_such_tool", arguments: "{'folder': 1" } },
            { function: { name: "", arguments: { a: 1 } } },
            { function: { name: "cd" } },
          ],
        },
      },
      { message: { content: "<answer>fly</answer>", tool_calls: [] }, finish_reason: "length", logprobs: "garbage" },
    ];
    for (const choice of odd) expect(responseProblem({ choices: [choice] }, 1), JSON.stringify(choice)).toBeUndefined();
    // Choices are placed by index; extra choices beyond n are not read.
    expect(
      responseProblem(
        { choices: [{ index: 1, message: { content: "b" } }, { index: 0, message: { content: "a" } }, 7] },
        2,
      ),
    ).toBeUndefined();
  });

  it("names the first fault of structure, as the end of one sentence", () => {
    const cases: [unknown, number, string | undefined, string][] = [
      ["<html>login</html>", 1, "text/html", 'with a text/html body instead of JSON: "<html>login</html>"'],
      ["plain\n  words", 1, undefined, 'with text instead of JSON: "plain words"'],
      ["Up", 1, "application/json", 'with a string ("Up") instead of a chat completion object'],
      [undefined, 1, undefined, "with an empty body instead of a chat completion"],
      [null, 1, "application/json", "with an empty body instead of a chat completion"],
      [42, 1, "application/json", "with a number (42) instead of a chat completion object"],
      [[good, good], 1, "application/json", "with a JSON array of 2 items instead of a chat completion object"],
      [{ object: "chat.completion" }, 1, undefined, 'without a "choices" list'],
      [{ choices: "Up" }, 1, undefined, 'with "choices" that is a string ("Up"), not a list'],
      [{ choices: [] }, 1, undefined, 'with an empty "choices" list'],
      [
        { choices: [{ index: 3, message: { content: "x" } }] },
        1,
        undefined,
        "without a choice of index 0 (1 asked for, 1 given)",
      ],
      [good, 2, undefined, "without a choice of index 1 (2 asked for, 1 given)"],
      [{ choices: ["Up"] }, 1, undefined, 'with choices[0] that is a string ("Up"), not a choice object'],
      [{ choices: [{ text: "Up" }] }, 1, undefined, "without choices[0].message"],
      [
        { choices: [{ message: "Up" }] },
        1,
        undefined,
        'with choices[0].message that is a string ("Up"), not a message object',
      ],
      [
        { choices: [{ message: { content: 1.5 } }] },
        1,
        undefined,
        "with choices[0].message.content that is a number (1.5), not text",
      ],
      [
        { choices: [{ message: { content: [{ type: "text", text: "Up" }] } }] },
        1,
        undefined,
        "with choices[0].message.content that is an array of 1 item, not text",
      ],
      [
        { choices: [{ message: { content: true } }] },
        1,
        undefined,
        "with choices[0].message.content that is a boolean (true), not text",
      ],
      [
        { choices: [{ message: { tool_calls: "cd" } }] },
        1,
        undefined,
        'with choices[0].message.tool_calls that is a string ("cd"), not a list',
      ],
      [
        { choices: [{ message: { tool_calls: [null] } }] },
        1,
        undefined,
        "with choices[0].message.tool_calls[0] that is null, not a tool call",
      ],
      [
        { choices: [{ message: { tool_calls: [{ function: { name: "cd" } }, { id: "y" }] } }] },
        1,
        undefined,
        "without choices[0].message.tool_calls[1].function",
      ],
      [
        { choices: [{ message: { tool_calls: [{ function: "cd" }] } }] },
        1,
        undefined,
        'with choices[0].message.tool_calls[0].function that is a string ("cd"), not an object',
      ],
      [
        { choices: [{ message: { tool_calls: [{ function: { name: 7 } }] } }] },
        1,
        undefined,
        "with choices[0].message.tool_calls[0].function.name that is a number (7), not text",
      ],
    ];
    for (const [body, n, contentType, problem] of cases)
      expect(responseProblem(body, n, contentType), JSON.stringify(body)).toBe(problem);
  });
});
