// `budgetrl serve` driven by the official `openai` client as a vLLM user drives vLLM, over real HTTP on loopback:
// fresh samples without a seed and the same answer with one, stop strings, top_logprobs, token-by-token streams
// that add up to the non-streamed answer, tool calls (parsed from the model's own reply in auto mode, constrained
// for "required" and a named function), /v1/completions with text and token-id prompts, /tokenize and
// /detokenize, and a 400 naming each field it cannot honour.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { freshCheckpoint, rawRequest, taughtCheckpoint } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-openai-"));
const QUESTION = "What is the weather in Paris?";
const CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "the weather in a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
        required: ["city"],
      },
    },
  },
  {
    type: "function" as const,
    function: {
      name: "get_time",
      parameters: { type: "object", properties: { zone: { type: "integer" } }, required: ["zone"] },
    },
  },
];
let fresh: Serving;
let taught: Serving;
let random: OpenAI;
let tools: OpenAI;

// vLLM's extra fields are sent as they are; the client's types do not list them.
type Extra = Record<string, unknown>;
const asked = (messages: string): OpenAI.ChatCompletionMessageParam[] => [{ role: "user", content: messages }];

beforeAll(async () => {
  fresh = await serveCheckpoint({
    ckpt: await freshCheckpoint(join(dir, "fresh"), { maxNewTokens: 16, history: "segments" }),
    port: 0,
    name: "fresh",
  });
  taught = await serveCheckpoint({
    ckpt: await taughtCheckpoint(join(dir, "taught"), QUESTION, CALL, 200),
    port: 0,
    name: "taught",
  });
  random = new OpenAI({ baseURL: fresh.url, apiKey: "EMPTY", maxRetries: 0 });
  tools = new OpenAI({ baseURL: taught.url, apiKey: "EMPTY", maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await fresh.close();
  await taught.close();
});

async function status400(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error("the request was answered");
}

describe("budgetrl serve through the openai client", () => {
  it("samples afresh without a seed, and gives the same answer, bit for bit, with one", async () => {
    const ask = (seed?: number) =>
      random.chat.completions.create({
        model: "fresh",
        messages: asked("hello"),
        temperature: 1,
        max_tokens: 24,
        logprobs: true,
        ...(seed === undefined ? {} : { seed }),
      });
    const unseeded = await Promise.all([ask(), ask(), ask()]);
    expect(new Set(unseeded.map((answer) => answer.choices[0]!.message.content)).size).toBe(3);
    const seeded = await Promise.all([ask(17), ask(17), ask(17)]);
    expect(seeded[1]!.choices).toEqual(seeded[0]!.choices);
    expect(seeded[2]!.choices).toEqual(seeded[0]!.choices);
  });

  it("stops at a stop string, leaving it out of the text", async () => {
    const whole = await tools.chat.completions.create({
      model: "taught",
      messages: asked(QUESTION),
      temperature: 0,
      max_tokens: 100,
    });
    expect(whole.choices[0]!.message.content).toBe(CALL);
    const stopped = await tools.chat.completions.create({
      model: "taught",
      messages: asked(QUESTION),
      temperature: 0,
      max_tokens: 100,
      stop: ["\n"],
    });
    expect(stopped.choices[0]!.message.content).toBe("<tool_call>");
    expect(stopped.choices[0]!.finish_reason).toBe("stop");
    expect((stopped.choices[0] as unknown as Extra)["stop_reason"]).toBe("\n");
    const byToken = await tools.chat.completions.create({
      model: "taught",
      messages: asked(QUESTION),
      temperature: 0,
      max_tokens: 100,
      stop_token_ids: ["{".charCodeAt(0)],
    } as never);
    expect((byToken as OpenAI.ChatCompletion).choices[0]!.message.content).toBe("<tool_call>\n");
    expect(((byToken as OpenAI.ChatCompletion).choices[0] as unknown as Extra)["stop_reason"]).toBe(123);
  });

  it("gives top_logprobs: the most likely tokens of each step, the sampled one's log-prob among them when it is", async () => {
    const answer = await random.chat.completions.create({
      model: "fresh",
      messages: asked("hello"),
      temperature: 0,
      max_tokens: 8,
      seed: 1,
      logprobs: true,
      top_logprobs: 5,
    });
    const content = answer.choices[0]!.logprobs!.content!;
    expect(content).toHaveLength(8);
    for (const entry of content) {
      expect(entry.top_logprobs).toHaveLength(5);
      const values = entry.top_logprobs.map((top) => top.logprob);
      expect([...values].sort((a, b) => b - a)).toEqual(values);
      // Greedy: the sampled token is the most likely one.
      expect(entry.top_logprobs[0]!.token).toBe(entry.token);
      expect(entry.top_logprobs[0]!.logprob).toBe(entry.logprob);
    }
  });

  it("streams token by token: many content chunks that add up to the non-streamed answer of the same seed", async () => {
    const request = {
      model: "fresh",
      messages: asked("stream, please"),
      temperature: 1,
      max_tokens: 24,
      seed: 5,
      n: 2,
      logprobs: true,
      top_logprobs: 2,
    };
    const whole = await random.chat.completions.create(request);
    const stream = await random.chat.completions.create({
      ...request,
      stream: true,
      stream_options: { include_usage: true },
    });
    const content = ["", ""];
    const chunks = [0, 0];
    const logprobs: OpenAI.ChatCompletionTokenLogprob[][] = [[], []];
    const finish: (string | null)[] = [null, null];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices) {
        if (choice.delta.content) {
          content[choice.index] += choice.delta.content;
          chunks[choice.index]!++;
        }
        logprobs[choice.index]!.push(...(choice.logprobs?.content ?? []));
        if (choice.finish_reason !== null) finish[choice.index] = choice.finish_reason;
      }
    }
    for (const j of [0, 1]) {
      const answer = whole.choices[j]!;
      expect(chunks[j]).toBeGreaterThan(1);
      expect(content[j]).toBe(answer.message.content);
      expect(logprobs[j]).toEqual(answer.logprobs!.content);
      expect(finish[j]).toBe(answer.finish_reason);
    }
    expect(usage).toEqual(whole.usage);
  });

  it("reads the model's own reply as tool calls in auto mode, streamed or not", async () => {
    const answer = await tools.chat.completions.create({
      model: "taught",
      messages: asked(QUESTION),
      tools: TOOLS,
      temperature: 0,
      max_tokens: 100,
    });
    const choice = answer.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.type).toBe("function");
    expect(call.function).toEqual({ name: "get_weather", arguments: '{"city": "Paris"}' });
    const stream = await tools.chat.completions.create({
      model: "taught",
      messages: asked(QUESTION),
      tools: TOOLS,
      temperature: 0,
      max_tokens: 100,
      stream: true,
    });
    const calls: unknown[] = [];
    let finish: string | null = null;
    let text = "";
    for await (const chunk of stream) {
      for (const delta of chunk.choices) {
        calls.push(...(delta.delta.tool_calls ?? []));
        text += delta.delta.content ?? "";
        finish = delta.finish_reason ?? finish;
      }
    }
    expect(text).toBe("");
    expect(finish).toBe("tool_calls");
    // The name first, then the arguments piece by piece (vLLM's deltas), adding up to the whole answer's call.
    expect(calls[0]).toEqual({
      index: 0,
      id: expect.stringMatching(/^chatcmpl-tool-[0-9a-f]{32}$/),
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    const pieces = calls.slice(1) as { index: number; function: { arguments: string } }[];
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((piece) => piece.function.arguments).join("")).toBe(call.function.arguments);
    // The conversation goes on with the call and its result; the replay prompts with the model's own reply.
    const next = (await tools.chat.completions.create({
      model: "taught",
      max_tokens: 4,
      temperature: 0,
      tools: TOOLS,
      return_token_ids: true,
      messages: [...asked(QUESTION), choice.message, { role: "tool", tool_call_id: call.id, content: "sunny" }],
    } as never)) as unknown as { prompt_token_ids: number[] };
    expect(Buffer.from(next.prompt_token_ids.filter((token) => token < 256)).toString("utf8")).toContain(`${CALL}`);
  });

  it("forces a call with tool_choice required or a named function (constrained decoding): valid JSON of the schema", async () => {
    for (const seed of [1, 2, 3]) {
      const named = await tools.chat.completions.create({
        model: "taught",
        messages: asked(QUESTION),
        tools: TOOLS,
        tool_choice: { type: "function", function: { name: "get_weather" } },
        temperature: 1,
        seed,
        max_tokens: 60,
      });
      const choice = named.choices[0]!;
      expect(choice.finish_reason).toBe("stop");
      const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call.function.name).toBe("get_weather");
      const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
      expect(typeof args["city"]).toBe("string");
      expect(Object.keys(args).every((key) => key === "city" || key === "unit")).toBe(true);
      if ("unit" in args) expect(["celsius", "fahrenheit"]).toContain(args["unit"]);

      const required = await tools.chat.completions.create({
        model: "taught",
        messages: asked(QUESTION),
        tools: TOOLS,
        tool_choice: "required",
        temperature: 1,
        seed,
        max_tokens: 80,
      });
      expect(required.choices[0]!.finish_reason).toBe("tool_calls");
      const calls = required.choices[0]!.message.tool_calls! as OpenAI.ChatCompletionMessageFunctionToolCall[];
      expect(calls.length).toBeGreaterThan(0);
      for (const one of calls) {
        expect(["get_weather", "get_time"]).toContain(one.function.name);
        const parsed = JSON.parse(one.function.arguments) as Record<string, unknown>;
        if (one.function.name === "get_time") expect(Number.isInteger(parsed["zone"])).toBe(true);
        else expect(typeof parsed["city"]).toBe("string");
      }
    }
    // Streamed, the same call.
    const named = {
      model: "taught",
      messages: asked(QUESTION),
      tools: TOOLS,
      tool_choice: { type: "function" as const, function: { name: "get_weather" } },
      temperature: 1,
      seed: 4,
      max_tokens: 60,
    };
    const whole = await tools.chat.completions.create(named);
    const streamed: unknown[] = [];
    for await (const chunk of await tools.chat.completions.create({ ...named, stream: true }))
      streamed.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
    // The name at once (a named function), then the arguments as they are written, adding up to the same call.
    const deltas = streamed as { function: { name?: string; arguments: string } }[];
    expect(deltas[0]!.function).toEqual({ name: "get_weather", arguments: "" });
    expect(deltas.length).toBeGreaterThan(2);
    expect({
      name: deltas[0]!.function.name,
      arguments: deltas.map((delta) => delta.function.arguments).join(""),
    }).toEqual((whole.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function);
    // max_tokens too small for the shortest call: the reply is cut, as vLLM cuts it (finish_reason "length").
    const tooShort = await tools.chat.completions.create({
      model: "taught",
      messages: asked(QUESTION),
      tools: TOOLS,
      tool_choice: "required",
      max_tokens: 10,
    });
    expect(tooShort.choices[0]!.finish_reason).toBe("length");
    expect(tooShort.usage?.completion_tokens).toBe(10);
    expect(tooShort.choices[0]!.message.content).toMatch(/^\[\{"/);
  });

  it("completes text and token-id prompts on /v1/completions, the same for the same bytes", async () => {
    const text = await random.completions.create({
      model: "fresh",
      prompt: "Once upon a time",
      max_tokens: 12,
      temperature: 1,
      seed: 3,
      logprobs: 2,
    });
    const ids = await random.completions.create({
      model: "fresh",
      prompt: [...Buffer.from("Once upon a time")],
      max_tokens: 12,
      temperature: 1,
      seed: 3,
      logprobs: 2,
    });
    expect(ids.choices[0]!.text).toBe(text.choices[0]!.text);
    expect(ids.choices[0]!.logprobs).toEqual(text.choices[0]!.logprobs);
    expect(text.choices[0]!.logprobs!.tokens).toHaveLength(text.usage!.completion_tokens);
    expect(text.usage!.prompt_tokens).toBe(16);
    const batch = (await random.completions.create({
      model: "fresh",
      prompt: [
        [72, 105],
        [79, 107],
      ],
      max_tokens: 4,
      n: 2,
      seed: 3,
      return_token_ids: true,
    } as never)) as unknown as { choices: { index: number; token_ids: number[]; prompt_token_ids: number[] }[] };
    expect(batch.choices.map((choice) => choice.index)).toEqual([0, 1, 2, 3]);
    expect(batch.choices.map((choice) => choice.prompt_token_ids)).toEqual([
      [72, 105],
      [72, 105],
      [79, 107],
      [79, 107],
    ]);
    const echoed = await random.completions.create({
      model: "fresh",
      prompt: "Hi",
      max_tokens: 4,
      seed: 3,
      echo: true,
      logprobs: 0,
    });
    expect(echoed.choices[0]!.text.startsWith("Hi")).toBe(true);
    expect(echoed.choices[0]!.logprobs!.token_logprobs![0]).toBeNull();
    expect(echoed.choices[0]!.logprobs!.tokens).toHaveLength(2 + echoed.usage!.completion_tokens);
    const streamed = await random.completions.create({
      model: "fresh",
      prompt: "Once upon a time",
      max_tokens: 12,
      temperature: 1,
      seed: 3,
      stream: true,
    });
    let joined = "";
    let pieces = 0;
    for await (const chunk of streamed) {
      if (chunk.choices[0]?.text) pieces++;
      joined += chunk.choices[0]?.text ?? "";
    }
    expect(joined).toBe(text.choices[0]!.text);
    expect(pieces).toBeGreaterThan(1);
  });

  it("tokenizes and detokenizes in vLLM's shapes", async () => {
    const root = fresh.url.replace(/\/v1$/, "");
    const tokenized = JSON.parse(
      (await rawRequest(`${root}/tokenize`, "POST", JSON.stringify({ model: "fresh", prompt: "héllo" }))).text,
    ) as { count: number; max_model_len: number; tokens: number[] };
    expect(tokenized).toEqual({ count: 6, max_model_len: 192, tokens: [...Buffer.from("héllo")] });
    const detokenized = JSON.parse(
      (await rawRequest(`${root}/detokenize`, "POST", JSON.stringify({ model: "fresh", tokens: tokenized.tokens })))
        .text,
    ) as { prompt: string };
    expect(detokenized).toEqual({ prompt: "héllo" });
    const chat = JSON.parse(
      (await rawRequest(`${root}/tokenize`, "POST", JSON.stringify({ messages: [{ role: "user", content: "hello" }] })))
        .text,
    ) as { tokens: number[] };
    const answered = (await random.chat.completions.create({
      model: "fresh",
      messages: asked("hello"),
      max_tokens: 2,
      seed: 1,
      return_token_ids: true,
    } as never)) as unknown as { prompt_token_ids: number[] };
    expect(chat.tokens).toEqual(answered.prompt_token_ids);
    expect(
      JSON.parse((await rawRequest(`${root}/detokenize`, "POST", JSON.stringify({ tokens: chat.tokens }))).text),
    ).toEqual({ prompt: "<|user|>hello<|end|><|assistant|>" });
    const other = await rawRequest(`${root}/tokenize`, "POST", JSON.stringify({ model: "other", prompt: "x" }));
    expect(other.status).toBe(404);
  });

  it("refuses each field it cannot honour with a 400 naming it, and ignores the ones it does not know", async () => {
    const fields: Extra = {
      best_of: 2,
      use_beam_search: true,
      skip_special_tokens: false,
      guided_regex: "(?<=a)b",
      chat_template: "{{x}}",
    };
    for (const [field, value] of Object.entries(fields)) {
      const error = await status400(
        random.chat.completions.create({ model: "fresh", messages: asked("hi"), [field]: value } as never),
      );
      expect(error.status, field).toBe(400);
      expect(error.param, field).toBe(field);
      expect(error.message, field).toContain(field);
    }
    const completion = await status400(random.completions.create({ model: "fresh", prompt: "hi", suffix: "x" }));
    expect(completion.param).toBe("suffix");
    // Fields that never change the answer, and fields serve does not know, are accepted.
    const ignored = await random.chat.completions.create({
      model: "fresh",
      messages: asked("hi"),
      max_tokens: 2,
      user: "me",
      metadata: { run: "1" },
      store: false,
      service_tier: "auto",
      made_up_field: 1,
    } as never);
    expect(ignored.choices).toHaveLength(1);
  });
});
