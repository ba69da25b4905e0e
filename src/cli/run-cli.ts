// The `budgetrl` command line: dispatch to one subcommand per file; errors print as one clear message (with a
// hint) and exit code 2, never a stack trace for bad input or a store fault. Long (interruptible) commands get
// the stop signal of Ctrl-C / SIGTERM here, for all of them (interrupt.ts); once a signal arrived the exit code is
// 130 (SIGINT) or 143 (SIGTERM) whatever the command returns. main.ts is the process entry point.
import { BudgetrlError, ConfigError, StoppedError } from "../core/errors.js";
import { isStoreError, storeFaultMessage } from "../store/faults.js";
import { commandHelp, namedByFlag, readCommandLine, type CliIo, type CommandDefinition } from "./command.js";
import { listenForInterrupts, signalExitCode } from "./interrupt.js";
import { bfclRunCommand } from "./bfcl.js";
import { cacheClearCommand, cacheInfoCommand } from "./cache.js";
import { envServerCommand } from "./env-server.js";
import { envsCommand } from "./envs.js";
import { evalCommand } from "./eval.js";
import { exportCommand } from "./export.js";
import { reportCommand } from "./report.js";
import { reproduceCommand } from "./reproduce.js";
import { runsCommand } from "./runs.js";
import { serveCommand } from "./serve.js";
import { sftCommand } from "./sft.js";
import { showCommand } from "./show.js";
import { trainCommand } from "./train.js";
import { viewCommand } from "./view.js";
import { workerCommand } from "./worker.js";

const commands: readonly CommandDefinition[] = [
  reproduceCommand,
  evalCommand,
  runsCommand,
  showCommand,
  reportCommand,
  viewCommand,
  exportCommand,
  envsCommand,
  sftCommand,
  trainCommand,
  serveCommand,
  envServerCommand,
  workerCommand,
  bfclRunCommand,
  cacheClearCommand,
  cacheInfoCommand,
] as unknown as readonly CommandDefinition[];

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
  const command = [...commands]
    .sort((a, b) => b.name.split(" ").length - a.name.split(" ").length)
    .find((candidate) =>
      candidate.name.split(" ").every((word, index) => words[index] === word && argv[index] === word),
    );
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
  const interrupts = command.interruptible === true ? listenForInterrupts({ notify: io.stderr }) : undefined;
  const stoppedCode = (): number | undefined => {
    const received = interrupts?.received();
    return received === undefined ? undefined : signalExitCode(received);
  };
  try {
    const { config, given } = readCommandLine(command, rest);
    const code = await command.run(config, io, { given, signal: interrupts?.signal ?? new AbortController().signal });
    return stoppedCode() ?? code;
  } catch (error) {
    const stopped = stoppedCode();
    if (error instanceof StoppedError && stopped !== undefined) {
      io.stderr(`budgetrl ${command.name}: ${error.message}\n`);
      return stopped;
    }
    if (error instanceof BudgetrlError) {
      const named = error instanceof ConfigError ? namedByFlag(command, error) : error;
      io.stderr(`budgetrl ${command.name}: ${named.message}\n`);
      return 2;
    }
    if (isStoreError(error)) {
      io.stderr(`budgetrl ${command.name}: ${storeFaultMessage(error as Error & { code: string })}\n`);
      return 2;
    }
    throw error;
  } finally {
    interrupts?.dispose();
  }
}
