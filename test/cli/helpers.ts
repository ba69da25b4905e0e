// Running the CLI in tests: in-process with captured output, or as a child process (signals, kill -9, EPIPE,
// another user, a slow reader), with helpers that synchronise on the child's output and exit, never on timers (the slow
// reader's pauses pace it: they wait for nothing).
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
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
  const code = await runCli(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    interactive: false,
  });
  return { code, stdout, stderr };
}

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The command line that runs the CLI from the sources (through tsx): the program, then its arguments. */
export function cliCommandLine(argv: readonly string[]): [string, ...string[]] {
  return [process.execPath, "--import", "tsx", `${root}src/cli/main.ts`, ...argv];
}

/** The CLI as a separate process (through tsx, from the sources). */
export function spawnCli(
  argv: readonly string[],
  options: Pick<SpawnOptions, "uid" | "gid" | "env"> = {},
): ChildProcess {
  const [program, ...args] = cliCommandLine(argv);
  return spawn(program, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...options });
}

/** What a command printed through a slow pipe: its stdout byte for byte, its stderr and its exit code. */
export interface Piped {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** How a slow reader reads: `pieceBytes` at a time, with a pause of `pauseMs` after each (400 KB/s by default), once
 * past the first `fastBytes` (read at full speed: the race is at the end). */
export interface SlowReading {
  readonly fastBytes?: number;
  readonly pieceBytes?: number;
  readonly pauseMs?: number;
}

/** The CLI with its stdout a pipe, as `budgetrl ARGS | reader` has (a FIFO: the 64 KiB of a shell's pipe), read
 * slowly, so that the pipe is full and the command's last writes still wait in Node when it is done. */
export async function pipedToSlowReader(argv: readonly string[], reading: SlowReading = {}): Promise<Piped> {
  const fifo = join(mkdtempSync(join(tmpdir(), "budgetrl-pipe-")), "stdout");
  execFileSync("mkfifo", [fifo]);
  try {
    const child = spawn("sh", ["-c", 'exec "$@" > "$0"', fifo, ...cliCommandLine(argv)], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const [stdout, stderr, { code }] = await Promise.all([
      slowlyRead(createReadStream(fifo, { highWaterMark: reading.pieceBytes ?? 4096 }), reading),
      allText(child.stderr!),
      exitOf(child),
    ]);
    return { code: code ?? -1, stdout, stderr };
  } finally {
    rmSync(dirname(fifo), { recursive: true, force: true });
  }
}

/** All of a stream's bytes, read as `reading` says. */
function slowlyRead(stream: Readable, reading: SlowReading): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let read = 0;
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      read += chunk.length;
      if (read <= (reading.fastBytes ?? 0)) return;
      stream.pause();
      setTimeout(() => stream.resume(), reading.pauseMs ?? 10);
    });
    stream.once("error", reject);
    stream.once("end", () => resolve(Buffer.concat(chunks)));
  });
}

/** A child's exit code and everything it printed. */
export async function finished(child: ChildProcess): Promise<Captured> {
  const [stdout, stderr, { code }] = await Promise.all([allText(child.stdout!), allText(child.stderr!), exitOf(child)]);
  return { code: code ?? -1, stdout, stderr };
}

/** Resolves with everything read so far once the text read from `stream` matches `pattern`. */
export function textMatching(stream: Readable, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      if (!pattern.test(text)) return;
      stream.off("data", onData);
      resolve(text);
    };
    stream.on("data", onData);
    stream.once("end", () => reject(new Error(`stream ended without matching ${pattern}: ${text}`)));
  });
}

/** All of a stream's text, once it ends. */
export function allText(stream: Readable): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    stream.on("data", (chunk: Buffer) => void (text += chunk.toString()));
    stream.once("end", () => resolve(text));
  });
}

/** The exit of a child: its code, or the signal that killed it. */
export function exitOf(
  child: ChildProcess,
): Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** Split a printed command line (as the CLI prints hints: words, or single-quoted words) into argv after `budgetrl`. */
export function argvOf(command: string): string[] {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) =>
    match[1] === undefined ? (match[2] as string) : match[1].replace(/'\\''/g, "'"),
  );
  if (words[0] !== "budgetrl") throw new Error(`not a budgetrl command: ${command}`);
  return words.slice(1);
}
