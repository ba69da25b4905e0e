// The HTTP server over a small checkpoint: its routes, errors in OpenAI's shape with the right statuses, answers
// that depend only on the request, streaming as Server-Sent Events, concurrent requests batched into one model
// call, 429 when the queue is full, and a stop that lets requests in flight finish.
import { mkdtempSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TinyModel } from "../../src/nn/model.js";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { freshCheckpoint, GRID, postChat, rawRequest } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-"));
let ckpt: string;
let serving: Serving;
const calls: number[] = [];

/** Calls into the model wait for `open()` while `hold` is set (tests of batching and queues). */
const gate = { hold: false, waiters: [] as (() => void)[], started: 0 };
function gated(model: TinyModel): TinyModel {
  return {
    ...model,
    sample: async (prompts, options) => {
      calls.push(prompts.length);
      gate.started++;
      if (gate.hold) await new Promise<void>((resolve) => gate.waiters.push(resolve));
      return model.sample(prompts, options);
    },
  };
}
function open(): void {
  gate.hold = false;
  for (const waiter of gate.waiters.splice(0)) waiter();
}

/** Yield to the event loop until `condition` holds (the server reached a state; no timers). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const ask = (extra: Record<string, unknown> = {}) => ({
  model: "tiny-test",
  messages: [{ role: "user", content: GRID }],
  max_tokens: 8,
  ...extra,
});

beforeAll(async () => {
  ckpt = await freshCheckpoint(join(dir, "ckpt"), { maxNewTokens: 8, history: "segments" });
  serving = await serveCheckpoint(
    { ckpt, port: 0, name: "tiny-test", maxRequestBytes: 4096, maxN: 4, maxQueue: 4 },
    { wrapModel: gated, clock: () => 1_700_000_000_000 },
  );
});
afterAll(async () => {
  open();
  await serving.close();
});

describe("budgetrl serve over HTTP", () => {
  it("listens on the loopback address and lists its model", async () => {
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await rawRequest(`${serving.url}/models`, "GET");
    expect(models.status).toBe(200);
    expect(JSON.parse(models.text)).toEqual({
      object: "list",
      data: [{ id: "tiny-test", object: "model", created: 0, owned_by: "budgetrl", max_model_len: 192 }],
    });
    expect(JSON.parse((await rawRequest(`${serving.url}/models/tiny-test`, "GET")).text)).toMatchObject({
      id: "tiny-test",
    });
    expect((await rawRequest(serving.url.replace("/v1", "/health"), "GET")).status).toBe(200);
  });

  it("answers bad requests with OpenAI-shaped errors and the status clients expect", async () => {
    const cases: [
      Promise<{ status: number; text: string; headers: Record<string, unknown> }>,
      number,
      RegExp,
      string,
    ][] = [
      [rawRequest(`${serving.url}/embeddings`, "POST", "{}"), 404, /no such path: \/v1\/embeddings/, "not_found"],
      [rawRequest(`${serving.url}/models/other`, "GET"), 404, /The model `other` does not exist/, "model_not_found"],
      [
        rawRequest(`${serving.url}/chat/completions`, "GET"),
        405,
        /\/v1\/chat\/completions takes POST, not GET/,
        "method_not_allowed",
      ],
      [
        rawRequest(`${serving.url}/chat/completions`, "POST", "{not json"),
        400,
        /the body is not valid JSON/,
        "invalid_json",
      ],
      [postChat(serving.url, { model: "tiny-test" }), 400, /^messages: is required$/, "missing_required_parameter"],
      [
        postChat(serving.url, ask({ model: "gpt-4" })),
        404,
        /The model `gpt-4` does not exist: this server serves `tiny-test`/,
        "model_not_found",
      ],
      [postChat(serving.url, ask({ n: 5 })), 400, /^n: at most 4 choices per request/, "invalid_value"],
      [
        postChat(serving.url, ask({ tools: [{ type: "function" }] })),
        400,
        /^tools\[0\]\.function: is required$/,
        "missing_required_parameter",
      ],
      [
        postChat(serving.url, ask({ tools: [{ type: "function", function: { name: "f", parameters: "x" } }] })),
        400,
        /^tools\[0\]\.function\.parameters: expected a JSON Schema object/,
        "invalid_type",
      ],
      [
        postChat(
          serving.url,
          ask({ tools: [{ type: "function", function: { name: "f", parameters: { type: "string" } } }] }),
        ),
        400,
        /^tools\[0\]\.function\.parameters\.type: a function's arguments are a JSON object/,
        "invalid_value",
      ],
      [
        postChat(serving.url, ask({ messages: [{ role: "user", content: "x".repeat(3000) }] })),
        400,
        /maximum context length is 192 tokens/,
        "context_length_exceeded",
      ],
      [
        postChat(serving.url, ask({ messages: [{ role: "user", content: "x".repeat(5000) }] })),
        413,
        /larger than 4096 bytes/,
        "request_too_large",
      ],
    ];
    for (const [pending, status, message, code] of cases) {
      const response = await pending;
      expect(response.status).toBe(status);
      const body = JSON.parse(response.text) as { error: { message: string; type: string; code: string | null } };
      expect(body.error.message).toMatch(message);
      expect(body.error.code).toBe(code);
      expect(typeof body.error.type).toBe("string");
    }
    expect((await rawRequest(`${serving.url}/chat/completions`, "GET")).headers["allow"]).toBe("POST");
    const tool = JSON.parse((await postChat(serving.url, ask({ tools: [{ type: "function" }] }))).text) as {
      error: { param: string | null; type: string };
    };
    expect(tool.error).toMatchObject({ param: "tools[0].function", type: "invalid_request_error" });
  });

  it("refuses bad text completions and tokenize bodies, naming the field", async () => {
    const post = async (path: string, body: unknown) => {
      const response = await rawRequest(`${serving.url.replace(/\/v1$/, "")}${path}`, "POST", JSON.stringify(body));
      return {
        status: response.status,
        error: (JSON.parse(response.text) as { error?: { message: string; param: string | null; code: string | null } })
          .error,
      };
    };
    const cases: [string, unknown, number, string | null, RegExp][] = [
      ["/v1/completions", { model: "tiny-test" }, 400, "prompt", /^prompt: is required$/],
      ["/v1/completions", { model: "tiny-test", prompt: "" }, 400, "prompt", /needs at least one token/],
      [
        "/v1/completions",
        {
          model: "tiny-test",
          prompt: [
            [1, 2],
            [3, 999],
          ],
        },
        400,
        "prompt[1]",
        /token 999 is not a token of this model/,
      ],
      [
        "/v1/completions",
        { model: "tiny-test", prompt: "x".repeat(190), max_tokens: 8 },
        400,
        "prompt",
        /maximum context length is 192 tokens\. However, you requested 198 tokens/,
      ],
      ["/v1/completions", { model: "tiny-test", prompt: "hi", best_of: 3 }, 400, "best_of", /is not supported/],
      ["/v1/completions", { model: "tiny-test", prompt: "hi", top_k: -3 }, 400, "top_k", /expected -1, 0/],
      ["/v1/completions", { model: "other", prompt: "hi" }, 404, "model", /does not exist/],
      [
        "/v1/completions",
        { model: "tiny-test", prompt: Array.from({ length: 3 }, () => "hi"), n: 2 },
        400,
        "prompt",
        /more than the server queues at once/,
      ],
      ["/tokenize", { prompt: 3 }, 400, "prompt", /expected a string/],
      ["/tokenize", { prompt: "x", colour: "red" }, 400, "colour", /not a field of this endpoint/],
      ["/tokenize", { messages: [{ role: "wizard", content: "x" }] }, 400, "messages[0].role", /expected one of/],
      ["/detokenize", { tokens: [1, 400] }, 400, "tokens[1]", /not a token of this model/],
      ["/detokenize", { model: "other", tokens: [1] }, 404, "model", /does not exist/],
    ];
    for (const [path, body, status, param, message] of cases) {
      const { status: got, error } = await post(path, body);
      expect(got, JSON.stringify(body)).toBe(status);
      expect(error?.param, JSON.stringify(body)).toBe(param);
      expect(error?.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it("refuses a body over the limit whose length is not declared up front", async () => {
    const body = Buffer.from(JSON.stringify(ask({ messages: [{ role: "user", content: "y".repeat(6000) }] })));
    const response = await rawRequest(`${serving.url}/chat/completions`, "POST", [
      body.subarray(0, 3000),
      body.subarray(3000),
    ]);
    expect(response.status).toBe(413);
  });

  it("gives the same answer to the same request, with token ids aligned with log-probs", async () => {
    const request = ask({ seed: 9, n: 2, logprobs: true, return_token_ids: true });
    const first = await postChat(serving.url, request);
    const again = await postChat(serving.url, request);
    expect(first.status).toBe(200);
    const body = first.json as {
      created: number;
      choices: { token_ids: number[]; logprobs: { content: { logprob: number }[] } }[];
      prompt_token_ids: number[];
      usage: { prompt_tokens: number };
    };
    expect(body.created).toBe(1_700_000_000);
    expect((again.json as typeof body).choices).toEqual(body.choices);
    expect(body.choices).toHaveLength(2);
    for (const choice of body.choices) expect(choice.logprobs.content).toHaveLength(choice.token_ids.length);
    expect(body.usage.prompt_tokens).toBe(body.prompt_token_ids.length);
  });

  it("streams Server-Sent Events that add up to the same answer", async () => {
    const request = ask({ seed: 4, logprobs: true, return_token_ids: true });
    const whole = (await postChat(serving.url, request)).json as {
      choices: { message: { content: string }; token_ids: number[]; finish_reason: string }[];
    };
    const stream = await rawRequest(
      `${serving.url}/chat/completions`,
      "POST",
      JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
    );
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toBe("text/event-stream");
    const events = stream.text.split("\n\n").filter((event) => event !== "");
    expect(events.every((event) => event.startsWith("data: "))).toBe(true);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map(
      (event) =>
        JSON.parse(event.slice(6)) as {
          object: string;
          choices: { delta: { content?: string }; finish_reason: string | null; token_ids?: number[] }[];
          usage: unknown;
        },
    );
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? "")).join("")).toBe(
      whole.choices[0]!.message.content,
    );
    expect(chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.token_ids ?? []))).toEqual(
      whole.choices[0]!.token_ids,
    );
    expect(
      chunks
        .flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason))
        .filter((reason) => reason !== null),
    ).toEqual([whole.choices[0]!.finish_reason]);
    expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: whole.choices[0]!.token_ids.length });
  });

  it("stops sampling a stream whose client has gone", async () => {
    const before = serving.stats().modelCalls;
    await new Promise<void>((resolve, reject) => {
      const call = request(
        `${serving.url}/chat/completions`,
        { method: "POST", agent: false, headers: { "content-type": "application/json" } },
        (response) => {
          let events = 0;
          response.on("data", (chunk: Buffer) => {
            events += chunk.toString("utf8").split("\n\n").length - 1;
            if (events >= 3) call.destroy();
          });
          response.on("error", () => undefined);
        },
      );
      call.on("error", () => undefined);
      call.on("close", () => resolve());
      call.end(JSON.stringify(ask({ max_tokens: 120, ignore_eos: true, stream: true, seed: 1 })));
      setTimeout(() => reject(new Error("the stream never started")), 10_000).unref();
    });
    await until(() => serving.stats().inFlight === 0);
    // One model call per token: far fewer than the 120 the reply was allowed.
    expect(serving.stats().modelCalls - before).toBeLessThan(60);
  });

  it("batches requests that arrive while the model is busy into one call, each answered as if alone", async () => {
    const seeds = [11, 12, 13, 14];
    const alone = [];
    for (const seed of seeds)
      alone.push(((await postChat(serving.url, ask({ seed }))).json as { choices: unknown }).choices);
    calls.length = 0;
    gate.hold = true;
    const started = gate.started;
    const first = postChat(serving.url, ask({ seed: seeds[0] }));
    await until(() => gate.started > started);
    const rest = seeds.slice(1).map((seed) => postChat(serving.url, ask({ seed })));
    await until(() => serving.stats().waiting === 3);
    const before = serving.stats();
    open();
    const answers = await Promise.all([first, ...rest]);
    expect(calls).toEqual([1, 3]);
    const health = JSON.parse((await rawRequest(serving.url.replace("/v1", "/health"), "GET")).text) as Record<
      string,
      number
    >;
    expect(health).toMatchObject({
      status: "ok",
      waiting: 0,
      model_calls: before.modelCalls + 1,
      sequences: before.sequences + 3,
    });
    expect(health["peak_in_flight"]).toBeGreaterThanOrEqual(4);
    expect(answers.map((answer) => (answer.json as { choices: unknown }).choices)).toEqual(alone);
  });

  it("answers 429 with Retry-After when the queue is full", async () => {
    gate.hold = true;
    const started = gate.started;
    const first = postChat(serving.url, ask());
    await until(() => gate.started > started);
    const filling = postChat(serving.url, ask({ n: 4 }));
    await until(() => serving.stats().waiting === 4);
    const refused = await postChat(serving.url, ask());
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect((refused.json as { error: { type: string } }).error.type).toBe("rate_limit_error");
    open();
    expect((await first).status).toBe(200);
    expect((await filling).status).toBe(200);
  });

  it("stops cleanly: a request in flight is answered, then the port is closed", async () => {
    const other = await serveCheckpoint({ ckpt, port: 0, name: "tiny-test" }, { wrapModel: gated });
    gate.hold = true;
    const started = gate.started;
    const inFlight = postChat(other.url, ask());
    await until(() => gate.started > started);
    const closing = other.close();
    open();
    expect((await inFlight).status).toBe(200);
    await closing;
    await expect(rawRequest(`${other.url}/models`, "GET")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("refuses a port in use and a checkpoint it cannot read, naming the field", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as AddressInfo).port;
    await expect(serveCheckpoint({ ckpt, port })).rejects.toThrow(
      new RegExp(`^port: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE[\\s\\S]*HINT: pick another --port`),
    );
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    await expect(serveCheckpoint({ ckpt: join(dir, "missing"), port: 0 })).rejects.toThrow(
      /^ckpt: cannot load checkpoint .*missing/,
    );
    await expect(serveCheckpoint({ ckpt, port: 0, maxTokens: 190 })).rejects.toThrow(
      /^maxTokens: at most 189 for this checkpoint/,
    );
    await expect(serveCheckpoint({ ckpt, port: 0, maxN: 8, maxQueue: 4 })).rejects.toThrow(
      /^maxQueue: must be at least the most choices per request/,
    );
  });
});
