// Stopping long commands, in one place for all of them (eval, sft, train, export, and any later one): the first
// Ctrl-C (SIGINT) or SIGTERM aborts the command's AbortSignal, so the command stops at once, keeps what finished
// and prints how to resume; the process then exits 130 (SIGINT) or 143 (SIGTERM). A second signal exits at once
// with that code: committed store transactions are never lost (WAL), an uncommitted episode is recomputed on
// resume. The signal source and the exit are injected, so tests can drive both without a real process.
import { StoppedError } from "../core/errors.js";

export type StopSignal = "SIGINT" | "SIGTERM";

export const STOP_SIGNALS: readonly StopSignal[] = ["SIGINT", "SIGTERM"];

/** Exit code of a process stopped by a signal: 128 + the signal number. */
export function signalExitCode(signal: StopSignal): number {
  return signal === "SIGINT" ? 130 : 143;
}

export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

export interface InterruptOptions {
  /** Where signals come from (default: the process). */
  readonly source?: SignalSource;
  /** Ends the process at once on a second signal (default: process.exit). */
  readonly exit?: (code: number) => void;
  /** Says what happens after the first signal (stderr). */
  readonly notify?: (text: string) => void;
}

export interface Interrupts {
  /** Aborted by the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  received(): StopSignal | undefined;
  /** Stop listening (the process's default handling comes back). */
  dispose(): void;
}

export function listenForInterrupts(options: InterruptOptions = {}): Interrupts {
  const source = options.source ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const controller = new AbortController();
  let first: StopSignal | undefined;
  const handlers = STOP_SIGNALS.map((name) => {
    const handler = (): void => {
      if (first !== undefined) {
        exit(signalExitCode(name));
        return;
      }
      first = name;
      options.notify?.(
        `\n${name === "SIGINT" ? "Ctrl-C" : name}: stopping, keeping what finished (${name === "SIGINT" ? "Ctrl-C" : "a second signal"} again quits at once)\n`,
      );
      controller.abort(new StoppedError(`stopped by ${name}`));
    };
    source.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    received: () => first,
    dispose() {
      for (const [name, handler] of handlers) source.off(name, handler);
    },
  };
}
