// The `budgetrl` command line: dispatch to one subcommand per file; errors print as one clear message (with a
// hint) and a non-zero exit code, never a stack trace for bad input. main.ts is the process entry point.
import { BudgetrlError } from "../core/errors.js";
import { commandHelp, parseCommandLine, type CliIo, type CommandDefinition } from "./command.js";
import { bfclRunCommand } from "./bfcl.js";
import { cacheClearCommand, cacheInfoCommand } from "./cache.js";
import { envsCommand } from "./envs.js";
import { evalCommand } from "./eval.js";
import { exportCommand } from "./export.js";
import { reportCommand } from "./report.js";
import { runsCommand } from "./runs.js";
import { sftCommand } from "./sft.js";
import { showCommand } from "./show.js";
import { trainCommand } from "./train.js";

const commands: readonly CommandDefinition[] = [evalCommand, runsCommand, showCommand, reportCommand, exportCommand, envsCommand, sftCommand, trainCommand, bfclRunCommand, cacheClearCommand, cacheInfoCommand] as unknown as readonly CommandDefinition[];

function mainHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    "budgetrl: measure and improve what multi-turn RL really does for LLM agents",
    "",
    "Usage: budgetrl <command> [options]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}   ${command.summary}`),
    "",
    "Run `budgetrl <command> --help` for a command's options.",
  ].join("\n");
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const command = [...commands].sort((a, b) => b.name.split(" ").length - a.name.split(" ").length).find((candidate) => candidate.name.split(" ").every((word, index) => words[index] === word && argv[index] === word));
  if (command === undefined) {
    if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
      io.stdout(`${mainHelp()}\n`);
      return argv.length === 0 ? 1 : 0;
    }
    if (argv[0] === "--version") {
      const { codeVersion } = await import("../eval/code-version.js");
      io.stdout(`${codeVersion()}\n`);
      return 0;
    }
    io.stderr(`budgetrl: unknown command "${argv[0] ?? ""}"\n\n${mainHelp()}\n`);
    return 2;
  }
  const rest = argv.slice(command.name.split(" ").length);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${commandHelp(command)}\n`);
    return 0;
  }
  try {
    const config = parseCommandLine(command, rest);
    return await command.run(config, io);
  } catch (error) {
    if (error instanceof BudgetrlError) {
      io.stderr(`budgetrl ${command.name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
