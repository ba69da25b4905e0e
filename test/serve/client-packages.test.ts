// `budgetrl serve` as a drop-in vLLM for the client packages people use, over real HTTP on loopback: structured
// output parsed by the openai client (.parse with zodResponseFormat), the AI SDK (generateObject) and LangChain
// (withStructuredOutput, its default method); a vLLM-style request with vLLM's sampling fields, template
// arguments and a field serve does not know (200, the field named in a warning and a header); prompt_logprobs on
// chat equal to /v1/completions with echo and logprobs (and to its own prompt_logprobs); --strict refusing unknown
// fields; tool calls streamed piece by piece into the openai client's stream helpers (stream, runTools); /metrics
// and /version.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { generateObject } from "ai";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { freshCheckpoint, postChat, rawRequest, taughtCheckpoint } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-clients-"));
const QUESTION = "What is the weather in Paris?";
const CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
const Weather = z.object({ city: z.string(), days: z.int(), unit: z.enum(["celsius", "fahrenheit"]) });

let fresh: Serving;
let taught: Serving;
let client: OpenAI;
const warnings: string[] = [];

beforeAll(async () => {
  fresh = await serveCheckpoint(
    {
      ckpt: await freshCheckpoint(join(dir, "fresh"), { maxNewTokens: 16, history: "segments" }),
      port: 0,
      name: "fresh",
    },
    { warn: (line) => warnings.push(line) },
  );
  taught = await serveCheckpoint({
    ckpt: await taughtCheckpoint(join(dir, "taught"), QUESTION, CALL, 200),
    port: 0,
    name: "taught",
  });
  client = new OpenAI({ baseURL: fresh.url, apiKey: "EMPTY", maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await fresh.close();
  await taught.close();
});

describe("structured output through the client packages", () => {
  it("gives the openai client's .parse a parsed object (zodResponseFormat, strict json_schema)", async () => {
    const completion = await client.chat.completions.parse({
      model: "fresh",
      messages: [{ role: "user", content: "weather?" }],
      response_format: zodResponseFormat(Weather, "weather"),
      seed: 1,
    });
    const parsed = completion.choices[0]!.message.parsed;
    expect(Weather.parse(parsed)).toEqual(parsed);
    expect(completion.choices[0]!.finish_reason).toBe("stop");
  });

  it("gives the AI SDK's generateObject an object of the schema", async () => {
    const provider = createOpenAI({ baseURL: fresh.url, apiKey: "EMPTY" });
    const { object } = await generateObject({
      model: provider.chat("fresh"),
      schema: Weather,
      prompt: "weather?",
      seed: 2,
      maxRetries: 0,
    });
    expect(Weather.parse(object)).toEqual(object);
  });

  it("gives LangChain's withStructuredOutput (its default method) an object of the schema", async () => {
    const model = new ChatOpenAI({
      model: "fresh",
      apiKey: "EMPTY",
      configuration: { baseURL: fresh.url },
      maxRetries: 0,
    });
    const object = await model.withStructuredOutput(Weather).invoke("weather?");
    expect(Weather.parse(object)).toEqual(object);
  });
});

describe("vLLM's request fields", () => {
  it("answers a vLLM-style request with top_k, min_p, penalties, chat_template_kwargs and an unknown field (200)", async () => {
    warnings.length = 0;
    const response = await postChat(fresh.url, {
      model: "fresh",
      messages: [{ role: "user", content: "hi" }],
      top_k: 20,
      min_p: 0.05,
      repetition_penalty: 1.1,
      presence_penalty: 0.3,
      frequency_penalty: 0.2,
      logit_bias: { "65": -100 },
      chat_template_kwargs: { enable_thinking: false },
      skip_special_tokens: true,
      made_up_field: 1,
      seed: 3,
      max_tokens: 12,
    });
    expect(response.status).toBe(200);
    expect(response.headers["x-ignored-fields"]).toBe("made_up_field");
    expect(warnings).toEqual(["The following fields were present in the request but ignored: {'made_up_field'}"]);
  });

  it("gives prompt_logprobs on chat equal to /v1/completions with echo and logprobs for the same prompt", async () => {
    const chat = (
      await postChat(fresh.url, {
        model: "fresh",
        messages: [{ role: "user", content: "the same prompt" }],
        max_tokens: 2,
        prompt_logprobs: 2,
        return_token_ids: true,
      })
    ).json as {
      prompt_token_ids: number[];
      prompt_logprobs: (Record<string, { logprob: number; rank: number }> | null)[];
    };
    const text = (
      await rawRequest(
        `${fresh.url}/completions`,
        "POST",
        JSON.stringify({ model: "fresh", prompt: chat.prompt_token_ids, echo: true, logprobs: 2, max_tokens: 1 }),
      )
    ).text;
    const echoed = (
      JSON.parse(text) as {
        choices: { logprobs: { token_logprobs: (number | null)[]; top_logprobs: (Record<string, number> | null)[] } }[];
      }
    ).choices[0]!.logprobs;
    const prompt = chat.prompt_token_ids;
    expect(chat.prompt_logprobs).toHaveLength(prompt.length);
    expect(chat.prompt_logprobs[0]).toBeNull();
    expect(echoed.token_logprobs[0]).toBeNull();
    for (let i = 1; i < prompt.length; i++) {
      const entry = chat.prompt_logprobs[i]!;
      expect(entry[String(prompt[i])]!.logprob).toBe(echoed.token_logprobs[i]);
      // The prompt token and the two most likely, the same numbers on both sides (echo keys them by text).
      const values = Object.values(entry).map((one) => one.logprob);
      expect(values.length).toBeGreaterThanOrEqual(2);
      for (const value of Object.values(echoed.top_logprobs[i]!)) expect(values).toContain(value);
    }
    // /v1/completions' own prompt_logprobs (per choice) are chat's for the same prompt tokens.
    const completed = (
      await rawRequest(
        `${fresh.url}/completions`,
        "POST",
        JSON.stringify({ model: "fresh", prompt: chat.prompt_token_ids, prompt_logprobs: 2, max_tokens: 1 }),
      )
    ).text;
    expect((JSON.parse(completed) as { choices: { prompt_logprobs: unknown }[] }).choices[0]!.prompt_logprobs).toEqual(
      chat.prompt_logprobs,
    );
  });

  it("refuses fields it does not know with --strict, naming them", async () => {
    const strict = await serveCheckpoint({ ckpt: join(dir, "fresh"), port: 0, name: "fresh", strict: true });
    try {
      const refused = await postChat(strict.url, {
        model: "fresh",
        messages: [{ role: "user", content: "hi" }],
        made_up_field: 1,
      });
      expect(refused.status).toBe(400);
      expect((refused.json as { error: { param: string } }).error.param).toBe("made_up_field");
    } finally {
      await strict.close();
    }
  });
});

describe("streamed tool calls through the openai client's helpers", () => {
  const tools = [
    {
      type: "function" as const,
      function: {
        name: "get_weather",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    },
  ];

  it("streams the name first, then argument pieces, which ChatCompletionStream assembles into the whole answer's call", async () => {
    const taughtClient = new OpenAI({ baseURL: taught.url, apiKey: "EMPTY", maxRetries: 0 });
    const request = {
      model: "taught",
      messages: [{ role: "user" as const, content: QUESTION }],
      tools,
      temperature: 0,
    };
    const whole = await taughtClient.chat.completions.create(request);
    const stream = taughtClient.chat.completions.stream(request);
    const deltas: unknown[] = [];
    stream.on("chunk", (chunk) => deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? [])));
    const streamed = await stream.finalChatCompletion();
    // The same call (ids are random per response, vLLM's shape).
    const calls = (completion: OpenAI.ChatCompletion) =>
      completion.choices[0]!.message.tool_calls!.map((call) => ({ ...call, id: call.id.replace(/[0-9a-f]{32}$/, "") }));
    expect(calls(streamed)).toEqual(calls(whole));
    expect(streamed.choices[0]!.message.tool_calls![0]!.id).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
    expect(deltas[0]).toMatchObject({ index: 0, type: "function", function: { name: "get_weather", arguments: "" } });
    expect(deltas.length).toBeGreaterThan(3);
  });

  it("runs the tool through runTools, streamed", async () => {
    const taughtClient = new OpenAI({ baseURL: taught.url, apiKey: "EMPTY", maxRetries: 0 });
    const called: unknown[] = [];
    const runner = taughtClient.chat.completions.runTools(
      {
        model: "taught",
        messages: [{ role: "user", content: QUESTION }],
        temperature: 0,
        stream: true,
        tools: [
          {
            type: "function",
            function: {
              name: "get_weather",
              description: "the weather in a city",
              parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
              parse: (text: string) => JSON.parse(text) as { city: string },
              function: (args: { city: string }) => {
                called.push(args);
                return "sunny";
              },
            },
          },
        ],
      },
      { maxChatCompletions: 2 },
    );
    await runner.done();
    expect(called[0]).toEqual({ city: "Paris" });
  });
});

describe("metrics and version", () => {
  it("serves /metrics in Prometheus' text format, and /version", async () => {
    const root = fresh.url.replace(/\/v1$/, "");
    const metrics = await rawRequest(`${root}/metrics`, "GET");
    expect(metrics.status).toBe(200);
    expect(metrics.headers["content-type"]).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/^# HELP vllm:num_requests_running /m);
    // The scrape itself is not a running request.
    expect(metrics.text).toMatch(/^vllm:num_requests_running\{model_name="fresh"\} 0$/m);
    expect(metrics.text).toMatch(/^vllm:generation_tokens_total\{model_name="fresh"\} [1-9]\d*$/m);
    for (const histogram of [
      "vllm:time_to_first_token_seconds",
      "vllm:inter_token_latency_seconds",
      "vllm:request_queue_time_seconds",
    ])
      expect(metrics.text).toMatch(new RegExp(`^${histogram}_count\\{model_name="fresh"\\} [1-9]\\d*$`, "m"));
    expect(metrics.text).toMatch(/^vllm:e2e_request_latency_seconds_count\{model_name="fresh"\} [1-9]\d*$/m);
    const served = metrics.text
      .split("\n")
      .find(
        (line) =>
          line.startsWith("budgetrl_serve_http_requests_total{") && line.includes('path="/v1/chat/completions"'),
      );
    expect(served).toMatch(/status="200"/);
    const version = JSON.parse((await rawRequest(`${root}/version`, "GET")).text) as { version: string };
    expect(version.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
