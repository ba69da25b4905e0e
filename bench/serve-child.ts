// `budgetrl serve` as a child process for the serve benches (bench/serve.ts, bench/serve-load.ts): a fresh checkpoint
// of the reference size when none is given, the server started on a free loopback port, its URL read from its
// start line, its pid (the benches read its resident memory from /proc), and a stop by SIGINT that waits for its exit.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createModel } from "../src/nn/model.js";
import { saveCheckpoint } from "../src/nn/checkpoint.js";

/** A freshly initialised model of the reference size (4 layers, d_model 128, context 256; 16-token answers). */
export async function freshCheckpoint(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-serve-"));
  const model = await createModel({ seed: 1 });
  await saveCheckpoint(model, dir);
  model.dispose();
  writeFileSync(join(dir, "policy.json"), `${JSON.stringify({ maxNewTokens: 16, history: "segments" })}\n`);
  return dir;
}

export interface ServeChild {
  /** Base URL up to /v1. */
  readonly url: string;
  readonly pid: number;
  /** SIGINT, then its exit code. */
  stop(): Promise<number | null>;
}

/** `budgetrl serve --ckpt CKPT --port 0 --name bench ...extra`; resolves once it listens. */
export function startServe(ckpt: string, extra: readonly string[] = []): Promise<ServeChild> {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", `${root}src/cli/main.ts`, "serve", "--ckpt", ckpt, "--port", "0", "--name", "bench", ...extra],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const url = /on (http:\/\/\S+\/v1) /.exec(text)?.[1];
      if (url !== undefined) resolve({ url, pid: child.pid as number, stop: () => (child.kill("SIGINT"), exited) });
    });
    child.once("exit", (code) => reject(new Error(`budgetrl serve exited with ${code}: ${text}`)));
  });
}

/** A process's resident memory in bytes (Linux: /proc/PID/status). */
export function residentBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
