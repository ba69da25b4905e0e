// The API key of `budgetrl serve --api-key`: the header check (constant-time, Bearer only), loopback addresses, and
// over loopback a served checkpoint that answers a /v1 request without the key or with a wrong one with a 401 in
// OpenAI's shape, with the key a 200; the other paths stay open; a 2 MB body over a 1 MB limit is a 413.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyChecker, isLoopbackAddress, needsApiKey } from "../../src/serve/api-key.js";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { apiKeyFrom } from "../../src/cli/serve.js";
import { freshCheckpoint, GRID } from "./helpers.js";

describe("the key check", () => {
  it("takes exactly `Bearer KEY`, and nothing else", () => {
    const check = apiKeyChecker("s3cret-key");
    expect(check("Bearer s3cret-key")).toBe(true);
    expect(check("bearer s3cret-key")).toBe(true);
    for (const header of [undefined, "", "Bearer", "Bearer ", "s3cret-key", "Basic s3cret-key", "Bearer s3cret-ke"])
      expect(check(header), String(header)).toBe(false);
    expect(check("Bearer s3cret-key-and-more")).toBe(false);
  });

  it("guards the /v1 paths only, as vLLM does", () => {
    expect(["/v1", "/v1/models", "/v1/chat/completions", "/v1/unknown"].every(needsApiKey)).toBe(true);
    expect(["/health", "/metrics", "/version", "/tokenize", "/v10", "/"].some(needsApiKey)).toBe(false);
  });

  it("knows loopback addresses from the others", () => {
    for (const address of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1", "[::1]", "0:0:0:0:0:0:0:1"])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["0.0.0.0", "::", "10.0.0.2", "192.168.1.5", "::ffff:10.0.0.1", "fe80::1"])
      expect(isLoopbackAddress(address), address).toBe(false);
  });

  it("comes from --api-key, else BUDGETRL_API_KEY, else VLLM_API_KEY", () => {
    expect(apiKeyFrom("flag", { BUDGETRL_API_KEY: "ours", VLLM_API_KEY: "vllm" })).toBe("flag");
    expect(apiKeyFrom(undefined, { BUDGETRL_API_KEY: "ours", VLLM_API_KEY: "vllm" })).toBe("ours");
    expect(apiKeyFrom(undefined, { BUDGETRL_API_KEY: "", VLLM_API_KEY: "vllm" })).toBe("vllm");
    expect(apiKeyFrom(undefined, {})).toBeUndefined();
  });
});

describe("a served checkpoint with an API key, over loopback", () => {
  let serving: Serving;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-key-"));
    const ckpt = await freshCheckpoint(join(dir, "ckpt"), { maxNewTokens: 4, history: "segments" });
    serving = await serveCheckpoint({ ckpt, port: 0, name: "keyed", apiKey: "s3cret", maxRequestBytes: 1 << 20 });
  });
  afterAll(() => serving.close());

  const chat = (headers: Record<string, string>, content = GRID): Promise<Response> =>
    fetch(`${serving.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ model: "keyed", messages: [{ role: "user", content }], max_tokens: 4, seed: 1 }),
    });

  it("answers 401 in OpenAI's shape without the key or with a wrong one, 200 with it", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: "s3cret" }]) {
      const refused = await chat(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await refused.json()).toEqual({
        error: {
          message: expect.stringMatching(/API key/) as unknown,
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      });
    }
    const models = await fetch(`${serving.url}/models`);
    expect(models.status).toBe(401);
    const answered = await chat({ authorization: "Bearer s3cret" });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { object: string }).object).toBe("chat.completion");
  });

  it("leaves /health and /version open", async () => {
    expect((await fetch(serving.url.replace(/\/v1$/, "/health"))).status).toBe(200);
    expect((await fetch(serving.url.replace(/\/v1$/, "/version"))).status).toBe(200);
  });

  it("refuses a 2 MB body over a 1 MB limit with a 413 in OpenAI's shape", async () => {
    const response = await chat({ authorization: "Bearer s3cret" }, "x".repeat(2 << 20));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        code: "request_too_large",
        message: expect.stringMatching(/1048576 bytes/) as unknown,
      },
    });
    // The server goes on serving.
    expect((await chat({ authorization: "Bearer s3cret" })).status).toBe(200);
  });
});
