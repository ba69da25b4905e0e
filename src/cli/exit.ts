// Ending the `budgetrl` process, in one place: main.ts ends every command through `cliExit` (its exit code, an
// internal error, a stdout that failed). process.exit drops what Node still holds for a pipe whose reader is slower
// than the command (`budgetrl export RUN | tee t.jsonl` lost its last lines and exited 0), so the process ends only
// once stdout and stderr have handed everything written to them to the OS, or can take no more. A reader that went
// away (EPIPE: `export RUN | head`) is a quiet end, code 0; any other stdout failure (a full disk) is said on stderr,
// code 74 (EX_IOERR), whatever the command returned. Nothing else is waited for: timers or requests a policy left
// pending do not keep the process alive. The one exit not made here is a second Ctrl-C (interrupt.ts), which quits
// at once by design.
import type { Writable } from "node:stream";

/** Resolves once everything written to `stream` so far is handed to the OS (undefined), or with the error that stops
 * it (then what is left can never be written). Writes complete in order, so an empty write's callback marks the end. */
export function flushed(stream: Writable): Promise<Error | undefined> {
  if (stream.errored !== null) return Promise.resolve(stream.errored);
  if (stream.destroyed || stream.writableEnded) return Promise.resolve(undefined);
  return new Promise((resolve) => stream.write("", (error) => resolve(error ?? undefined)));
}

/** The reader of a pipe went away (`| head`). */
function isBrokenPipe(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === "EPIPE";
}

/** The exit code: the command's, unless stdout failed (a quiet 0 for a reader gone, else 74). */
function exitCode(commandCode: number, stdoutFailure: Error | undefined): number {
  if (stdoutFailure === undefined) return commandCode;
  return isBrokenPipe(stdoutFailure) ? 0 : 74;
}

export interface ProcessOutput {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly exit: (code: number) => void;
}

/** The CLI's exit: says `message` (an internal error) on stderr, flushes stdout, says why stdout failed (if it did, but
 * for EPIPE), flushes stderr, then calls `exit` once, with `exitCode`. The first reason to end wins: called again (an
 * error a failed stdout caused, say), it changes nothing. A stdout failure while the command still runs ends it. */
export function cliExit(output: ProcessOutput): (commandCode: number, message?: string) => Promise<void> {
  // Node's stdio streams forget a failure (`errored`) once they have emitted it: the event's error is the one kept.
  let reported: Error | undefined;
  let ending: Promise<void> | undefined;
  const end = (commandCode: number, message?: string): Promise<void> => {
    ending ??= (async () => {
      if (message !== undefined) output.stderr.write(message);
      const failed = await flushed(output.stdout);
      // An 'error' event stdout has queued is emitted before the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      const failure = reported ?? failed;
      if (failure !== undefined && !isBrokenPipe(failure))
        output.stderr.write(`budgetrl: cannot write to stdout: ${failure.message}\n`);
      await flushed(output.stderr);
      output.exit(exitCode(commandCode, failure));
    })();
    return ending;
  };
  output.stdout.on("error", (error: Error) => {
    reported ??= error;
    void end(0);
  });
  return end;
}
