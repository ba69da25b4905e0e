#!/usr/bin/env node
// Entry point of the `budgetrl` command (package.json "bin"): runs the command line on process.argv.
import type { CliIo } from "./command.js";
import { runCli } from "./run-cli.js";

const io: CliIo = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), interactive: process.stderr.isTTY === true };

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`budgetrl: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
