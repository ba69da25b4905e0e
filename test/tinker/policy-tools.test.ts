// The Tinker policy with the hf renderer and an env that offers tools: prompts carry the tools, a turn extends the
// turn before while the tools stay the same, replies come back with their tool calls, and the sequences RL trains
// on are built from the prompts the replies were sampled after (a prompt rendered from the messages alone would
// have no tools). The fixture is hf-tiny with a template that writes tools (tojson) and tool calls.
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message, ToolSpec } from "../../src/core/message.js";
import { systemMessage, userMessage } from "../../src/core/message.js";
import type { PolicyContext } from "../../src/core/policy.js";
import type { EpisodeMessages } from "../../src/policies/tiny/context.js";
import { readHfFiles } from "../../src/policies/renderers/hf-files.js";
import { hfRenderer } from "../../src/policies/renderers/hf-renderer.js";
import { createTinkerPolicy, type SampleReplies } from "../../src/tinker/policy.js";
import { FIXTURE } from "../policies/renderers/hf-fixture.js";

const TEMPLATE = [
  '{%- if tools %}{{- "<|im_start|>system\\n" }}{%- for tool in tools %}{{- tool | tojson }}{{- "\\n" }}{%- endfor %}{{- "<|im_end|>\\n" }}{%- endif %}',
  '{%- for message in messages %}{{- "<|im_start|>" + message.role + "\\n" + message.content }}',
  '{%- if message.tool_calls %}{%- for call in message.tool_calls %}{{- "<tool_call>" + call.function.name + "</tool_call>" }}{%- endfor %}{%- endif %}',
  '{{- "<|im_end|>\\n" }}{%- endfor %}',
  '{%- if add_generation_prompt %}{{- "<|im_start|>assistant\\n" }}{%- endif %}',
].join("");

function toolsRenderer() {
  const folder = mkdtempSync(join(tmpdir(), "budgetrl-tinker-policy-"));
  for (const file of ["tokenizer.json", "tokenizer_config.json"]) copyFileSync(join(FIXTURE, file), join(folder, file));
  writeFileSync(join(folder, "chat_template.jinja"), TEMPLATE);
  return hfRenderer(`hf:${folder}`, readHfFiles(folder), 4096, 64);
}

const tool = (name: string): ToolSpec => ({
  name,
  description: `${name} a disk`,
  parameters: { type: "object", properties: {} },
});

describe("createTinkerPolicy with tools", () => {
  it("renders with the tools, extends while they stay the same, starts again when they change, and trains on the sampled prompts", async () => {
    const renderer = toolsRenderer();
    const replyText = '<tool_call>\n{"name": "move", "arguments": {}}\n</tool_call>';
    const reply = renderer.responseTokens({ role: "assistant", content: replyText });
    const prompts: number[][] = [];
    const sample: SampleReplies = (prompt, _seed, count) => {
      prompts.push([...prompt]);
      return Promise.resolve(Array.from({ length: count }, () => ({ tokens: reply, logprobs: reply.map(() => -1) })));
    };
    const policy = createTinkerPolicy("tinker:test", renderer, sample);
    const episode = {};
    const first = [tool("move")];
    const second = [tool("move"), tool("stack")];
    const context = (turn: number, tools: readonly ToolSpec[]): PolicyContext =>
      ({ seed: 7, sample: 0, turn, tools, taskId: "t", episode }) as unknown as PolicyContext;

    const conversation: Message[] = [systemMessage("Play."), userMessage("go")];
    const observations: Message[][] = [[systemMessage("Play."), userMessage("go")]];
    const actions: Message[] = [];
    for (const [turn, tools] of [
      [1, first],
      [2, first],
      [3, second],
    ] as const) {
      const act = await policy.act(conversation, context(turn, tools));
      expect(act.message.toolCalls).toEqual([{ id: "call_0", name: "move", arguments: "{}" }]);
      actions.push(act.message);
      const result: Message = { role: "tool", content: `moved ${turn}`, toolCallId: "call_0" };
      conversation.push(act.message, result);
      observations.push([result]);
    }
    const text = (tokens: readonly number[]): string =>
      tokens.map((token) => (token === 259 ? "<|im_end|>" : renderer.decode([token]).content)).join("");
    expect(text(prompts[0]!)).toMatch(/^<\|im_start\|>system\n\{"type": "function", "function": \{"name": "move", /);
    // Turn 2 extends turn 1 (the template's closing and the tool result); turn 3 has new tools, so it is rendered anew.
    expect(prompts[1]!.slice(0, prompts[0]!.length + reply.length)).toEqual([...prompts[0]!, ...reply]);
    expect(text(prompts[1]!.slice(prompts[0]!.length + reply.length))).toBe(
      "\n<|im_start|>tool\nmoved 1<|im_end|>\n<|im_start|>assistant\n",
    );
    expect(text(prompts[2]!)).toContain('"name": "stack"');
    expect(prompts[2]!.slice(0, prompts[1]!.length)).not.toEqual(prompts[1]);

    const messages: EpisodeMessages = {
      preamble: [],
      turns: actions.map((action, t) => ({ observation: observations[t]!, action })),
    };
    const sequences = policy.episodeSequences(
      messages,
      actions.map(() => reply),
    );
    expect(sequences.map((sequence) => sequence.replies.map((span) => span.turn))).toEqual([[0, 1], [2]]);
    expect(sequences[0]!.tokens.slice(0, prompts[1]!.length)).toEqual(prompts[1]);
    expect(sequences[1]!.tokens.slice(0, prompts[2]!.length)).toEqual(prompts[2]);
  });
});
