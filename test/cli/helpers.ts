// Running the CLI in tests: in-process with captured output, or as a child process (for kill -9).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCli } from "../../src/cli/run-cli.js";

export interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function cli(...argv: string[]): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), interactive: false });
  return { code, stdout, stderr };
}

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The CLI as a separate process (through tsx, from the sources). */
export function spawnCli(argv: readonly string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", `${root}src/cli/main.ts`, ...argv], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
}
