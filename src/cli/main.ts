#!/usr/bin/env node
// Entry point of the `budgetrl` command (package.json "bin"): runs the command line on process.argv and exits with
// its code (at once, even if a policy left timers or requests pending). A reader that closes stdout early
// (`budgetrl export RUN | head`, EPIPE) ends the command quietly with code 0; a closed stderr is ignored.
import type { CliIo } from "./command.js";
import { runCli } from "./run-cli.js";

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  process.stderr.write(`budgetrl: cannot write to stdout: ${error.message}\n`);
  process.exit(74);
});

// With stderr gone (`2>&1 | head`) there is nowhere to report anything: the command carries on without it.
process.stderr.on("error", () => undefined);

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
};

runCli(process.argv.slice(2), io).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `budgetrl: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(70);
  },
);
