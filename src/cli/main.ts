#!/usr/bin/env node
// Entry point of the `budgetrl` command (package.json "bin"): runs the command line on process.argv and exits with
// its code once stdout and stderr are flushed (exit.ts: nothing lost on a slow pipe, a quiet end when the reader goes
// away as `| head` does, code 74 when stdout fails otherwise; a policy's pending timers or requests do not keep the
// process alive). A closed stderr is ignored.
import type { CliIo } from "./command.js";
import { cliExit } from "./exit.js";
import { runCli } from "./run-cli.js";

const exit = cliExit({ stdout: process.stdout, stderr: process.stderr, exit: (code) => process.exit(code) });

// With stderr gone (`2>&1 | head`) there is nowhere to report anything: the command carries on without it.
process.stderr.on("error", () => undefined);

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
};

runCli(process.argv.slice(2), io).then(
  (code) => exit(code),
  (error: unknown) =>
    exit(70, `budgetrl: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
);
