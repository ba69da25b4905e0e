// The `budgetrl` command line: `runCli(argv, io)` runs one subcommand (one file each) and returns its exit code;
// `defineCommand` and `parseCommandLine` turn a zod config schema into flags, validation and help.
export { commandHelp, defineCommand, parseCommandLine, type CliIo, type CommandDefinition } from "./command.js";
export { runCli } from "./run-cli.js";
