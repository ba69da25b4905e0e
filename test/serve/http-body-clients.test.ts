// The body limit as real clients meet it, against `budgetrl serve` (its default 4 MiB limit) over loopback: curl
// with its default Expect: 100-continue for a 5 MB body prints 413 (refused from Content-Length, the body never
// sent); the openai node client gets an HTTP 413 error, not a connection error (and does not retry it); Python's
// requests and urllib read the 413 after their upload (the rest of the body read and dropped); a chunked body
// over the limit gets its 413 too; an Expect other than 100-continue is a 417; the connection of a drained 413
// stays usable.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { freshCheckpoint } from "./helpers.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-body-"));
const big = join(dir, "5MB.json");
let serving: Serving;

beforeAll(async () => {
  writeFileSync(
    big,
    JSON.stringify({ model: "body", messages: [{ role: "user", content: "x".repeat(5 * 1000 * 1000) }] }),
  );
  serving = await serveCheckpoint({
    ckpt: await freshCheckpoint(join(dir, "ckpt"), { maxNewTokens: 4, history: "segments" }),
    port: 0,
    name: "body",
  });
}, 60_000);
afterAll(async () => {
  await serving.close();
});

describe("the body limit, as clients see it", () => {
  it("curl --data-binary @5MB.json (Expect: 100-continue) prints 413", async () => {
    const { stdout, stderr } = await run("curl", [
      "-sS",
      "-o",
      "/dev/null",
      "-w",
      "%{http_code}",
      "-H",
      "content-type: application/json",
      "--data-binary",
      `@${big}`,
      `${serving.url}/chat/completions`,
    ]);
    expect(stderr).toBe("");
    expect(stdout).toBe("413");
  });

  it("gives the openai node client an HTTP 413 error, not a connection error", async () => {
    const client = new OpenAI({ baseURL: serving.url, apiKey: "EMPTY" });
    const error = await client.chat.completions
      .create({ model: "body", messages: [{ role: "user", content: "x".repeat(5 * 1000 * 1000) }] })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).not.toBeInstanceOf(OpenAI.APIConnectionError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("request_too_large");
  });

  it("gives Python's requests and urllib the 413", async () => {
    const script = `
import json, sys, urllib.request, urllib.error
import requests
url = sys.argv[1]
body = open(sys.argv[2], "rb").read()
answer = requests.post(url, data=body, headers={"content-type": "application/json"})
print(answer.status_code, answer.json()["error"]["code"])
try:
    urllib.request.urlopen(urllib.request.Request(url, data=body, headers={"content-type": "application/json"}))
    print("accepted")
except urllib.error.HTTPError as error:
    print(error.code, json.loads(error.read())["error"]["code"])
`;
    // Debian's python3 with python3-requests (.ci/run installs it).
    const { stdout } = await run("/usr/bin/python3", ["-c", script, `${serving.url}/chat/completions`, big]);
    expect(stdout.trim().split("\n")).toEqual(["413 request_too_large", "413 request_too_large"]);
  });

  it("answers a chunked body over the limit with 413 once the client is done, and keeps the connection", async () => {
    const agent = new (await import("node:http")).Agent({ keepAlive: true, maxSockets: 1 });
    const post = (chunks: number): Promise<{ status: number; socket: unknown }> =>
      new Promise((resolve, reject) => {
        const call = request(`${serving.url}/chat/completions`, { method: "POST", agent }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, socket: call.socket }));
        });
        call.on("error", reject);
        const chunk = Buffer.alloc(256 * 1024, "x");
        for (let i = 0; i < chunks; i++) call.write(chunk);
        call.end();
      });
    const refused = await post(24);
    expect(refused.status).toBe(413);
    const next = await post(0);
    expect(next.status).toBe(400); // an empty body: not JSON, on the same connection
    expect(next.socket).toBe(refused.socket);
    agent.destroy();
  });

  it("answers an Expect other than 100-continue with 417", async () => {
    const { stdout } = await run("curl", [
      "-s",
      "-w",
      "\n%{http_code}",
      "-H",
      "expect: something-else",
      "--data",
      "{}",
      `${serving.url}/chat/completions`,
    ]);
    const [body, status] = stdout.split("\n");
    expect(status).toBe("417");
    expect(JSON.parse(body!)).toMatchObject({ error: { code: "expectation_failed" } });
  });
});
