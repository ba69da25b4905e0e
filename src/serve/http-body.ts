// Reading a request body with a size limit (node:http), so that every client reads the 413 rather than a broken
// connection:
//   Expect: 100-continue   decided from Content-Length before anything is sent back (continueOrRefuse, the
//                          server's checkContinue): over the limit, 413 with Connection: close and no 100 Continue
//                          (curl, which asks for bodies over 1 MiB, never sends the body); within it, 100 Continue.
//                          Another Expect is a 417 (expectationFailed).
//   Content-Length over    413 written at once, the body read and dropped while the client sends it, and the answer
//   the limit              ended only then (closing before makes the openai client, fetch, requests and urllib, which
//                          sends Connection: close, report a broken pipe or a reset, and retry); a keep-alive
//                          connection stays usable.
//   a chunked body         read until it passes the limit, then the same: 413, the rest read and dropped.
// At most DRAIN_LIMIT_BYTES are dropped per request; past them the connection is closed. The body is parsed as
// JSON (400 with the parser's message when it is not).
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "./errors.js";
import { thrownMessage } from "../core/errors.js";

/** The most bytes of a refused body read and dropped before the connection is closed. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

function tooLarge(limit: number, close: boolean, settled?: Promise<void>): HttpError {
  return new HttpError(413, `the request body is larger than ${limit} bytes (budgetrl serve --max-request-bytes)`, {
    code: "request_too_large",
    ...(close ? { headers: { connection: "close" } } : {}),
    ...(settled === undefined ? {} : { settled }),
  });
}

const declaredLength = (request: IncomingMessage): number => Number(request.headers["content-length"]);
const expectsContinue = (request: IncomingMessage): boolean =>
  /^\s*100-continue\s*$/i.test(request.headers.expect ?? "");

const withheld = new WeakSet<IncomingMessage>();

/** For a request with Expect: 100-continue: sends 100 Continue unless its Content-Length is over the limit (then
 * the body is never sent, and readBody answers 413). */
export function continueOrRefuse(request: IncomingMessage, response: ServerResponse, limit: number): void {
  const declared = declaredLength(request);
  if (Number.isFinite(declared) && declared > limit) withheld.add(request);
  else response.writeContinue();
}

/** True when the client was never asked for its body (its answer must close the connection). */
export function bodyWithheld(request: IncomingMessage): boolean {
  return withheld.has(request);
}

/** The answer to an Expect header other than 100-continue. */
export function expectationFailed(request: IncomingMessage): HttpError {
  return new HttpError(417, `Expect: ${request.headers.expect ?? ""} is not supported (only 100-continue is)`, {
    code: "expectation_failed",
    headers: { connection: "close" },
  });
}

/** Reads and drops the rest of a refused body, closing the connection past DRAIN_LIMIT_BYTES; settles when the
 * body has ended or the connection is gone. */
function drain(request: IncomingMessage, already: number): Promise<void> {
  let dropped = already;
  const done = new Promise<void>((resolve) => {
    request.on("end", resolve);
    request.on("close", resolve);
    request.on("error", () => resolve());
  });
  request.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT_BYTES) request.socket.destroy();
  });
  request.resume();
  return done;
}

/** The body's bytes, at most `limit`; rejects with 413 beyond it. */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(request);
    if (Number.isFinite(declared) && declared > limit) {
      // With Expect: 100-continue the body was never asked for: the connection closes after the answer.
      if (expectsContinue(request) || bodyWithheld(request)) reject(tooLarge(limit, true));
      else reject(tooLarge(limit, false, drain(request, 0)));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      request.off("data", onData);
      chunks.length = 0;
      reject(tooLarge(limit, false, drain(request, size)));
    };
    request.on("data", onData);
    request.on("end", () => size <= limit && resolve(Buffer.concat(chunks)));
    request.on("error", (error) => size <= limit && reject(error));
  });
}

/** The body as JSON, or 400. */
export function parseJsonBody(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch (error) {
    throw new HttpError(400, `the body is not valid JSON: ${thrownMessage(error)}`, { code: "invalid_json" });
  }
}
