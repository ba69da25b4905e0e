// What a failed request means, and how long to wait before the next attempt (pure functions).
//
//   timeout, dropped or refused connection, unreadable body     -> retry
//   408, 409, 429, 5xx                                          -> retry, after Retry-After / retry-after-ms if given
//   400 saying the prompt exceeds the context                   -> context_length (ends the episode, counted)
//   anything else (401, 403, 404, other 400s), our own abort    -> fatal (the episode is an error, retried by --resume)
//   2xx that is not a chat completion (transport.ts checks it    -> fatal, MalformedResponseError: a broken server or
//   with response.ts, responseProblem)                              gateway, not the model; asking again does not mend it
//
// Waits: Retry-After when the server gives it, else backoff * 2^attempt with "equal jitter" (half fixed, half
// drawn from the request's seeded stream), both capped at maxBackoffMs. Attempts are bounded by `retries`.
import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { deepestCause } from "../../core/errors.js";
import type { Rng } from "../../core/rng.js";

export type FaultVerdict =
  | { readonly kind: "retry"; readonly reason: string; readonly retryAfterMs?: number }
  | { readonly kind: "context_length"; readonly reason: string }
  | { readonly kind: "fatal"; readonly reason: string };

/** How servers word "the prompt is longer than the context" (OpenAI, vLLM, SGLang, llama.cpp, TGI, Ollama). */
const CONTEXT_LENGTH_PATTERNS: readonly RegExp[] = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /context length/i,
  /context size/i,
  /context window/i,
  /exceed_context_size/i,
  /prompt is too long/i,
  /input (?:is )?too long/i,
  /too many (?:input )?tokens/i,
];

export function isContextLengthText(text: string): boolean {
  return CONTEXT_LENGTH_PATTERNS.some((pattern) => pattern.test(text));
}

interface HeaderReader {
  get(name: string): string | null;
}

/** Milliseconds the server asks us to wait (retry-after-ms, or Retry-After in seconds or as a date). */
export function retryAfterMs(headers: HeaderReader | undefined, now: number): number | undefined {
  if (headers === undefined) return undefined;
  const millis = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const text = headers.get("retry-after");
  if (text === null || text.trim() === "") return undefined;
  const seconds = Number(text.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function errorText(error: APIError): string {
  const body = error.error;
  const inner = body !== null && typeof body === "object" ? JSON.stringify(body) : "";
  return `${error.message} ${inner}`;
}

const RETRY_STATUSES = new Set([408, 409, 429]);

export function classifyFault(error: unknown, now: number): FaultVerdict {
  if (error instanceof APIUserAbortError) return { kind: "fatal", reason: "aborted" };
  if (error instanceof APIConnectionError) {
    const cause = deepestCause(error);
    // The client says only "Connection error."; what failed is in its causes (fetch failed, then the socket's).
    return { kind: "retry", reason: cause === undefined ? error.message : `connection error: ${cause}` };
  }
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    // The client's message starts with the status: "429 rate limited".
    const reason = error.message.startsWith(String(status)) ? error.message : `${status} ${error.message}`;
    if (RETRY_STATUSES.has(status) || status >= 500) {
      const after = retryAfterMs(error.headers, now);
      return after === undefined ? { kind: "retry", reason } : { kind: "retry", reason, retryAfterMs: after };
    }
    if (status === 400 && isContextLengthText(errorText(error))) return { kind: "context_length", reason };
    return { kind: "fatal", reason };
  }
  // A body that is not JSON (SyntaxError) or a stream cut mid-body: the server glitched, ask again.
  if (
    error instanceof SyntaxError ||
    (error instanceof Error && /terminated|socket|ECONNRESET|fetch failed/i.test(error.message))
  )
    return { kind: "retry", reason: error.message };
  return { kind: "fatal", reason: error instanceof Error ? error.message : String(error) };
}

export interface BackoffSettings {
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

/** Wait before retry number `attempt` (0-based). */
export function retryDelay(
  attempt: number,
  verdict: { readonly retryAfterMs?: number },
  settings: BackoffSettings,
  rng: Rng,
): number {
  if (verdict.retryAfterMs !== undefined) return Math.min(verdict.retryAfterMs, settings.maxBackoffMs);
  const full = Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** Math.min(attempt, 30));
  return full / 2 + (full / 2) * rng.next();
}
