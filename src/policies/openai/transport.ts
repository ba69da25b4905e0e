// Sending one chat-completions request through the official `openai` client, surviving faults: the client's
// own retries are off (its backoff is fixed and its jitter unseeded); here every attempt goes through the shared
// limiter (concurrency, requests per minute), a failed attempt is classified (faults.ts) and retried after a
// seeded, bounded wait that holds no slot. What finally fails throws: RequestFailedError (the episode becomes
// an error, retried by --resume) or ContextLengthError (the episode ends with stopReason "context_length").
// Counters say how many requests, retries and failures there were (tests bound them; bench reports them).
// Error bodies in vLLM's older top-level form ({"object": "error", "message": ...}) are wrapped as
// {"error": {...}} before the client reads them, so that their message (context length!) is not lost.
import { setMaxListeners } from "node:events";
import OpenAI from "openai";
import { ContextLengthError } from "../../core/policy.js";
import type { JsonObject } from "../../core/json.js";
import { createRng } from "../../core/rng.js";
import { classifyFault, retryDelay } from "./faults.js";
import { createRequestLimiter, realSleep, type RequestLimiter, type Sleep } from "./limiter.js";
import type { ClientOptions } from "./options.js";

/** A request that failed after its retries, or could not succeed (401, 404, ...). */
export class RequestFailedError extends Error {
  readonly attempts: number;
  constructor(message: string, attempts: number) {
    super(message);
    this.name = "RequestFailedError";
    this.attempts = attempts;
  }
}

export interface TransportStats {
  /** HTTP requests sent (retries included). */
  readonly requests: number;
  readonly retries: number;
  /** Requests that finally failed (errors and context-length ends). */
  readonly failures: number;
  /** Most requests in flight at once. */
  readonly peakInFlight: number;
}

export interface ChatTransport {
  /** POST /chat/completions with `body`; resolves with the parsed JSON response. `seed` seeds the retry jitter. */
  complete(body: JsonObject, seed: number, signal?: AbortSignal): Promise<unknown>;
  stats(): TransportStats;
}

export interface TransportSettings extends Pick<ClientOptions, "baseUrl" | "concurrency" | "rpm" | "timeoutMs" | "retries" | "backoffMs" | "maxBackoffMs"> {
  readonly apiKey: string;
  readonly now?: () => number;
  readonly sleep?: Sleep;
  /** Called before every wait between attempts (tests and logs see the waits). */
  readonly onRetry?: (event: { readonly attempt: number; readonly delayMs: number; readonly reason: string }) => void;
}

/** fetch, with error bodies that carry their message at the top level wrapped as {"error": body}. */
export const errorBodyFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.ok) return response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const topLevel = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) && !("error" in parsed) && "message" in parsed;
  return new Response(topLevel ? JSON.stringify({ error: parsed }) : text, { status: response.status, statusText: response.statusText, headers: response.headers });
};

export function createOpenaiTransport(settings: TransportSettings): ChatTransport {
  const now = settings.now ?? Date.now;
  const sleep = settings.sleep ?? realSleep;
  const client = new OpenAI({ apiKey: settings.apiKey, maxRetries: 0, timeout: settings.timeoutMs, fetch: errorBodyFetch, ...(settings.baseUrl === undefined ? {} : { baseURL: settings.baseUrl }) });
  const limiter: RequestLimiter = createRequestLimiter({ concurrency: settings.concurrency, rpm: settings.rpm, now, sleep });
  const counts = { requests: 0, retries: 0, failures: 0 };
  const ownSignals = new WeakMap<AbortSignal, AbortSignal>();
  /**
   * The signal requests listen on in place of the caller's: ours, aborted with it (one listener on the
   * caller's). Every request in flight or waiting for a slot adds a listener to it (the OpenAI client links
   * each request's fetch to its signal), so its listener count is the number of such requests, bounded by the
   * episodes in flight, not a leak; Node's default warning past 10 is off for this signal alone.
   */
  const requestSignal = (signal: AbortSignal): AbortSignal => {
    const known = ownSignals.get(signal);
    if (known !== undefined) return known;
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    ownSignals.set(signal, controller.signal);
    return controller.signal;
  };

  const send = (body: JsonObject, signal?: AbortSignal): Promise<unknown> =>
    limiter.run(async () => {
      counts.requests++;
      const params = body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
      return (await client.chat.completions.create(params, signal === undefined ? {} : { signal })) as unknown;
    }, signal);

  return {
    async complete(body, seed, callerSignal) {
      const signal = callerSignal === undefined ? undefined : requestSignal(callerSignal);
      const rng = createRng(seed);
      for (let attempt = 0; ; attempt++) {
        try {
          return await send(body, signal);
        } catch (error) {
          const verdict = classifyFault(error, now());
          if (signal?.aborted === true || verdict.kind === "fatal" || (verdict.kind === "retry" && attempt >= settings.retries)) {
            counts.failures++;
            const tries = attempt + 1;
            throw new RequestFailedError(`openai request failed after ${tries} attempt${tries === 1 ? "" : "s"}: ${verdict.reason}`, tries);
          }
          if (verdict.kind === "context_length") {
            counts.failures++;
            throw new ContextLengthError(`the conversation no longer fits the model's context: ${verdict.reason}`);
          }
          const delayMs = retryDelay(attempt, verdict, settings, rng);
          settings.onRetry?.({ attempt, delayMs, reason: verdict.reason });
          counts.retries++;
          await sleep(delayMs, signal);
        }
      }
    },
    stats: () => ({ ...counts, peakInFlight: limiter.peak() }),
  };
}
