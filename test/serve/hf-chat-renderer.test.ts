// `budgetrl serve --renderer hf:DIR` with the hand-made Hugging Face tokenizer of the renderers' tests
// (test/policies/renderers/fixtures/hf-tiny: 260 ids, the byte model's vocabulary size): a checkpoint trained with that
// renderer records it and is served with it by default (`budgetrl sft --renderer hf:DIR`); the request's tools are
// written into the prompt by the model's own chat template (the token ids equal the renderer's own rendering),
// and a reply in Hermes' format comes back as parsed tool_calls, streamed or not.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolSpec } from "../../src/core/message.js";
import { saveCheckpoint } from "../../src/nn/checkpoint.js";
import { createModel } from "../../src/nn/model.js";
import { openRenderer } from "../../src/policies/renderers/renderer.js";
import { runSft } from "../../src/rl/sft-run.js";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { FIXTURE, fixtureCopy, TOOLS_TEMPLATE } from "../policies/renderers/hf-fixture.js";
import { SMALL_MODEL } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-hf-"));
const folder = fixtureCopy("serve-tools", { "chat_template.jinja": TOOLS_TEMPLATE });
const RENDERER = `hf:${folder}`;
const MODEL = { ...SMALL_MODEL, contextLength: 384 };
const QUESTION = "Weather in Paris?";
const CALL = '<tool_call>\n{"name": "w", "arguments": {"c": "Paris"}}\n</tool_call>';
const TOOL: ToolSpec = {
  name: "w",
  description: "",
  parameters: { type: "object", properties: { c: { type: "string" } }, required: ["c"] },
};
const TOOLS = [{ type: "function" as const, function: { name: "w", parameters: TOOL.parameters } }];

/** A checkpoint taught, on the renderer's own tokens, to answer QUESTION (with the tool offered) with CALL. */
async function taughtHfCheckpoint(out: string): Promise<string> {
  const renderer = openRenderer(RENDERER, 32)(MODEL.contextLength);
  const model = await createModel({ config: MODEL, seed: 3, optimizer: { learningRate: 1e-2 } });
  const prompt = renderer.prompt([{ role: "user", content: QUESTION }], undefined, [TOOL]);
  const sequence = [...prompt, ...renderer.responseTokens({ role: "assistant", content: CALL })];
  const tokens = Int32Array.from(sequence.slice(0, -1));
  const targets = Int32Array.from(sequence.slice(1), (token, i) => (i + 1 >= prompt.length ? token : -1));
  for (let step = 0; step < 250; step++) {
    await model.lossAndGradient({ tokens, targets, batchSize: 1, seqLen: tokens.length });
    model.step();
  }
  await saveCheckpoint(model, out);
  model.dispose();
  const settings = { maxNewTokens: 32, history: "segments", renderer: RENDERER, toolCallFormat: "hermes" };
  writeFileSync(join(out, "policy.json"), `${JSON.stringify(settings)}\n`);
  return out;
}

let serving: Serving;
let client: OpenAI;

beforeAll(async () => {
  serving = await serveCheckpoint({ ckpt: await taughtHfCheckpoint(join(dir, "taught")), port: 0, name: "hf" });
  client = new OpenAI({ baseURL: serving.url, apiKey: "EMPTY", maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await serving.close();
});

describe("budgetrl serve --renderer hf:DIR", () => {
  it("renders with the renderer the checkpoint records: the tools in the prompt, the renderer's own token ids", async () => {
    expect(serving.renderer).toBe(RENDERER);
    const answer = (await client.chat.completions.create({
      model: "hf",
      messages: [{ role: "user", content: QUESTION }],
      tools: TOOLS,
      temperature: 0,
      return_token_ids: true,
    } as never)) as unknown as OpenAI.ChatCompletion & { prompt_token_ids: number[] };
    const own = openRenderer(
      RENDERER,
      32,
    )(MODEL.contextLength).prompt([{ role: "user", content: QUESTION }], undefined, [TOOL]);
    expect(answer.prompt_token_ids).toEqual(own);
    const text = new TextDecoder().decode(Uint8Array.from(own.filter((token) => token < 256)));
    expect(text).toContain('"parameters"');
    const choice = answer.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.tool_calls?.map((call) => (call as { function: unknown }).function)).toEqual([
      { name: "w", arguments: '{"c": "Paris"}' },
    ]);
  });

  it("streams the call through the openai client's stream helper, as the whole answer has it", async () => {
    const request = {
      model: "hf",
      messages: [{ role: "user" as const, content: QUESTION }],
      tools: TOOLS,
      temperature: 0,
    };
    const whole = await client.chat.completions.create(request);
    const streamed = await client.chat.completions.stream(request).finalChatCompletion();
    const calls = (completion: OpenAI.ChatCompletion) =>
      completion.choices[0]!.message.tool_calls?.map((call) => (call as { function: unknown }).function);
    expect(calls(streamed)).toEqual(calls(whole));
    expect(streamed.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("takes chat_template_kwargs as template variables, and refuses the names the renderer sets", async () => {
    const body = (extra: Record<string, unknown>) => ({
      model: "hf",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 1,
      return_token_ids: true,
      ...extra,
    });
    const plain = (await client.chat.completions.create(body({}) as never)) as unknown as {
      prompt_token_ids: number[];
    };
    const thinking = (await client.chat.completions.create(
      body({ chat_template_kwargs: { enable_thinking: false } }) as never,
    )) as unknown as { prompt_token_ids: number[] };
    const tail = new TextDecoder().decode(
      Uint8Array.from(thinking.prompt_token_ids.slice(plain.prompt_token_ids.length)),
    );
    expect(thinking.prompt_token_ids.slice(0, plain.prompt_token_ids.length)).toEqual(plain.prompt_token_ids);
    expect(tail).toBe("<think></think>");
    await expect(
      client.chat.completions.create(body({ chat_template_kwargs: { messages: [] } }) as never),
    ).rejects.toThrow(/chat_template_kwargs\.messages: is set by the renderer/);
  });

  it("continues a final assistant message inside its text, as transformers does", async () => {
    const answer = (await client.chat.completions.create({
      model: "hf",
      messages: [
        { role: "user", content: QUESTION },
        { role: "assistant", content: "It is" },
      ],
      max_tokens: 1,
      add_generation_prompt: false,
      continue_final_message: true,
      return_token_ids: true,
    } as never)) as unknown as { prompt_token_ids: number[] };
    const text = new TextDecoder().decode(Uint8Array.from(answer.prompt_token_ids.filter((token) => token < 256)));
    expect(text.endsWith("assistant\nIt is")).toBe(true);
  });
});

describe("budgetrl sft --renderer hf:DIR", () => {
  it("trains on the renderer's tokens, records it in the checkpoint, and serve renders with it by default", async () => {
    const out = join(dir, "sft");
    await runSft({
      out,
      config: {
        env: "hanoi",
        envOptions: { disks: "2", randomStart: "true" },
        policy: "oracle",
        tasks: 3,
        samples: 1,
        modelConfig: MODEL,
        steps: 2,
        batchSize: 2,
        warmupSteps: 1,
        renderer: `hf:${FIXTURE}`,
      },
    });
    expect(JSON.parse(readFileSync(join(out, "policy.json"), "utf8"))).toMatchObject({
      renderer: `hf:${FIXTURE}`,
      toolCallFormat: "auto",
    });
    const served = await serveCheckpoint({ ckpt: out, port: 0, name: "sft" });
    try {
      expect(served.renderer).toBe(`hf:${FIXTURE}`);
      const bytes = await serveCheckpoint({ ckpt: out, port: 0, name: "sft", renderer: "bytes" });
      expect(bytes.renderer).toBe("bytes");
      await bytes.close();
    } finally {
      await served.close();
    }
  }, 120_000);
});
