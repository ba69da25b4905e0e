// A pause that a stop cuts short: resolves after `ms`, or at once when `signal` aborts (the caller then sees the
// signal and stops). For loops that poll or wait before trying again; a sleep that should fail on a stop is
// policies/openai/limiter.ts's realSleep.
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
