// Request limits shared by every episode of a policy: at most `concurrency` requests in flight (a FIFO
// semaphore) and at most `rpm` request starts in any 60-second window (0: no limit). Clock and sleep are
// injected, so tests drive time by hand. A caller waiting for a slot gives up when its signal aborts.

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface LimiterSettings {
  readonly concurrency: number;
  readonly rpm: number;
  readonly now: () => number;
  readonly sleep: Sleep;
}

export interface RequestLimiter {
  /** Run `work` once a slot is free and the rate allows it; the slot is released when it settles. */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Requests in flight now, and the most there ever were at once. */
  readonly inFlight: () => number;
  readonly peak: () => number;
}

const WINDOW_MS = 60_000;

/** A sleep on real timers that rejects when the signal aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export function createRequestLimiter(settings: LimiterSettings): RequestLimiter {
  const waiting: (() => void)[] = [];
  const starts: number[] = [];
  let active = 0;
  let peak = 0;

  const acquire = async (signal?: AbortSignal): Promise<void> => {
    if (active >= settings.concurrency) {
      await new Promise<void>((resolve, reject) => {
        const entry = (): void => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          reject(new Error("aborted while waiting for a request slot"));
        };
        waiting.push(entry);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    } else active++;
    peak = Math.max(peak, active);
  };

  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) active--;
    else next();
  };

  const pace = async (signal?: AbortSignal): Promise<void> => {
    if (settings.rpm <= 0) return;
    for (;;) {
      const now = settings.now();
      while (starts.length > 0 && starts[0]! <= now - WINDOW_MS) starts.shift();
      if (starts.length < settings.rpm) {
        starts.push(now);
        return;
      }
      await settings.sleep(starts[0]! + WINDOW_MS - now, signal);
    }
  };

  return {
    async run(work, signal) {
      await acquire(signal);
      try {
        await pace(signal);
        return await work();
      } finally {
        release();
      }
    },
    inFlight: () => active,
    peak: () => peak,
  };
}
