// Sending one chat-completions request through the official `openai` client, surviving faults: the client's
// own retries are off (its backoff is fixed and its jitter unseeded); here every attempt goes through the shared
// limiter (concurrency, requests per minute), a failed attempt is classified (faults.ts) and retried after a
// seeded, bounded wait that holds no slot. What finally fails throws: RequestFailedError (the episode becomes
// an error, retried by --resume) or ContextLengthError (the episode ends with stopReason "context_length").
// A 2xx answer that is not a chat completion (response.ts, responseProblem: not JSON, no "choices" list, content
// that is not text, ...) throws MalformedResponseError, a RequestFailedError, at once: the server or a gateway
// in front of it is broken or misconfigured, which asking again does not mend; it is never returned, so never
// scored as the model's reply and never cached.
// Counters say how many requests, retries and failures there were (tests bound them; bench reports them). While
// the server fails, `onNotice` hears one line as the faults start, one a minute while they go on and one when it
// answers again, for all requests together (core/outage-notices.ts), so a dead server is never a silent 0%.
// Error bodies in vLLM's older top-level form ({"object": "error", "message": ...}) are wrapped as
// {"error": {...}} before the client reads them, so that their message (context length!) is not lost.
import { setMaxListeners } from "node:events";
import OpenAI from "openai";
import { ContextLengthError } from "../../core/policy.js";
import type { JsonObject } from "../../core/json.js";
import { createRng } from "../../core/rng.js";
import { withoutPassword } from "../../core/url-location.js";
import { outageNotices, type ServiceNotice } from "../../core/outage-notices.js";
import { formatWait } from "../../core/wait-notice.js";
import { classifyFault, retryDelay } from "./faults.js";
import { createRequestLimiter, realSleep, type RequestLimiter, type Sleep } from "./limiter.js";
import type { ClientOptions } from "./options.js";
import { responseProblem } from "./response.js";

/** A request that failed after its retries, or could not succeed (401, 404, ...). */
export class RequestFailedError extends Error {
  readonly attempts: number;
  constructor(message: string, attempts: number) {
    super(message);
    this.name = "RequestFailedError";
    this.attempts = attempts;
  }
}

/** A 2xx response that is not a chat completion: the server's fault, named in one line (not retried). */
export class MalformedResponseError extends RequestFailedError {
  constructor(message: string, attempts: number) {
    super(message, attempts);
    this.name = "MalformedResponseError";
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
  /** POST /chat/completions with `body`; resolves with the parsed JSON response, a chat completion with the
   * body's n choices (else MalformedResponseError). `seed` seeds the retry jitter. */
  complete(body: JsonObject, seed: number, signal?: AbortSignal): Promise<unknown>;
  stats(): TransportStats;
}

export interface TransportSettings extends Pick<
  ClientOptions,
  "baseUrl" | "concurrency" | "rpm" | "timeoutMs" | "retries" | "backoffMs" | "maxBackoffMs"
> {
  readonly apiKey: string;
  readonly now?: () => number;
  readonly sleep?: Sleep;
  /** Told of an outage of the server: as it starts, once a minute, as it ends (core/outage-notices.ts). */
  readonly onNotice?: (notice: ServiceNotice) => void;
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
  const topLevel =
    parsed !== null &&
    typeof parsed === "object" &&
    !Array.isArray(parsed) &&
    !("error" in parsed) &&
    "message" in parsed;
  return new Response(topLevel ? JSON.stringify({ error: parsed }) : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

/** What a request that got through brought back. */
interface Answer {
  readonly body: unknown;
  readonly status: number;
  readonly contentType: string | undefined;
}

export function createOpenaiTransport(settings: TransportSettings): ChatTransport {
  const now = settings.now ?? Date.now;
  const sleep = settings.sleep ?? realSleep;
  const client = new OpenAI({
    apiKey: settings.apiKey,
    maxRetries: 0,
    timeout: settings.timeoutMs,
    fetch: errorBodyFetch,
    ...(settings.baseUrl === undefined ? {} : { baseURL: settings.baseUrl }),
  });
  const limiter: RequestLimiter = createRequestLimiter({
    concurrency: settings.concurrency,
    rpm: settings.rpm,
    now,
    sleep,
  });
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

  const server = withoutPassword(client.baseURL);
  const outage = outageNotices("openai", now, settings.onNotice ?? (() => undefined));
  const patience = `a request is tried ${settings.retries + 1} times at most, up to ${formatWait(settings.maxBackoffMs)} apart`;
  const send = (body: JsonObject, signal?: AbortSignal): Promise<Answer> =>
    limiter.run(async () => {
      counts.requests++;
      const params = body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
      const { data, response } = await client.chat.completions
        .create(params, signal === undefined ? {} : { signal })
        .withResponse();
      return {
        body: data as unknown,
        status: response.status,
        contentType: response.headers.get("content-type") ?? undefined,
      };
    }, signal);

  return {
    async complete(body, seed, callerSignal) {
      const signal = callerSignal === undefined ? undefined : requestSignal(callerSignal);
      const rng = createRng(seed);
      for (let attempt = 0; ; attempt++) {
        let answer: Answer;
        try {
          answer = await send(body, signal);
        } catch (error) {
          const verdict = classifyFault(error, now());
          if (
            signal?.aborted === true ||
            verdict.kind === "fatal" ||
            (verdict.kind === "retry" && attempt >= settings.retries)
          ) {
            counts.failures++;
            const tries = attempt + 1;
            throw new RequestFailedError(
              `openai request failed after ${tries} attempt${tries === 1 ? "" : "s"}: ${verdict.reason}`,
              tries,
            );
          }
          if (verdict.kind === "context_length") {
            counts.failures++;
            throw new ContextLengthError(`the conversation no longer fits the model's context: ${verdict.reason}`);
          }
          const delayMs = retryDelay(attempt, verdict, settings, rng);
          outage.fault(server, `${server}: ${verdict.reason}`, patience);
          settings.onRetry?.({ attempt, delayMs, reason: verdict.reason });
          counts.retries++;
          await sleep(delayMs, signal);
          continue;
        }
        outage.answered(server);
        const problem = responseProblem(answer.body, typeof body["n"] === "number" ? body["n"] : 1, answer.contentType);
        if (problem === undefined) return answer.body;
        counts.failures++;
        throw new MalformedResponseError(`the server at ${server} answered ${answer.status} ${problem}`, attempt + 1);
      }
    },
    stats: () => ({ ...counts, peakInFlight: limiter.peak() }),
  };
}
