// Episodes per second of the openai policy against `budgetrl serve` (a child process on a loopback port), beside
// the in-process tiny policy on the same checkpoint, measured in the same run at several concurrency levels
// (episodes in flight = requests in flight). The server's /health counters say how many sequences each model
// call sampled (how much of the concurrency the server batched), the most requests in flight (since the start:
// give the levels in increasing order) and how many turns continued in a kept KV cache. The two runs use the same seeds
// (the openai policy with seedScheme=tiny; log-probs and token ids asked for, as RL would; the server under the tiny
// context rule), so their episodes must be equal (replies and tokens); the bench checks it.
//
// The checkpoint: --ckpt DIR, or a freshly initialised model of the reference size (4 layers, d_model 128,
// context 256; 16-token answers, history segments). A fresh model writes garbage, so every sokoban reply is
// invalid and every episode takes exactly --turns turns (requests).
// Run: npx tsx bench/serve.ts [--ckpt DIR] [--turns 4] [--concurrency 1,8,32] [--rounds 8]
// The server under load (64 clients for 60 s, streams, dropped clients, memory): bench/serve-load.ts.
import { parseArgs } from "node:util";
import { evaluate, type EvaluationResult } from "../src/eval/evaluate.js";
import { freshCheckpoint, startServe } from "./serve-child.js";

const { values } = parseArgs({
  options: {
    ckpt: { type: "string" },
    turns: { type: "string", default: "4" },
    concurrency: { type: "string", default: "1,8,32" },
    rounds: { type: "string", default: "8" },
  },
});
const turns = Number(values.turns);
const levels = values.concurrency.split(",").map(Number);
const rounds = Number(values.rounds);

interface Health {
  readonly model_calls: number;
  readonly sequences: number;
  readonly requests: number;
  readonly peak_in_flight: number;
  readonly sessions_reused: number;
}

async function health(url: string): Promise<Health> {
  return (await (await fetch(url.replace(/\/v1$/, "/health"))).json()) as Health;
}

function run(
  policy: string,
  concurrency: number,
  extra: Partial<Parameters<typeof evaluate>[0]>,
): Promise<EvaluationResult> {
  return evaluate({
    env: "sokoban",
    policy,
    tasks: rounds * concurrency,
    samples: 1,
    budgets: [String(turns)],
    bootstrap: 0,
    annotate: false,
    concurrency,
    seed: concurrency,
    ...extra,
  });
}

/** Largest difference between the two runs' log-probs of the same turn's tokens. */
function logprobGap(a: EvaluationResult, b: EvaluationResult): number {
  let gap = 0;
  for (const episode of a.episodes) {
    const other = b.episodes.find((e) => e.taskId === episode.taskId && e.sample === episode.sample);
    episode.turns.forEach((turn, t) =>
      turn.logprobs?.forEach(
        (logprob, i) => (gap = Math.max(gap, Math.abs(logprob - (other?.turns[t]?.logprobs?.[i] ?? Number.NaN)))),
      ),
    );
  }
  return gap;
}

function sameEpisodes(a: EvaluationResult, b: EvaluationResult): boolean {
  const key = (result: EvaluationResult): string[] =>
    result.episodes
      .map((e) => JSON.stringify([e.taskId, e.sample, e.turns.map((t) => [t.action.content, t.tokens])]))
      .sort();
  return JSON.stringify(key(a)) === JSON.stringify(key(b));
}

const ckpt = values.ckpt ?? (await freshCheckpoint());
const server = await startServe(ckpt, ["--context-rule", "tiny"]);
try {
  console.log(
    `checkpoint ${values.ckpt ?? "(fresh, reference size)"}; sokoban, ${turns} turns (requests) per episode; budgetrl serve in a child process on ${server.url}, no cache`,
  );
  await run(`tiny:${ckpt}`, 1, { tasks: 1 }); // warm-up: kernels compiled, worker started
  for (const concurrency of levels) {
    const start = performance.now();
    const local = await run(`tiny:${ckpt}`, concurrency, {});
    const localSeconds = (performance.now() - start) / 1000;
    const before = await health(server.url);
    const served0 = performance.now();
    const served = await run("openai:bench", concurrency, {
      policyOptions: { seedScheme: "tiny", logprobs: true, tokenIds: true },
      policyClient: { baseUrl: server.url, concurrency, cache: false },
    });
    const servedSeconds = (performance.now() - served0) / 1000;
    const after = await health(server.url);
    const episodes = rounds * concurrency;
    if (local.done !== episodes || served.done !== episodes || served.errors !== 0)
      throw new Error(`bench run incomplete: ${local.done}, ${served.done}/${episodes}, ${served.errors} errors`);
    const calls = after.model_calls - before.model_calls;
    const perCall = (after.sequences - before.sequences) / Math.max(1, calls);
    console.log(
      `concurrency ${String(concurrency).padStart(3)}: in-process ${(episodes / localSeconds).toFixed(1).padStart(6)} episodes/s | served ${(episodes / servedSeconds).toFixed(1).padStart(6)} episodes/s (${(localSeconds / servedSeconds).toFixed(2)}x) | ${after.requests - before.requests - 1} requests (${after.sessions_reused - before.sessions_reused} in a kept KV cache), at most ${after.peak_in_flight} in flight, ${perCall.toFixed(1)} sequences per model call | same episodes: ${sameEpisodes(local, served) ? "yes" : "NO"}, log-probs within ${logprobGap(local, served).toExponential(1)}`,
    );
  }
} finally {
  await server.stop();
}
