// `budgetrl serve` under load: --clients concurrent clients (default 64) on loopback, each sending one chat request
// after another for --duration seconds (default 60; at most --max-requests in all), after --warmup seconds of the
// same load (default 20: long enough to fill what the server keeps by design, its 256 KV-cache sessions of 1 MiB
// each at the reference size, and to grow the kernels' memory to the largest batch). The mix, drawn from a seeded generator: whole replies and streamed ones (Server-Sent Events, a chunk per
// token: return_token_ids), mixed prompt lengths (short to long user messages) and answer lengths (max_tokens 8 to
// 128, within the context), and a share of streams whose client disconnects after its third token (--drop-share).
// The server is a child process (serve-child.ts) with its defaults: --max-batch 64, the vllm context rule.
//
// Reported: errors (must be 0: a non-200 status, a broken connection, an error event, a request over 60 s); time to
// first token of the streams (p50, p99: the first chunk carrying a token) and time to the whole answer of the others;
// tokens/s received by the clients and sampled by the server (vllm:generation_tokens_total); the batcher's
// occupancy (sequences per model call over --max-batch, from /health); the server's resident memory after the run
// against after the warm-up (must be within 10%); and the dropped streams' slots: after the run the server's
// in-flight count must come back to 0 and a burst of one request per client must then be served. No timing target:
// the figures are what this machine did, with its load average before and after (docs/benchmarks.md).
// Run: npx tsx bench/serve-load.ts [--ckpt DIR] [--clients 64] [--duration 60] [--warmup 20] (--help lists them)
import { Agent, request, type IncomingMessage } from "node:http";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createRng, type Rng } from "../src/core/rng.js";
import { freshCheckpoint, residentBytes, startServe } from "./serve-child.js";

const USAGE = `Usage: npx tsx bench/serve-load.ts [options]

\`budgetrl serve\` under load: concurrent clients on loopback, whole and streamed chat requests, a share of dropped
streams; reports errors, time to first token, tokens/s, batch occupancy and memory (docs/benchmarks.md).

Options:
  --ckpt DIR             the checkpoint to serve (default: a fresh reference-size model)
  --clients N            concurrent clients (default 64)
  --duration S           seconds of measured load (default 60)
  --warmup S             seconds of the same load before it (default 20)
  --max-requests N       most requests in all (default 200000)
  --drop-share X         share of streams whose client leaves after its third token (default 0.1)
  -h, --help             this help`;

function flags(): ReturnType<typeof parse> {
  try {
    return parse();
  } catch (error) {
    process.stderr.write(`serve-load: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exit(2);
  }
}

function parse() {
  return parseArgs({
    options: {
      ckpt: { type: "string" },
      clients: { type: "string", default: "64" },
      duration: { type: "string", default: "60" },
      warmup: { type: "string", default: "20" },
      "max-requests": { type: "string", default: "200000" },
      "drop-share": { type: "string", default: "0.1" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
}

const { values } = flags();
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
for (const name of ["clients", "duration", "warmup", "max-requests", "drop-share"] as const) {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value < 0 || (name === "drop-share" && value > 1)) {
    process.stderr.write(
      `serve-load: --${name} must be a ${name === "drop-share" ? "share in [0, 1]" : "non-negative number"}, got ${values[name]}\n`,
    );
    process.exit(2);
  }
}
const clients = Number(values.clients);
const durationMs = Number(values.duration) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const maxRequests = Number(values["max-requests"]);
const dropShare = Number(values["drop-share"]);
const MAX_BATCH = 64;
const REQUEST_TIMEOUT_MS = 60_000;
const ANSWER_LENGTHS = [8, 16, 32, 64, 128];

type Kind = "whole" | "stream" | "dropped";

interface Sample {
  readonly kind: Kind;
  /** Milliseconds to the first token (streams) or to the whole answer. */
  readonly firstMs: number;
  readonly tokens: number;
  readonly error?: string;
}

interface Prompt {
  readonly content: string;
  readonly tokens: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: clients + 8 });

function call(url: string, method: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, agent, headers: { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A user message of about `length` characters: sokoban-like rows and words. */
function promptText(rng: Rng, length: number): string {
  const pieces = ["#####", "#@$.#", "#_._#", "move", "left", "up", "push the box", "Turn 3 of 8."];
  let text = "";
  while (text.length < length) text += `${pieces[Math.floor(rng.next() * pieces.length)]}\n`;
  return text.slice(0, length);
}

async function prompts(url: string): Promise<Prompt[]> {
  const rng = createRng(11);
  const base = url.replace(/\/v1$/, "");
  const made: Prompt[] = [];
  for (const length of [8, 16, 24, 40, 60, 80, 100, 120]) {
    const content = promptText(rng, length);
    const { text } = await call(`${base}/tokenize`, "POST", { model: "bench", messages: [{ role: "user", content }] });
    made.push({ content, tokens: (JSON.parse(text) as { count: number }).count });
  }
  return made;
}

/** Reads an SSE answer: the first token's time, the tokens, an error event; drops the connection after 3 tokens
 * when asked. */
function readStream(response: IncomingMessage, started: number, drop: boolean, done: (sample: Sample) => void): void {
  let buffer = "";
  let tokens = 0;
  let firstMs = -1;
  let error: string | undefined;
  let finished = false;
  const finish = (kind: Kind): void => {
    if (finished) return;
    finished = true;
    done({ kind, firstMs, tokens, ...(error === undefined ? {} : { error }) });
  };
  response.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end).replace(/^data: /, "");
      buffer = buffer.slice(end + 2);
      if (event === "[DONE]") continue;
      const parsed = JSON.parse(event) as { error?: { message: string }; choices?: { token_ids?: number[] }[] };
      if (parsed.error !== undefined) error = parsed.error.message;
      const ids = parsed.choices?.[0]?.token_ids?.length ?? 0;
      if (ids > 0 && firstMs < 0) firstMs = performance.now() - started;
      tokens += ids;
      if (drop && tokens >= 3) {
        response.destroy();
        finish("dropped");
        return;
      }
    }
  });
  response.on("end", () => finish("stream"));
  response.on("error", (failure) => {
    error ??= failure.message;
    finish(drop ? "dropped" : "stream");
  });
}

/** One chat request of the mix. */
function chat(url: string, body: Record<string, unknown>, kind: Kind): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const fail = (message: string): void =>
      resolve({ kind, firstMs: performance.now() - started, tokens: 0, error: message });
    const sent = request(
      `${url}/chat/completions`,
      { method: "POST", agent, headers: { "content-type": "application/json" }, timeout: REQUEST_TIMEOUT_MS },
      (response) => {
        if (response.statusCode !== 200) {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => fail(`${response.statusCode}: ${text.slice(0, 200)}`));
          return;
        }
        if (kind !== "whole") {
          readStream(response, started, kind === "dropped", resolve);
          return;
        }
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          const answer = JSON.parse(text) as { usage: { completion_tokens: number } };
          resolve({ kind, firstMs: performance.now() - started, tokens: answer.usage.completion_tokens });
        });
        response.on("error", (error) => fail(error.message));
      },
    );
    sent.on("timeout", () => sent.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    sent.on("error", (error) => fail(error.message));
    sent.end(JSON.stringify(body));
  });
}

/** Clients sending requests one after another until `untilMs` (performance.now()) or the request budget is spent. */
async function load(
  url: string,
  made: readonly Prompt[],
  untilMs: number,
  budget: number,
  seed: number,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  let sent = 0;
  const client = async (index: number): Promise<void> => {
    const rng = createRng(seed * 1000 + index);
    while (performance.now() < untilMs && sent < budget) {
      sent++;
      const prompt = made[Math.floor(rng.next() * made.length)]!;
      const wanted = ANSWER_LENGTHS[Math.floor(rng.next() * ANSWER_LENGTHS.length)]!;
      const roll = rng.next();
      const kind: Kind = roll < dropShare ? "dropped" : roll < (1 + dropShare) / 2 ? "stream" : "whole";
      samples.push(
        await chat(
          url,
          {
            model: "bench",
            messages: [{ role: "user", content: prompt.content }],
            max_tokens: Math.min(wanted, 256 - prompt.tokens - 1),
            seed: Math.floor(rng.next() * 2 ** 31),
            ...(kind === "whole" ? {} : { stream: true, return_token_ids: true }),
          },
          kind,
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  return samples;
}

interface Health {
  readonly requests: number;
  readonly in_flight: number;
  readonly peak_in_flight: number;
  readonly model_calls: number;
  readonly sequences: number;
}

const health = async (url: string): Promise<Health> =>
  JSON.parse((await call(url.replace(/\/v1$/, "/health"), "GET")).text) as Health;

async function sampledTokens(url: string): Promise<number> {
  const { text } = await call(url.replace(/\/v1$/, "/metrics"), "GET");
  return Number(/^vllm:generation_tokens_total\{[^}]*\} (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
}

/** Polls /health until nothing is in flight; the milliseconds it took (or -1 after 10 s). */
async function untilIdle(url: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    if ((await health(url)).in_flight <= 1) return performance.now() - started; // the /health request itself
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return -1;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const loadBefore = loadavg();
const ckpt = values.ckpt ?? (await freshCheckpoint());
const server = await startServe(ckpt);
let failed = false;
try {
  const made = await prompts(server.url);
  console.log(
    `checkpoint ${values.ckpt ?? "(fresh, reference size: 4 layers, d_model 128, context 256)"}; budgetrl serve in a child process on ${server.url}, --max-batch ${MAX_BATCH}; ${clients} clients, ${warmupMs / 1000} s warm-up then ${durationMs / 1000} s; prompts ${made.map((p) => p.tokens).join("/")} tokens, max_tokens ${ANSWER_LENGTHS.join("/")}; ${(dropShare * 100).toFixed(0)}% streams dropped after 3 tokens; load average before ${loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
  );
  const warm = await load(server.url, made, performance.now() + warmupMs, maxRequests, 1);
  const warmErrors = warm.filter((sample) => sample.error !== undefined);
  await untilIdle(server.url);
  const rssWarm = residentBytes(server.pid);
  const before = await health(server.url);
  const tokensBefore = await sampledTokens(server.url);
  const started = performance.now();
  const samples = await load(server.url, made, started + durationMs, maxRequests, 2);
  const seconds = (performance.now() - started) / 1000;
  const idleMs = await untilIdle(server.url);
  const after = await health(server.url);
  const tokensAfter = await sampledTokens(server.url);
  const rssAfter = residentBytes(server.pid);
  // Later requests: one per client at once, all served.
  const later = await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      chat(
        server.url,
        {
          model: "bench",
          messages: [{ role: "user", content: made[i % made.length]!.content }],
          max_tokens: 8,
          seed: i,
        },
        "whole",
      ),
    ),
  );
  const errors = samples.filter((sample) => sample.error !== undefined);
  const laterErrors = later.filter((sample) => sample.error !== undefined);
  const count = (kind: Kind): number => samples.filter((sample) => sample.kind === kind).length;
  const firsts = (kind: Kind): number[] =>
    samples
      .filter((sample) => sample.kind === kind && sample.error === undefined && sample.firstMs >= 0)
      .map((sample) => sample.firstMs)
      .sort((a, b) => a - b);
  const streamed = firsts("stream")
    .concat(firsts("dropped"))
    .sort((a, b) => a - b);
  const whole = firsts("whole");
  const received = samples.reduce((sum, sample) => sum + sample.tokens, 0);
  const calls = after.model_calls - before.model_calls;
  const perCall = (after.sequences - before.sequences) / Math.max(1, calls);
  const growth = rssAfter / rssWarm - 1;
  console.log(
    `requests: ${samples.length} in ${seconds.toFixed(1)} s (${(samples.length / seconds).toFixed(1)}/s): ${count("whole")} whole, ${count("stream")} streamed, ${count("dropped")} streams dropped after 3 tokens; errors ${errors.length}${errors.length > 0 ? ` (first: ${errors[0]!.error})` : ""} (warm-up: ${warm.length} requests, ${warmErrors.length} errors)`,
  );
  console.log(
    `time to first token (streams): p50 ${ms(quantile(streamed, 0.5))}, p99 ${ms(quantile(streamed, 0.99))}; whole answers: p50 ${ms(quantile(whole, 0.5))}, p99 ${ms(quantile(whole, 0.99))}`,
  );
  console.log(
    `tokens/s: ${(received / seconds).toFixed(0)} received by the clients, ${((tokensAfter - tokensBefore) / seconds).toFixed(0)} sampled by the server; batcher: ${calls} model calls, ${perCall.toFixed(1)} sequences per call (occupancy ${((perCall / MAX_BATCH) * 100).toFixed(0)}% of --max-batch ${MAX_BATCH}), at most ${after.peak_in_flight} requests in flight`,
  );
  console.log(
    `resident memory: ${mib(rssWarm)} after the warm-up, ${mib(rssAfter)} after the run (${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%: ${Math.abs(growth) <= 0.1 ? "within" : "BEYOND"} 10%)`,
  );
  console.log(
    `dropped streams' slots: in flight back to 0 ${idleMs < 0 ? "NOT within 10 s" : `${ms(idleMs)} after the last answer`}; then ${clients} requests at once: ${clients - laterErrors.length} served, ${laterErrors.length} errors`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  failed = errors.length > 0 || laterErrors.length > 0 || Math.abs(growth) > 0.1 || idleMs < 0;
} finally {
  await server.stop();
  agent.destroy();
}
if (failed) process.exitCode = 1;
