// What the steps of the Tinker client share (client.ts assembles them): the options a caller gives, the settings
// they resolve to, the counters, and the shapes of one HTTP exchange and its outcome. A file of its own so that
// the steps (client-exchange.ts, client-retry.ts, client-credentials.ts, client-futures.ts) and client.ts import
// it and not each other.
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { BudgetrlError } from "../core/errors.js";
import { createRng, type Rng } from "../core/rng.js";
import { realSleep, type Sleep } from "../policies/openai/limiter.js";
import { TINKER_SAMPLING_DEADLINE_MS } from "../policies/tinker-reach.js";
import { SDK_PATIENCE, type Patience } from "./backoff.js";
import type { HttpVerdict } from "./faults.js";
import { outageNotices, type OutageNotices, type ServiceNotice } from "../core/outage-notices.js";

/** A message from the Tinker service or about the connection to it (session warnings, outages, billing pauses). */
export type TinkerNotice = ServiceNotice;

export interface TinkerClientOptions {
  /** The server, without /api/v1 (hosted: https://tinker.thinkingmachines.dev/services/tinker-prod). */
  readonly baseUrl: string;
  /** Sent as X-API-Key (or exchanged for a JWT); undefined: no header (local servers). */
  readonly apiKey?: string | undefined;
  /** Time allowed per HTTP attempt (a retrieve_future that times out is simply polled again). Default 120000. */
  readonly timeoutMs?: number;
  /** How long one request's faults in a row may last before it fails (backoff.ts). Default 300000, the SDK's. */
  readonly deadlineMs?: number;
  /** The same for sampling (asample). Default 7200000: the SDK's 2 hours without progress. */
  readonly samplingDeadlineMs?: number;
  /** First wait after a fault (doubled each time, seeded jitter), and the longest. Defaults 500, 30000. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** First wait between polls of a pending future, and the longest. Defaults 25, 1000. */
  readonly pollMs?: number;
  readonly maxPollMs?: number;
  /** Seed of the backoff jitter. */
  readonly seed?: number;
  readonly signal?: AbortSignal;
  readonly sleep?: Sleep;
  readonly now?: () => number;
  /** A new X-Idempotency-Key (one per request, kept across its retries). Default "budgetrl-retry-" + a UUID. */
  readonly idempotencyKey?: () => string;
  readonly onRetry?: (event: { readonly attempt: number; readonly delayMs: number; readonly reason: string }) => void;
  /** Where server messages, waits and pauses are shown (default: nowhere). */
  readonly onNotice?: (notice: TinkerNotice) => void;
}

export interface TinkerClientStats {
  /** HTTP requests sent (retries and polls included). */
  readonly requests: number;
  readonly retries: number;
  readonly polls: number;
  /** Waits of 5 s while the server answered 402. */
  readonly pauses: number;
  /** Milliseconds waited after faults (billing pauses and polls of pending futures not included). */
  readonly waitedMs: number;
}

/** A Tinker request that failed after its retries, or could not succeed. */
export class TinkerRequestError extends BudgetrlError {
  constructor(message: string) {
    super("tinker:request", message);
    this.name = "TinkerRequestError";
  }
}

export type Attempt =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: number; readonly verdict: HttpVerdict; readonly retryAfterMs?: number };

export type Payload =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "protobuf"; readonly bytes: Uint8Array; readonly zstd: boolean };

export interface Exchange {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly payload: Payload;
  readonly accept: "json" | "protobuf";
  /** The X-API-Key value: the API key for the config and the JWT exchange, else the current credential. */
  readonly credential: () => Promise<string | undefined>;
  /** How long its faults in a row may last (default the client's deadline; Infinity: a future polled while it
   * lives). */
  readonly deadlineMs?: number;
  /** Sent as X-Tinker-Request-Type (a poll: the type of the request whose future it is). */
  readonly requestType?: string;
  /** A future's polls, counted (X-Tinker-Request-Iteration: every attempt takes the next number). */
  readonly iterations?: { next: number };
  /** A sampling submission: X-Tinker-Sampling-Backpressure: 1, and a 429 is waited out without a deadline. */
  readonly backpressure?: boolean;
  /** One attempt only (a heartbeat): its faults go back to the caller. */
  readonly once?: boolean;
  /** Time allowed for each attempt (default the client's). */
  readonly timeoutMs?: number;
}

/** What a caller may add to an exchange (client-futures.ts, client.ts). */
export type ExchangeExtras = Pick<
  Exchange,
  "deadlineMs" | "requestType" | "iterations" | "backpressure" | "once" | "timeoutMs"
>;

export interface ClientSettings extends Patience {
  readonly samplingDeadlineMs: number;
  readonly timeoutMs: number;
  readonly pollMs: number;
  readonly maxPollMs: number;
}

/** What every step of one client reads and counts. */
export interface ClientContext {
  readonly baseUrl: string;
  readonly options: TinkerClientOptions;
  readonly settings: ClientSettings;
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly rng: Rng;
  readonly idempotencyKey: () => string;
  readonly counts: { requests: number; retries: number; polls: number; pauses: number; waitedMs: number };
  /** The client's own stop signal: the caller's, listened to once (every attempt and wait listens to this one, so
   * that many at once print no MaxListenersExceededWarning). */
  readonly signal: AbortSignal | undefined;
  readonly outage: OutageNotices;
  notice(notice: TinkerNotice): void;
}

/** A signal aborted with the caller's, which any number of listeners may listen to. */
function ownSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

export function clientContext(options: TinkerClientOptions): ClientContext {
  const now = options.now ?? Date.now;
  const notice = (told: TinkerNotice): void => options.onNotice?.(told);
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, ""),
    options,
    settings: {
      timeoutMs: options.timeoutMs ?? 120_000,
      deadlineMs: options.deadlineMs ?? SDK_PATIENCE.deadlineMs,
      samplingDeadlineMs: options.samplingDeadlineMs ?? TINKER_SAMPLING_DEADLINE_MS,
      backoffMs: options.backoffMs ?? SDK_PATIENCE.backoffMs,
      maxBackoffMs: options.maxBackoffMs ?? SDK_PATIENCE.maxBackoffMs,
      pollMs: options.pollMs ?? 25,
      maxPollMs: options.maxPollMs ?? 1000,
    },
    sleep: options.sleep ?? realSleep,
    now,
    rng: createRng(options.seed ?? 0),
    idempotencyKey: options.idempotencyKey ?? (() => `budgetrl-retry-${randomUUID()}`),
    counts: { requests: 0, retries: 0, polls: 0, pauses: 0, waitedMs: 0 },
    signal: ownSignal(options.signal),
    outage: outageNotices("tinker", now, notice),
    notice,
  };
}
