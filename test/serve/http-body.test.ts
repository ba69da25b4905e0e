// Reading request bodies with a limit, over a loopback node:http server: a body within the limit is read whole; one
// whose Content-Length passes the limit is refused before a byte of it is sent; one that grows past it (chunked, no
// length) is refused as soon as it does, while the client still has the rest to send (the server never waits for,
// nor holds, the whole of an oversize body); a body that is not JSON is a 400.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asHttpError, errorBody } from "../../src/serve/errors.js";
import { parseJsonBody, readBody } from "../../src/serve/http-body.js";

const LIMIT = 1 << 20;
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((incoming, response) => {
    readBody(incoming, LIMIT)
      .then((bytes) => parseJsonBody(bytes))
      .then((json) => response.writeHead(200).end(JSON.stringify({ size: JSON.stringify(json).length })))
      .catch((error: unknown) => {
        const failure = asHttpError(error);
        response.writeHead(failure.status, failure.headers).end(JSON.stringify(errorBody(failure)));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `parts` (then leaves the request open unless `end`), resolving with the answer's status and body. */
function send(
  parts: readonly Buffer[],
  options: { readonly end: boolean; readonly length?: number },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: "POST",
        agent: false,
        headers: options.length === undefined ? {} : { "content-length": String(options.length) },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => {
          call.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    call.on("error", reject);
    call.flushHeaders();
    for (const part of parts) call.write(part);
    if (options.end) call.end();
  });
}

describe("readBody", () => {
  it("reads a body within the limit", async () => {
    const body = Buffer.from(JSON.stringify({ text: "x".repeat(LIMIT - 100) }));
    const answer = await send([body], { end: true });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ size: body.length });
  });

  it("refuses a declared 2 MB body over a 1 MB limit before any of it is sent", async () => {
    const answer = await send([], { end: false, length: 2 << 20 });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: "request_too_large", type: "invalid_request_error" },
    });
  });

  it("refuses a chunked body as soon as it passes the limit, the rest never sent", async () => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    const answer = await send(
      Array.from({ length: 17 }, () => chunk),
      { end: false },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { message: expect.stringMatching(/larger than 1048576 bytes/) as unknown },
    });
  });

  it("answers 400 for a body that is not JSON", async () => {
    const answer = await send([Buffer.from("{not json")], { end: true });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "invalid_json" } });
  });
});
