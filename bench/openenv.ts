// Steps per second over OpenEnv's WebSocket (/ws) with 1, 16 and 64 sessions at once: `budgetrl env-server --env
// vault` beside OpenEnv's own reference server (its echo env, envs/echo_env, under uvicorn), measured in the same run
// by the same load generator (this process: one `ws` client per session, each resetting and stepping as fast as the
// server answers, for --seconds per level after a warm-up). Vault's sessions play "<answer>check</answer>" under a
// 200-turn budget (a turn each step, rarely an episode's end); echo's call echo_message (OpenEnv's CallToolAction).
// Both servers are child processes on loopback ports, each with room for the most sessions asked for.
//
// Needs OpenEnv's source (git -C CLONE archive HEAD src envs/echo_env | tar -x -C DIR) and its Python deps from the
// machine's wheel index (pip install fastapi uvicorn pydantic websockets requests fastmcp httpx), and `npm run build`.
// Run: npx tsx bench/openenv.ts --openenv DIR [--sessions 1,16,64] [--seconds 5]
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import WebSocket from "ws";

const { values } = parseArgs({
  options: {
    openenv: { type: "string" },
    sessions: { type: "string", default: "1,16,64" },
    seconds: { type: "string", default: "5" },
  },
});
if (values.openenv === undefined) throw new Error("--openenv DIR: OpenEnv's source (src/ and envs/echo_env/)");
const openenvDir = values.openenv;
const levels = values.sessions.split(",").map(Number);
const seconds = Number(values.seconds);
const most = Math.max(...levels);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not start`);
}

interface Target {
  readonly name: string;
  readonly url: string;
  readonly reset: Record<string, unknown>;
  readonly action: Record<string, unknown>;
  readonly child: ChildProcess;
}

async function budgetrlServer(): Promise<Target> {
  const port = await freePort();
  const args = ["dist/cli/main.js", "env-server", "--env", "vault", "--port", String(port)];
  const child = spawn("node", [...args, "--max-sessions", String(most + 8), "--budget", "200"], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return { name: "budgetrl env-server (vault)", url, reset: {}, action: { message: "<answer>check</answer>" }, child };
}

async function openenvServer(): Promise<Target> {
  const port = await freePort();
  const child = spawn(
    "python3",
    [
      "-m",
      "uvicorn",
      "echo_env.server.app:app",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--log-level",
      "warning",
    ],
    {
      cwd: join(openenvDir, "envs"),
      env: {
        ...process.env,
        PYTHONPATH: `${join(openenvDir, "src")}:${join(openenvDir, "envs")}`,
        MAX_CONCURRENT_ENVS: String(most + 8),
      },
      stdio: "ignore",
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  const action = { type: "call_tool", tool_name: "echo_message", arguments: { message: "hello" } };
  return { name: "OpenEnv reference (echo, uvicorn)", url, reset: {}, action, child };
}

type Reply = { type: string; data: { done?: boolean; code?: string } };

/** A connected session and its first observation; a server still freeing the last round's sessions (capacity) is
 * asked again. */
async function connect(
  target: Target,
): Promise<{ socket: WebSocket; ask: (message: unknown) => Promise<Reply>; first: Reply }> {
  for (let attempt = 0; ; attempt++) {
    const socket = new WebSocket(`${target.url.replace(/^http/, "ws")}/ws`);
    const inbox: Reply[] = [];
    let wake: ((reply: Reply) => void) | undefined;
    let fail: ((error: Error) => void) | undefined;
    socket.on("message", (raw) => {
      const reply = JSON.parse(raw.toString()) as Reply;
      if (wake === undefined) inbox.push(reply);
      else wake(reply);
    });
    socket.on("close", () => fail?.(new Error(`${target.name}: the session closed`)));
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const ask = (message: unknown): Promise<Reply> => {
      const queued = inbox.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        wake = (reply) => {
          wake = undefined;
          resolve(reply);
        };
        fail = reject;
        socket.send(JSON.stringify(message));
      });
    };
    const first = await ask({ type: "reset", data: target.reset }).catch(
      () => inbox.shift() ?? { type: "error", data: {} },
    );
    if (first.type !== "error" || attempt > 100) return { socket, ask, first };
    socket.terminate();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One session stepping until `until`: resets when an episode ends. Resolves with its steps. */
async function session(target: Target, until: () => boolean): Promise<number> {
  const { socket, ask, first } = await connect(target);
  let steps = 0;
  let reply = first;
  while (!until()) {
    if (reply.type === "error") throw new Error(`${target.name}: ${JSON.stringify(reply.data)}`);
    reply =
      reply.data.done === true
        ? await ask({ type: "reset", data: target.reset })
        : await ask({ type: "step", data: target.action });
    steps++;
  }
  socket.close();
  return steps;
}

async function stepsPerSecond(target: Target, sessions: number): Promise<number> {
  const warm = Date.now() + 500;
  await Promise.all(Array.from({ length: sessions }, () => session(target, () => Date.now() > warm)));
  const start = performance.now();
  const end = Date.now() + seconds * 1000;
  const counts = await Promise.all(Array.from({ length: sessions }, () => session(target, () => Date.now() > end)));
  return counts.reduce((sum, count) => sum + count, 0) / ((performance.now() - start) / 1000);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const ours = await budgetrlServer();
const theirs = await openenvServer();
try {
  console.log(`load average before: ${load()}`);
  console.log("sessions  budgetrl env-server steps/s  OpenEnv reference steps/s  ratio");
  for (const sessions of levels) {
    const reference = await stepsPerSecond(theirs, sessions);
    const budgetrl = await stepsPerSecond(ours, sessions);
    console.log(
      `${String(sessions).padStart(8)}  ${budgetrl.toFixed(0).padStart(26)}  ${reference.toFixed(0).padStart(25)}  ${(budgetrl / reference).toFixed(2).padStart(5)}x`,
    );
  }
  console.log(`load average after: ${load()}`);
} finally {
  ours.child.kill();
  theirs.child.kill();
}
