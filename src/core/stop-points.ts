// Stop points for long work that never waits on a real event (reading thousands of stored episodes, laying them
// out as training sequences): awaiting resolved promises never lets a Ctrl-C / SIGTERM handler run, so the stop
// signal would only be seen when the work is over. A stop point, awaited once per item, yields to the event loop
// (setImmediate) once `everyMs` milliseconds of work have passed since the last yield, and throws `stopped()` as
// soon as the signal is aborted; between yields it costs one clock read. The clock is injected.

export interface StopPointOptions {
  /** Milliseconds of work between two yields to the event loop (default 20). */
  readonly everyMs?: number;
  readonly now?: () => number;
}

/** A stop point to await in a long loop: resolves at once, after a yield when one is due, or rejects with
 * `stopped()` once `signal` is aborted. */
export function stopPoints(
  signal: AbortSignal | undefined,
  stopped: () => Error,
  options: StopPointOptions = {},
): () => Promise<void> {
  const everyMs = options.everyMs ?? 20;
  const now = options.now ?? (() => performance.now());
  let lastYield = now();
  const check = (): void => {
    if (signal?.aborted === true) throw stopped();
  };
  return async () => {
    check();
    if (now() - lastYield < everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    lastYield = now();
    check();
  };
}
