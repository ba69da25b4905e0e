// The hf:DIR renderer on a hand-made tokenizer (fixtures/hf-tiny): a byte-level BPE whose ids 0-255 are the
// bytes (GPT-2's byte-to-character table), two merges ("Ġ t" -> 256, "h e" -> 257) and two special tokens
// (<|im_start|> 258, <|im_end|> 259), 260 ids in all, and a ChatML template (Qwen's, without its default
// system prompt and tools), eos_token <|im_end|>. Expected texts and ids below are written from the template and
// that table by hand. The last test trains through the loopback stand-in, whose byte model has 260 ids too.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import {
  assistantMessage,
  systemMessage,
  userMessage,
  type Message,
  type ToolSpec,
} from "../../../src/core/message.js";
import type { EpisodeMessages } from "../../../src/policies/tiny/context.js";
import { openTinkerBackend } from "../../../src/rl/tinker/backend.js";
import { createTinkerClient } from "../../../src/rl/tinker/client.js";
import { train } from "../../../src/rl/train.js";
import { parseTrainConfig } from "../../../src/rl/train-config.js";
import { readHfFiles } from "../../../src/rl/tinker/hf-files.js";
import { hfRenderer, templateMessage, turnStarts } from "../../../src/rl/tinker/hf-renderer.js";
import { openRenderer, type Renderer } from "../../../src/rl/tinker/renderer.js";
import { cli } from "../../cli/helpers.js";
import { startStandin, type Standin } from "./standin-server.js";

const FIXTURE = join(import.meta.dirname, "fixtures", "hf-tiny");
const dir = mkdtempSync(join(tmpdir(), "budgetrl-hf-renderer-"));
const START = 258;
const END = 259;
const NL = 10;
/** The ids of text without "the" or " t" in it: its bytes. */
const bytes = (text: string): number[] => [...Buffer.from(text, "utf8")];
const renderer = (contextLength = 4096, maxNewTokens = 16, folder = FIXTURE): Renderer =>
  hfRenderer(`hf:${folder}`, readHfFiles(folder), contextLength, maxNewTokens);
/** The prompt's text with its special tokens (decode strips only the stop token <|im_end|>, so put them back). */
const promptText = (tokens: readonly number[]): string =>
  tokens.map((token) => (token === END ? "<|im_end|>" : renderer().decode([token]).content)).join("");

/** A copy of the fixture folder with extra files (or without tokenizer.json). */
function fixtureCopy(name: string, extra: Readonly<Record<string, string>>, withTokenizer = true): string {
  const folder = mkdtempSync(join(dir, `${name}-`));
  if (withTokenizer) copyFileSync(join(FIXTURE, "tokenizer.json"), join(folder, "tokenizer.json"));
  copyFileSync(join(FIXTURE, "tokenizer_config.json"), join(folder, "tokenizer_config.json"));
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(folder, file), text);
  return folder;
}

/** A template that writes the tools (tojson), tool calls as <tool_call>NAME</tool_call>, and enable_thinking=false. */
const TOOLS_TEMPLATE = [
  '{%- if tools %}{{- "<|im_start|>system\\n" }}{%- for tool in tools %}{{- tool | tojson }}{{- "\\n" }}{%- endfor %}{{- "<|im_end|>\\n" }}{%- endif %}',
  '{%- for message in messages %}{{- "<|im_start|>" + message.role + "\\n" + message.content }}',
  '{%- if message.tool_calls %}{%- for call in message.tool_calls %}{{- "<tool_call>" + call.function.name + "</tool_call>" }}{%- endfor %}{%- endif %}',
  '{{- "<|im_end|>\\n" }}{%- endfor %}',
  '{%- if add_generation_prompt %}{{- "<|im_start|>assistant\\n" }}{%- if enable_thinking is defined and enable_thinking is false %}{{- "<think></think>" }}{%- endif %}{%- endif %}',
].join("");
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

const system = systemMessage("Be brief.");
const episode: EpisodeMessages = {
  preamble: [system],
  turns: [
    { observation: [userMessage("Say the end")], action: assistantMessage("the end") },
    { observation: [userMessage("ok")], action: assistantMessage("done") },
  ],
};

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

describe("train --backend tinker --renderer hf:DIR against the stand-in", () => {
  let standin: Standin;
  beforeAll(async () => {
    // A fresh byte model (260 ids): it reads the fixture's ids as its own, which is all the loop needs.
    standin = await startStandin({
      baseModels: {
        "tiny-260": { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 512 }, seed: 3 },
      },
    });
  });
  afterAll(async () => {
    await standin.close();
  });

  it("runs a step end to end: prompts from the template, replies stopped at <|im_end|>, a checkpoint naming the renderer", async () => {
    const out = join(dir, "train");
    const config = {
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      steps: 1,
      tasksPerStep: 2,
      group: 2,
      evalEvery: 0,
      checkpointEvery: 1,
      maxNewTokens: 8,
      backend: { kind: "tinker", baseModel: "tiny-260", renderer: `hf:${FIXTURE}` },
    };
    const before = standin.requests.length;
    const result = await train({ out, config, tinker: { baseUrl: standin.url } });
    expect(result).toMatchObject({ stepsDone: 1, finished: true });
    const samples = standin.requests.slice(before).filter((request) => request.path === "/api/v1/asample");
    expect(samples.length).toBeGreaterThan(0);
    for (const request of samples) {
      const body = request.body as { prompt: { chunks: { tokens: number[] }[] }; sampling_params: { stop: number[] } };
      expect(body.sampling_params.stop).toEqual([END]);
      const prompt = body.prompt.chunks.flatMap((chunk) => chunk.tokens);
      expect(prompt.slice(0, 8)).toEqual([START, ...bytes("system"), NL]);
      expect(prompt.slice(-11)).toEqual([START, ...bytes("assistant"), NL]);
    }
    // The fresh model solves nothing, so every group has zero advantages and the step sends no gradient.
    const manifest = JSON.parse(readFileSync(join(out, "checkpoints", "step-000001", "budgetrl.json"), "utf8")) as {
      renderer: string;
    };
    expect(manifest.renderer).toBe(`hf:${FIXTURE}`);
  }, 120_000);

  it("takes the renderer's options from the train CLI (--template-opt, --tool-call-format), stores them, and refuses bad ones before any work", async () => {
    const out = join(dir, "train-cli");
    const common = [
      "train",
      "--backend",
      "tinker",
      "--tinker-url",
      standin.url,
      "--base-model",
      "tiny-260",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--steps",
      "1",
      "--tasks-per-step",
      "1",
      "--group",
      "2",
      "--eval-every",
      "0",
      "--max-new-tokens",
      "8",
      "--no-progress",
    ];
    const args = [...common, "--renderer", `hf:${toolsFolder}`];
    const before = standin.requests.length;
    const trained = await cli(
      ...args,
      "--template-opt",
      "enable_thinking=false",
      "--tool-call-format",
      "hermes",
      "--out",
      out,
    );
    expect([trained.code, trained.stderr]).toEqual([0, ""]);
    const samples = standin.requests.slice(before).filter((request) => request.path === "/api/v1/asample");
    expect(samples.length).toBeGreaterThan(0);
    for (const request of samples)
      expect(
        (request.body as { prompt: { chunks: { tokens: number[] }[] } }).prompt.chunks
          .flatMap((chunk) => chunk.tokens)
          .slice(-15),
      ).toEqual(bytes("<think></think>"));
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8"))).toMatchObject({
      backend: { templateOptions: { enable_thinking: false }, toolCallFormat: "hermes" },
    });
    const maybe = await cli(...args, "--template-opt", "enable_thinking=maybe", "--out", join(dir, "maybe"));
    expect([maybe.code, maybe.stderr]).toEqual([2, expect.stringMatching(/--template-opt enable_thinking/)]);
    const bytesRenderer = await cli(...common, "--template-opt", "enable_thinking=false", "--out", join(dir, "bytes"));
    expect([bytesRenderer.code, bytesRenderer.stderr]).toEqual([
      2,
      expect.stringMatching(/--template-opt: is read by --renderer hf:DIR only/),
    ]);
  }, 120_000);

  it("trains on an episode's one sequence: forward_backward on the renderer's tokens and reply spans, then optim_step", async () => {
    const client = createTinkerClient({ baseUrl: standin.url });
    const backend = await openTinkerBackend({
      client,
      baseModel: "tiny-260",
      loraRank: 4,
      seed: 1,
      maxNewTokens: 8,
      renderer: openRenderer(`hf:${FIXTURE}`, 8),
      heartbeatMs: 0,
    });
    try {
      const r = backend.policy();
      const [sequence] = r.episodeSequences(
        episode,
        episode.turns.map((turn) => r.responseTokens(turn.action)),
      );
      const batch = [
        {
          tokens: sequence!.tokens,
          responses: sequence!.replies.map((span) => ({ start: span.start, end: span.end })),
        },
      ];
      const before = standin.requests.length;
      const stats = await backend.accumulate(
        batch,
        (logprobs) => logprobs.map((values) => new Float32Array(values.length).fill(1)),
        10,
      );
      expect(stats.tokens).toBeGreaterThan(0);
      expect((await backend.step(1e-3)).gradNorm).toBeGreaterThan(0);
      // The pass with a backward (the first is forward_only, for the current log-probs), as the stand-in decoded it.
      const trained = standin.requests
        .slice(before)
        .find((request) => request.path === "/api/v1/forward_backward" && request.body.forward_only !== true);
      const datum = (trained?.body as { data: { loss_fn_inputs: { weights: { dense: Uint8Array } } }[] }).data[0]!;
      const dense = datum.loss_fn_inputs.weights.dense;
      // Tinker's datums are shifted by one: weight p belongs to target token p + 1, the reply tokens' positions.
      const weighted = Array.from(
        new Float32Array(dense.buffer.slice(dense.byteOffset, dense.byteOffset + dense.byteLength)),
      ).flatMap((weight, p) => (weight === 0 ? [] : [p + 1]));
      expect(weighted).toEqual(
        sequence!.replies.flatMap((span) => Array.from({ length: span.end - span.start }, (_, i) => span.start + i)),
      );
    } finally {
      backend.dispose();
    }
  }, 60_000);
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
