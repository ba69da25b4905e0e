// The hf:DIR renderer on a hand-made tokenizer (hf-fixture.ts: fixtures/hf-tiny, 260 ids, a ChatML template).
// Expected texts and ids below are written from the template and the fixture's table by hand. Training through the
// loopback stand-in with this renderer: hf-renderer-train.test.ts.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { assistantMessage, userMessage, type Message, type ToolSpec } from "../../../src/core/message.js";
import type { EpisodeMessages } from "../../../src/policies/tiny/context.js";
import { parseTrainConfig } from "../../../src/rl/train-config.js";
import { readHfFiles } from "../../../src/policies/renderers/hf-files.js";
import { hfRenderer, templateMessage, turnStarts } from "../../../src/policies/renderers/hf-renderer.js";
import { openRenderer, type Renderer } from "../../../src/policies/renderers/renderer.js";
import { bytes, END, episode, FIXTURE, fixtureCopy, NL, START, system, TOOLS_TEMPLATE } from "./hf-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-hf-renderer-"));
const renderer = (contextLength = 4096, maxNewTokens = 16, folder = FIXTURE): Renderer =>
  hfRenderer(`hf:${folder}`, readHfFiles(folder), contextLength, maxNewTokens);
/** The fixture's renderer, built once for promptText (a renderer builds its tokenizer). */
let decoder: Renderer | undefined;
/** The prompt's text with its special tokens (decode strips only the stop token <|im_end|>, so put them back). */
const promptText = (tokens: readonly number[]): string => {
  decoder ??= renderer();
  const text = decoder;
  return tokens.map((token) => (token === END ? "<|im_end|>" : text.decode([token]).content)).join("");
};

const toolsFolder = fixtureCopy("tools", { "chat_template.jinja": TOOLS_TEMPLATE });
const moveTool: ToolSpec = {
  name: "move",
  description: "Move a disk",
  parameters: { type: "object", properties: { disk: { type: "integer" } } },
};

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("hf renderer: prompts", () => {
  it("renders a conversation through the chat template to the expected text and ids, no special tokens added", () => {
    const conversation: Message[] = [
      system,
      userMessage("Say the end"),
      assistantMessage("the end"),
      userMessage("ok"),
    ];
    const tokens = renderer().prompt(conversation);
    expect(promptText(tokens)).toBe(
      "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nSay the end<|im_end|>\n<|im_start|>assistant\nthe end<|im_end|>\n<|im_start|>user\nok<|im_end|>\n<|im_start|>assistant\n",
    );
    expect(tokens).toEqual([
      START,
      ...bytes("system"),
      NL,
      66,
      101,
      32,
      98,
      114,
      105,
      101,
      102,
      46,
      END,
      NL,
      // "Say the end": " the" is "Ġt" (256) and "he" (257)
      START,
      ...bytes("user"),
      NL,
      83,
      97,
      121,
      256,
      257,
      32,
      101,
      110,
      100,
      END,
      NL,
      // "the end": a word-initial "the" is "t" and "he"
      START,
      ...bytes("assistant"),
      NL,
      116,
      257,
      32,
      101,
      110,
      100,
      END,
      NL,
      START,
      ...bytes("user"),
      NL,
      111,
      107,
      END,
      NL,
      START,
      ...bytes("assistant"),
      NL,
    ]);
  });

  it("stops at eos_token (and generation_config.json's eos_token_id); decode strips the stop tokens", () => {
    const r = renderer();
    expect(r.stopTokens).toEqual([END]);
    expect(r.decode([116, 257, 32, 101, 110, 100, END])).toEqual({ role: "assistant", content: "the end" });
    expect(r.responseTokens(assistantMessage("the end"))).toEqual([116, 257, 32, 101, 110, 100, END]);
    // A reply of the stop token alone, or of ids past the vocabulary (models pad their embeddings), is text, never an error.
    expect(r.decode([END]).content).toBe("");
    expect(r.decode([]).content).toBe("");
    expect(r.decode([111, 5000, 107]).content).toBe("ok");
    const withGeneration = renderer(
      4096,
      16,
      fixtureCopy("generation", { "generation_config.json": JSON.stringify({ eos_token_id: [END, NL] }) }),
    );
    expect(withGeneration.stopTokens).toEqual([END, NL]);
    expect(withGeneration.decode([111, NL, 107, END]).content).toBe("ok");
  });

  it.each([
    ["ASCII", "Move disk 1 to peg C, then the rest."],
    ["non-ASCII", "héllo wörld: 日本語 😀 — ½"],
  ])("round-trips %s text: decode(responseTokens(text)) is the text", (_, text) => {
    const r = renderer();
    const tokens = r.responseTokens(assistantMessage(text));
    expect(tokens.at(-1)).toBe(END);
    expect(tokens.every((token) => token >= 0 && token < 260)).toBe(true);
    expect(r.decode(tokens).content).toBe(text);
  });
});

describe("hf renderer: messages as templates read them", () => {
  it("passes tool calls in OpenAI's shape, JSON arguments parsed (templates apply tojson), other text as written", () => {
    const calls = [
      { id: "c1", name: "move", arguments: '{"from": "A", "to": "C"}' },
      { id: "c2", name: "move", arguments: "not json" },
    ];
    expect(templateMessage({ role: "assistant", content: "", toolCalls: calls })).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "move", arguments: { from: "A", to: "C" } } },
        { id: "c2", type: "function", function: { name: "move", arguments: "not json" } },
      ],
    });
    expect(templateMessage({ role: "tool", content: "ok", toolCallId: "c1" })).toEqual({
      role: "tool",
      content: "ok",
      tool_call_id: "c1",
    });
    expect(templateMessage(userMessage("hi"))).toEqual({ role: "user", content: "hi" });
  });

  it("splits turns after each assistant reply (the window drops whole turns)", () => {
    const tool: Message = { role: "tool", content: "r", toolCallId: "c" };
    expect(
      turnStarts([
        userMessage("a"),
        assistantMessage("b"),
        tool,
        userMessage("c"),
        assistantMessage("d"),
        assistantMessage("e"),
        userMessage("f"),
      ]),
    ).toEqual([0, 2, 6]);
  });
});

describe("hf renderer: tools, template options and tool calls", () => {
  const conversation = [userMessage("hi")];

  it("writes the env's tools (OpenAI function schemas) and the template options into the prompt", () => {
    const plain = renderer(4096, 16, toolsFolder);
    expect(promptText(plain.prompt(conversation))).toBe("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
    const withTools = promptText(plain.prompt(conversation, undefined, [moveTool]));
    expect(withTools).toBe(
      '<|im_start|>system\n{"type": "function", "function": {"name": "move", "description": "Move a disk", "parameters": {"type": "object", "properties": {"disk": {"type": "integer"}}}}}\n<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n',
    );
    const noThinking = hfRenderer(`hf:${toolsFolder}`, readHfFiles(toolsFolder), 4096, 16, {
      templateOptions: { enable_thinking: false },
    });
    expect(promptText(noThinking.prompt(conversation, undefined, [moveTool]))).toBe(`${withTools}<think></think>`);
  });

  it("reads tool calls when tools are offered, in the format the template teaches (auto) or the one named", () => {
    const reply = '<tool_call>\n{"name": "move", "arguments": {"disk": 1}}\n</tool_call>';
    const call = { id: "call_0", name: "move", arguments: '{"disk": 1}' };
    const hermes = renderer(4096, 16, toolsFolder);
    const tokens = hermes.responseTokens(assistantMessage(reply));
    expect(hermes.decode(tokens, [moveTool])).toEqual(assistantMessage("", [call]));
    expect(hermes.responseTokens(assistantMessage("", [call]))).toEqual(tokens);
    // No tools offered, a template that teaches no format (the ChatML fixture), or "none": the reply is text.
    expect(hermes.decode(tokens).content).toBe(reply);
    expect(renderer().decode(tokens, [moveTool]).content).toBe(reply);
    expect(
      hfRenderer(`hf:${toolsFolder}`, readHfFiles(toolsFolder), 4096, 16, { toolCallFormat: "none" }).decode(tokens, [
        moveTool,
      ]).content,
    ).toBe(reply);
    const llama = hfRenderer(`hf:${FIXTURE}`, readHfFiles(FIXTURE), 4096, 16, { toolCallFormat: "llama3-json" });
    expect(
      llama.decode(llama.responseTokens(assistantMessage('{"name": "move", "parameters": {"disk": 1}}')), [moveTool]),
    ).toEqual(assistantMessage("", [call]));
  });
});

describe("hf renderer: episode sequences", () => {
  it("is one sequence when each prompt extends the prompt and reply before, the replies at their positions", () => {
    const r = renderer();
    const replies = episode.turns.map((turn) => r.responseTokens(turn.action));
    const prompt0 = r.prompt([system, ...episode.turns[0]!.observation]);
    const prompt1 = r.prompt(
      [system, ...episode.turns[0]!.observation, episode.turns[0]!.action, ...episode.turns[1]!.observation],
      { prompt: prompt0, reply: replies[0]!, messages: 3 },
    );
    expect(prompt1.slice(0, prompt0.length + replies[0]!.length)).toEqual([...prompt0, ...replies[0]!]);
    const sequences = r.episodeSequences(episode, replies);
    expect(sequences).toHaveLength(1);
    const [sequence] = sequences;
    expect(sequence!.tokens).toEqual([...prompt1, ...replies[1]!]);
    expect(sequence!.replies).toEqual([
      { turn: 0, start: prompt0.length, end: prompt0.length + replies[0]!.length },
      { turn: 1, start: prompt1.length, end: prompt1.length + replies[1]!.length },
    ]);
    for (const span of sequence!.replies)
      expect(sequence!.tokens.slice(span.start, span.end)).toEqual(replies[span.turn]);
  });

  it("keeps a reply cut before its stop token in the same sequence (the template closes it)", () => {
    const r = renderer();
    const replies = [[116, 257, 32, 101, 110, 100], r.responseTokens(assistantMessage("done"))];
    const sequences = r.episodeSequences(episode, replies);
    expect(sequences).toHaveLength(1);
    expect(sequences[0]!.replies[1]!.start - sequences[0]!.replies[0]!.end).toBe(1 + 1 + 1 + 4 + 1 + 2 + 2 + 1 + 9 + 1); // <|im_end|>\n<|im_start|>user\nok<|im_end|>\n<|im_start|>assistant\n
  });

  it("keeps a reply whose sampled tokens are not what its text encodes to", () => {
    // "the end" sampled as t, h, e (unmerged): a prompt rendered from the messages re-encodes it as t, he
    const replies = [[116, 104, 101, 32, 101, 110, 100, END], renderer().responseTokens(assistantMessage("done"))];
    const [kept, ...none] = renderer().episodeSequences(episode, replies);
    expect(none).toEqual([]);
    for (const span of kept!.replies) expect(kept!.tokens.slice(span.start, span.end)).toEqual(replies[span.turn]);
  });

  it("starts a new sequence where the template never writes a reply's text, so the text after it cannot be found (chat_template.jinja taking precedence over the config's)", () => {
    const template =
      '{%- for message in messages %}{%- if message.role == "assistant" %}{{- "<|im_start|>assistant\\n...<|im_end|>\\n" }}{%- else %}{{- "<|im_start|>" + message.role + "\\n" + message.content + "<|im_end|>\\n" }}{%- endif %}{%- endfor %}{%- if add_generation_prompt %}{{- "<|im_start|>assistant\\n" }}{%- endif %}';
    const r = renderer(4096, 16, fixtureCopy("rewrite", { "chat_template.jinja": template }));
    const replies = episode.turns.map((turn) => r.responseTokens(turn.action));
    const sequences = r.episodeSequences(episode, replies);
    expect(sequences).toHaveLength(2);
    expect(promptText(sequences[1]!.tokens)).toContain("<|im_start|>assistant\n...<|im_end|>\n<|im_start|>user\nok");
    expect(sequences.map((sequence) => sequence.replies.map((span) => span.turn))).toEqual([[0], [1]]);
  });
});

describe("hf renderer: the context window", () => {
  const turns: Message[] = [
    system,
    userMessage("one"),
    assistantMessage("1"),
    userMessage("two"),
    assistantMessage("2"),
    userMessage("three"),
  ];
  const full = renderer().prompt(turns);
  const withoutFirst = renderer().prompt([system, ...turns.slice(3)]);
  const newestOnly = renderer().prompt([system, turns[5]!]);

  it("drops the oldest whole turns until the prompt fits, keeping the system message", () => {
    // contextLength - maxNewTokens is the prompt's budget
    expect(renderer(full.length + 16, 16).prompt(turns)).toEqual(full);
    expect(renderer(full.length - 1 + 16, 16).prompt(turns)).toEqual(withoutFirst);
    expect(renderer(withoutFirst.length - 1 + 16, 16).prompt(turns)).toEqual(newestOnly);
    expect(promptText(newestOnly)).toBe(
      "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nthree<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("cuts the start of the newest message when it alone does not fit, and refuses a context the system message fills", () => {
    const r = renderer(newestOnly.length - 2 + 16, 16);
    const cut = r.prompt(turns);
    expect(cut.length).toBe(newestOnly.length - 2);
    expect(promptText(cut)).toContain("<|im_start|>user\nree<|im_end|>");
    expect(() => renderer(10 + 16, 16).prompt(turns)).toThrow(/raise --context-length/);
  });

  it("starts a new sequence at the turn where the window dropped messages", () => {
    const long: EpisodeMessages = {
      preamble: [system],
      turns: [0, 1, 2].map((t) => ({ observation: [userMessage(`turn ${t}`)], action: assistantMessage(`${t}`) })),
    };
    const roomy = renderer();
    const replies = long.turns.map((turn) => roomy.responseTokens(turn.action));
    expect(roomy.episodeSequences(long, replies)).toHaveLength(1);
    const whole = roomy.episodeSequences(long, replies)[0]!;
    const lastPrompt = whole.replies[2]!.start;
    const tight = renderer(lastPrompt - 1 + 16, 16);
    const sequences = tight.episodeSequences(long, replies);
    expect(sequences.map((sequence) => sequence.replies.map((span) => span.turn))).toEqual([[0, 1], [2]]);
    expect(promptText(sequences[1]!.tokens)).toMatch(
      /^<\|im_start\|>system\nBe brief\.<\|im_end\|>\n<\|im_start\|>user\nturn 1/,
    );
  });
});

describe("hf renderer: configuration", () => {
  const config = (backend: Record<string, unknown>): unknown => ({
    env: "hanoi",
    backend: { kind: "tinker", baseModel: "m", ...backend },
  });
  const backendOf = (backend: Record<string, unknown>) => parseTrainConfig(config(backend)).backend;

  it("accepts bytes and hf:DIR, and refuses anything else naming the renderer field", () => {
    expect(backendOf({})).toMatchObject({ renderer: "bytes" });
    expect(backendOf({ renderer: `hf:${FIXTURE}` })).toMatchObject({ renderer: `hf:${FIXTURE}` });
    const unknown = configError(() => backendOf({ renderer: "qwen" }));
    expect(unknown.field).toBe("backend.renderer");
    expect(unknown.message).toMatch(/bytes or hf:DIR/);
    expect(
      configError(() => parseTrainConfig({ env: "hanoi", backend: { kind: "tiny", renderer: `hf:${FIXTURE}` } })).field,
    ).toBe("backend.renderer");
  });

  it("reads template options and the tool-call format with hf:DIR only, checking what it knows of them", () => {
    const hf = { renderer: `hf:${FIXTURE}` };
    expect(
      backendOf({ ...hf, templateOptions: { enable_thinking: false, custom: [1, "a"] }, toolCallFormat: "hermes" }),
    ).toMatchObject({ templateOptions: { enable_thinking: false, custom: [1, "a"] }, toolCallFormat: "hermes" });
    expect(backendOf(hf)).toMatchObject({ templateOptions: {}, toolCallFormat: "auto" });
    const notBoolean = configError(() => backendOf({ ...hf, templateOptions: { enable_thinking: "no" } }));
    expect(notBoolean.field).toBe("backend.templateOptions.enable_thinking");
    const reserved = configError(() => backendOf({ ...hf, templateOptions: { tools: [] } }));
    expect([reserved.field, reserved.message]).toEqual([
      "backend.templateOptions.tools",
      expect.stringMatching(/set by the renderer/),
    ]);
    expect(configError(() => backendOf({ ...hf, toolCallFormat: "xml" })).field).toBe("backend.toolCallFormat");
    expect(configError(() => backendOf({ templateOptions: { enable_thinking: false } })).message).toMatch(
      /templateOptions: is read by --renderer hf:DIR only/,
    );
    expect(
      configError(() => parseTrainConfig({ env: "hanoi", backend: { kind: "tiny", toolCallFormat: "hermes" } })).field,
    ).toBe("backend.toolCallFormat");
  });

  it("refuses a missing folder, one without tokenizer.json, and one without a chat template, naming the renderer field", () => {
    const missing = configError(() => backendOf({ renderer: `hf:${join(dir, "nowhere")}` }));
    expect([missing.field, missing.message]).toEqual(["backend.renderer", expect.stringMatching(/does not exist/)]);
    const noTokenizer = fixtureCopy("no-tokenizer", {}, false);
    const lacking = configError(() => backendOf({ renderer: `hf:${noTokenizer}` }));
    expect([lacking.field, lacking.message]).toEqual(["backend.renderer", expect.stringMatching(/no tokenizer\.json/)]);
    expect(configError(() => openRenderer(`hf:${noTokenizer}`, 16)).field).toBe("renderer");
    const noTemplate = fixtureCopy("no-template", {
      "tokenizer_config.json": JSON.stringify({ eos_token: "<|im_end|>" }),
    });
    expect(configError(() => openRenderer(`hf:${noTemplate}`, 16)).message).toMatch(/no chat_template/);
    const badEos = fixtureCopy("bad-eos", {
      "tokenizer_config.json": JSON.stringify({ eos_token: "</s>", chat_template: "{{ messages[0].content }}" }),
    });
    expect(configError(() => openRenderer(`hf:${badEos}`, 16)(4096)).message).toMatch(/"<\/s>" is not a token/);
  });
});

describe("the fixture's tokenizer against Hugging Face's own tokenizers (Rust, through Python)", () => {
  // reference-ids.json comes from scripts/hf-reference-ids.py: an independent implementation of the same files.
  const reference = JSON.parse(readFileSync(join(FIXTURE, "reference-ids.json"), "utf8")) as {
    cases: { text: string; ids: number[]; decoded: string }[];
  };

  it("encodes every reference text to the same ids and decodes them to the same text", () => {
    expect(reference.cases.length).toBeGreaterThanOrEqual(8);
    const hf = renderer();
    for (const { text, ids, decoded } of reference.cases) {
      expect(hf.responseTokens(assistantMessage(text))).toEqual([...ids, END]);
      // decode leaves out the stop token <|im_end|>; the reference keeps every special token.
      expect(hf.decode(ids).content).toBe(decoded.replaceAll("<|im_end|>", ""));
    }
    expect(reference.cases.some(({ ids }) => ids.includes(START) && ids.includes(END))).toBe(true);
    expect(reference.cases.some(({ text, ids }) => ids.length < Buffer.byteLength(text))).toBe(true);
  });
});
