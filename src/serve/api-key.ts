// The API key of `budgetrl serve --api-key KEY` (as vLLM's --api-key): every request to a /v1 path must carry
// `Authorization: Bearer KEY`, else it gets a 401 in OpenAI's shape (code invalid_api_key) before its body is read;
// the other paths (/health, /metrics, /version, /tokenize, /detokenize) stay open, as in vLLM. The given key is
// compared with the key in constant time: both are hashed (SHA-256) and the equal-length digests compared with
// crypto.timingSafeEqual, so neither the key's length nor how much of it a guess got right shows in the time.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { HttpError } from "./errors.js";

/** The paths that need the key. */
export const needsApiKey = (path: string): boolean => path === "/v1" || path.startsWith("/v1/");

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** True when the Authorization header carries `Bearer KEY` for this key (scheme case-insensitive, as RFC 7235). */
export function apiKeyChecker(key: string): (authorization: string | undefined) => boolean {
  const expected = digest(key);
  return (authorization) => {
    const given = /^Bearer[ \t]+(.*)$/i.exec(authorization ?? "")?.[1]?.trim() ?? "";
    // Always one hash and one comparison, whatever was sent.
    return timingSafeEqual(digest(given), expected);
  };
}

/** The 401 of a missing or wrong key (OpenAI's words and code for a bad key). */
export function unauthorized(authorization: string | undefined): HttpError {
  const message =
    authorization === undefined
      ? "You didn't provide an API key: send it as Authorization: Bearer KEY (this server was started with --api-key)"
      : "Incorrect API key provided: send the server's key as Authorization: Bearer KEY";
  return new HttpError(401, message, {
    code: "invalid_api_key",
    // The body is not read: the connection cannot carry another request after it.
    headers: { "www-authenticate": 'Bearer realm="budgetrl serve"', connection: "close" },
  });
}

/** True for an address only this machine reaches: 127.0.0.0/8, ::1 (and IPv4 loopback mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "").replace(/^::ffff:/i, "");
  if (isIP(plain) === 4) return plain.startsWith("127.");
  return plain === "::1" || /^(0{1,4}:){7}0{0,3}1$/.test(plain);
}
