// Reading a request body with a size limit (node:http): a Content-Length over the limit is refused before
// anything is read, a body that grows past it as soon as it does (413); the rest of the upload is discarded
// so that the client can read the answer. The body is parsed as JSON (400 with the parser's message when it
// is not).
import type { IncomingMessage } from "node:http";
import { HttpError } from "./errors.js";
import { thrownMessage } from "../core/errors.js";

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `the request body is larger than ${limit} bytes (budgetrl serve --max-request-bytes)`, {
    code: "request_too_large",
    headers: { connection: "close" },
  });
}

/** The body's bytes, at most `limit`; rejects with 413 beyond it. */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      request.resume();
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => refused || resolve(Buffer.concat(chunks)));
    request.on("error", (error) => refused || reject(error));
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
