// The view's API key (`budgetrl view --api-key KEY`, as `serve`'s): a browser cannot send a Bearer header, so the key
// comes once in the address (?key=KEY), is answered with a cookie and a redirect to the same address without it, and
// the cookie (HttpOnly, SameSite=Strict) carries it from then on; a script or curl may send `Authorization: Bearer
// KEY` instead. The cookie holds a digest of the key, not the key. Every comparison is in constant time (the key's
// digest against the given one's: serve/api-key.ts).
import { createHash, timingSafeEqual } from "node:crypto";
import { apiKeyChecker } from "../serve/api-key.js";

export const KEY_COOKIE = "budgetrl_view";

export type KeyVerdict =
  | { readonly kind: "allowed" }
  /** The key came in the address: set the cookie, go to `location` (the address without the key). */
  | { readonly kind: "remember"; readonly cookie: string; readonly location: string }
  | { readonly kind: "denied" };

const cookieToken = (key: string): Buffer => createHash("sha256").update(`budgetrl view\u0000${key}`).digest();

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The gate of a key: what a request with these headers and address may do. */
export function keyGate(
  key: string,
): (
  headers: { readonly authorization?: string | undefined; readonly cookie?: string | undefined },
  url: URL,
) => KeyVerdict {
  const bearer = apiKeyChecker(key);
  const token = cookieToken(key);
  const tokenText = token.toString("hex");
  return (headers, url) => {
    const given = url.searchParams.get("key");
    if (given !== null && bearer(`Bearer ${given}`)) {
      const location = new URL(url);
      location.searchParams.delete("key");
      return {
        kind: "remember",
        cookie: `${KEY_COOKIE}=${tokenText}; HttpOnly; SameSite=Strict; Path=/`,
        location: `${location.pathname}${location.search}${location.hash}`,
      };
    }
    if (headers.authorization !== undefined && bearer(headers.authorization)) return { kind: "allowed" };
    const cookie = Buffer.from(cookieValue(headers.cookie, KEY_COOKIE) ?? "", "hex");
    return cookie.length === token.length && timingSafeEqual(cookie, token) ? { kind: "allowed" } : { kind: "denied" };
  };
}
