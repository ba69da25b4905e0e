// The HTTP side of the Tinker client: JSON requests with the API key header, each attempt bounded by a
// timeout, faults retried with seeded, bounded backoff (faults.ts), and futures: a request that answers
// {request_id} is polled through POST /api/v1/retrieve_future until it is done, failed or expired (then the
// request is sent again: training requests carry a seq_id, so a resent one is not applied twice).
// Polls wait pollMs after a pending answer, doubling up to maxPollMs (servers that long-poll, like SkyRL's,
// answer when the result is ready, so the wait is rarely reached). The API key is sent and never kept in
// errors, logs or stats.
import { BudgetrlError } from "../../core/errors.js";
import { createRng, type Rng } from "../../core/rng.js";
import { realSleep, type Sleep } from "../../policies/openai/limiter.js";
import { classifyStatus, classifyThrown, errorDetail, retryAfterMs, retryDelay, type HttpVerdict } from "./faults.js";
import { futureSchema, futureState, readBody, TinkerProtocolError } from "./wire.js";

export interface TinkerClientOptions {
  /** The server, without /api/v1 (hosted: https://tinker.thinkingmachines.dev/services/tinker-prod). */
  readonly baseUrl: string;
  /** Sent as X-API-Key; undefined: no header (local servers). */
  readonly apiKey?: string;
  /** Time allowed per HTTP attempt (a retrieve_future that times out is simply polled again). Default 120000. */
  readonly timeoutMs?: number;
  /** Retries after faults per request. Default 6. */
  readonly retries?: number;
  /** First retry delay (doubled each time, seeded jitter), and the longest. Defaults 500, 30000. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** First wait between polls of a pending future, and the longest. Defaults 25, 1000. */
  readonly pollMs?: number;
  readonly maxPollMs?: number;
  /** Seed of the retry jitter. */
  readonly seed?: number;
  readonly signal?: AbortSignal;
  readonly sleep?: Sleep;
  readonly now?: () => number;
  readonly onRetry?: (event: { readonly attempt: number; readonly delayMs: number; readonly reason: string }) => void;
}

export interface TinkerClientStats {
  /** HTTP requests sent (retries and polls included). */
  readonly requests: number;
  readonly retries: number;
  readonly polls: number;
}

export interface TinkerClient {
  readonly baseUrl: string;
  get(path: string): Promise<unknown>;
  /** POST a JSON body; resolves with the parsed response. */
  post(path: string, body: unknown): Promise<unknown>;
  /** POST a request that answers with a future, and wait for its result. */
  submit(path: string, body: unknown): Promise<unknown>;
  stats(): TinkerClientStats;
}

/** A Tinker request that failed after its retries, or could not succeed. */
export class TinkerRequestError extends BudgetrlError {
  constructor(message: string) {
    super("tinker:request", message);
    this.name = "TinkerRequestError";
  }
}

type Attempt = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly verdict: HttpVerdict; readonly retryAfterMs?: number };

export function createTinkerClient(options: TinkerClientOptions): TinkerClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const settings = { timeoutMs: options.timeoutMs ?? 120_000, retries: options.retries ?? 6, backoffMs: options.backoffMs ?? 500, maxBackoffMs: options.maxBackoffMs ?? 30_000, pollMs: options.pollMs ?? 25, maxPollMs: options.maxPollMs ?? 1000 };
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const rng: Rng = createRng(options.seed ?? 0);
  const counts = { requests: 0, retries: 0, polls: 0 };
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", ...(options.apiKey === undefined ? {} : { "x-api-key": options.apiKey }) };

  const attempt = async (method: "GET" | "POST", path: string, body: unknown): Promise<Attempt> => {
    counts.requests++;
    const signals = [AbortSignal.timeout(settings.timeoutMs), ...(options.signal === undefined ? [] : [options.signal])];
    try {
      const response = await fetch(`${baseUrl}${path}`, { method, headers, signal: AbortSignal.any(signals), ...(method === "POST" ? { body: JSON.stringify(body) } : {}) });
      const text = await response.text();
      if (!response.ok) {
        const after = retryAfterMs(response.headers, now());
        return { ok: false, verdict: classifyStatus(response.status, path, errorDetail(text)), ...(after === undefined ? {} : { retryAfterMs: after }) };
      }
      try {
        return { ok: true, body: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, verdict: { kind: "retry", reason: `${path}: the body is not JSON` } };
      }
    } catch (error) {
      return { ok: false, verdict: classifyThrown(error, path, options.signal?.aborted === true) };
    }
  };

  /** One request with retries; pending (408 while polling) and resubmit verdicts are returned to the caller. */
  const request = async (method: "GET" | "POST", path: string, body: unknown): Promise<Attempt> => {
    for (let tries = 0; ; tries++) {
      const result = await attempt(method, path, body);
      if (result.ok || result.verdict.kind !== "retry") return result;
      if (tries >= settings.retries) throw new TinkerRequestError(`tinker request failed after ${tries + 1} attempts: ${result.verdict.reason}`);
      const delayMs = retryDelay(tries, result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }, settings, rng);
      options.onRetry?.({ attempt: tries, delayMs, reason: result.verdict.reason });
      counts.retries++;
      await sleep(delayMs, options.signal);
    }
  };

  const unwrap = (result: Attempt): unknown => {
    if (result.ok) return result.body;
    throw new TinkerRequestError(`tinker request failed: ${result.verdict.kind === "pending" ? "still pending" : result.verdict.reason}`);
  };

  /** Polls a future until done (its value), failed (throws) or expired (undefined: resubmit). */
  const await_ = async (requestId: string): Promise<{ readonly value: unknown } | undefined> => {
    let wait = settings.pollMs;
    for (;;) {
      counts.polls++;
      const result = await request("POST", "/api/v1/retrieve_future", { request_id: requestId, allow_metadata_only: false });
      if (!result.ok && result.verdict.kind === "resubmit") return undefined;
      if (!result.ok && result.verdict.kind === "fatal") throw new TinkerRequestError(`tinker request ${requestId} failed: ${result.verdict.reason}`);
      const state = result.ok ? futureState(result.body) : { kind: "pending" as const };
      if (state.kind === "done") return { value: state.value };
      if (state.kind === "failed") throw new TinkerRequestError(`tinker request ${requestId} failed: ${state.message}`);
      await sleep(wait, options.signal);
      wait = Math.min(settings.maxPollMs, wait * 2);
    }
  };

  return {
    baseUrl,
    get: async (path) => unwrap(await request("GET", path, undefined)),
    post: async (path, body) => unwrap(await request("POST", path, body)),
    async submit(path, body) {
      for (let tries = 0; ; tries++) {
        const future = readBody(futureSchema, unwrap(await request("POST", path, body)), path);
        const result = await await_(future.request_id);
        if (result !== undefined) return result.value;
        if (tries >= settings.retries) throw new TinkerRequestError(`tinker request to ${path} expired on the server ${tries + 1} times`);
        counts.retries++;
      }
    },
    stats: () => ({ ...counts }),
  };
}

export { TinkerProtocolError };
