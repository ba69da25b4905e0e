// Episodes per second of the openai policy against a loopback OpenAI-compatible server that answers every
// request after an artificial latency, at several concurrency limits (episodes in flight = requests in flight).
// The reference, measured in the same run, is the latency-bound ideal: concurrency / (turns per episode x
// latency); the ratio says how much of the concurrency the client really uses. The server also reports the
// most requests it had in flight at once. Episodes are sokoban tasks whose every reply is invalid, so each takes
// exactly --turns turns (one request each); no cache.
// Run: npx tsx bench/openai.ts [--latency-ms 50] [--turns 4] [--concurrency 1,8,32] [--rounds 12]
import { parseArgs } from "node:util";
import { evaluate } from "../src/eval/evaluate.js";
import { completion, startFakeServer } from "../test/policies/openai/fake-server.js";

const { values } = parseArgs({
  options: {
    "latency-ms": { type: "string", default: "50" },
    turns: { type: "string", default: "4" },
    concurrency: { type: "string", default: "1,8,32" },
    rounds: { type: "string", default: "12" },
  },
});
const latencyMs = Number(values["latency-ms"]);
const turns = Number(values.turns);
const levels = values.concurrency.split(",").map(Number);
/** Episodes per concurrency slot: each level runs rounds x concurrency episodes. */
const rounds = Number(values.rounds);

interface Measured {
  readonly episodes: number;
  readonly seconds: number;
  readonly requests: number;
  readonly peak: number;
}

async function measure(concurrency: number, latency: number): Promise<Measured> {
  const server = await startFakeServer(() => ({
    kind: "json",
    body: completion([{ content: "I would rather not move." }]),
    delayMs: latency,
  }));
  try {
    const episodes = rounds * concurrency;
    const start = performance.now();
    const result = await evaluate({
      env: "sokoban",
      policy: "openai:bench",
      policyClient: { baseUrl: server.url, concurrency, cache: false },
      tasks: episodes,
      samples: 1,
      budgets: [String(turns)],
      bootstrap: 0,
      annotate: false,
      concurrency,
    });
    const seconds = (performance.now() - start) / 1000;
    if (result.done !== episodes || result.errors !== 0)
      throw new Error(`bench run incomplete: ${result.done}/${episodes}, ${result.errors} errors`);
    return { episodes, seconds, requests: server.requests.length, peak: server.peakInFlight() };
  } finally {
    await server.close();
  }
}

const overhead = await measure(Math.max(...levels), 0);
console.log(`loopback server, ${latencyMs} ms per response, ${turns} turns (requests) per episode, no cache`);
for (const concurrency of levels) {
  const run = await measure(concurrency, latencyMs);
  const rate = run.episodes / run.seconds;
  const ideal = concurrency / ((turns * latencyMs) / 1000);
  console.log(
    `concurrency ${String(concurrency).padStart(3)}: ${rate.toFixed(1).padStart(7)} episodes/s, ideal (latency-bound) ${ideal.toFixed(1).padStart(7)}: ${(rate / ideal).toFixed(2)}x | ${run.episodes} episodes, ${run.requests} requests, at most ${run.peak} in flight at the server`,
  );
}
console.log(
  `without latency, concurrency ${Math.max(...levels)}: ${(overhead.requests / overhead.seconds).toFixed(0)} requests/s (the client's own ceiling on this machine)`,
);
