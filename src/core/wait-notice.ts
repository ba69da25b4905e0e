// Waits that say so: a command held up by something outside it (a run store another program is writing to, a
// PostgreSQL server or a Redis being reconnected to) prints, once it has waited a second, one line saying what it
// waits for and for how long at most, so that a wait is never mistaken for a hang; a shorter wait prints nothing.
// The line goes to the caller's `say` (the CLI: stderr). The timer does not keep the process alive.

/** How long a wait lasts before it is announced (ms). */
export const NOTICE_AFTER_MS = 1000;

/** Receives the one line of a wait that lasted (no newline). */
export type WaitListener = (line: string) => void;

/** A wait in progress: `end()` when it is over (its line, if not printed yet, never is). */
export interface Wait {
  end(): void;
}

/** Start a wait: `line()` is built and said after `afterMs`, unless the wait ended before. */
export function startWait(say: WaitListener | undefined, line: () => string, afterMs = NOTICE_AFTER_MS): Wait {
  if (say === undefined) return { end: () => undefined };
  const timer = setTimeout(() => say(line()), afterMs);
  timer.unref();
  return { end: () => clearTimeout(timer) };
}

/** The listener of a library call given none: each line on stderr. */
export const stderrLine: WaitListener = (line) => void process.stderr.write(`${line}\n`);

/** Seconds as a line shows them: "3 s", "0.5 s", "1.25 s". */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

/** A duration for a message: "850 ms", "4.2 s", "3 min 5 s". */
export function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toString()} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min${seconds % 60 === 0 ? "" : ` ${seconds % 60} s`}`;
}
