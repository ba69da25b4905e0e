// GET /metrics: the server's counters in Prometheus' text format, through prom-client (its registry and text
// exposition, rather than our own writer of the format). The names are vLLM's where they mean the same, so that
// a vLLM dashboard reads them (each with the label model_name), and budgetrl_serve_* for the rest:
//
//   vllm:num_requests_running             gauge     generations being sampled now (a scrape of /metrics, or any
//                                                   request not sampling, is not one)
//   vllm:num_requests_waiting             gauge     sequences waiting for the model (the queue; vLLM counts requests)
//   vllm:prompt_tokens_total              counter   prompt tokens of the replies sampled (per prompt, once)
//   vllm:generation_tokens_total          counter   tokens sampled
//   vllm:request_success_total            counter   replies finished, by finished_reason (stop, length)
//   vllm:e2e_request_latency_seconds      histogram seconds from a request's arrival to its last byte
//   vllm:request_queue_time_seconds       histogram seconds a generation waits for its first model call
//   vllm:time_to_first_token_seconds      histogram seconds from a generation's start to its first token (a reply
//                                                   sampled whole in one call: to the call's end)
//   vllm:inter_token_latency_seconds      histogram seconds between two tokens of a reply (sampled token by token;
//                                                   a reply sampled whole: its call's time per token, once a reply)
//   budgetrl_serve_http_requests_total    counter   requests by path and status
//   budgetrl_serve_model_calls_total      counter   model calls (batches) made
//   budgetrl_serve_batched_sequences_total counter  sequences those calls sampled (their ratio: the batching)
//   budgetrl_serve_sessions_reused_total  counter   KV-cache sessions found for a conversation's next turn
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { GenerationRequest, SampledChoice, SamplingEngine } from "./engine.js";

export interface ServeMetrics {
  /** The engine, its replies counted. */
  count(engine: SamplingEngine): SamplingEngine;
  /** A request answered: its path (without the query), status and seconds taken. */
  answered(path: string, status: number, seconds: number): void;
  /** The text exposition and its content type. */
  exposition(): Promise<{ readonly text: string; readonly contentType: string }>;
}

export interface MetricsSources {
  readonly model: string;
  readonly engine: SamplingEngine;
  /** Seconds on a monotonic clock (default process.hrtime). */
  readonly now?: () => number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** vLLM's buckets for time to first token and between tokens. */
const TOKEN_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const monotonic = (): number => Number(process.hrtime.bigint()) / 1e9;

/** The gauges read when scraped, and the counters that catch up with the engine's own totals then. */
function liveMetrics(registry: Registry, sources: MetricsSources, running: () => number): () => void {
  const registers = [registry];
  new Gauge({
    name: "vllm:num_requests_running",
    help: "Generations being sampled now.",
    registers,
    collect() {
      this.set(running());
    },
  });
  new Gauge({
    name: "vllm:num_requests_waiting",
    help: "Sequences waiting for the model.",
    registers,
    collect() {
      this.set(sources.engine.waiting());
    },
  });
  const calls = new Counter({ name: "budgetrl_serve_model_calls_total", help: "Model calls made.", registers });
  const batched = new Counter({
    name: "budgetrl_serve_batched_sequences_total",
    help: "Sequences the model calls sampled.",
    registers,
  });
  const reused = new Counter({
    name: "budgetrl_serve_sessions_reused_total",
    help: "KV-cache sessions found for a conversation's next turn.",
    registers,
  });
  const last = { calls: 0, rows: 0, reused: 0 };
  return () => {
    const stats = sources.engine.stats();
    calls.inc(stats.calls - last.calls);
    batched.inc(stats.rows - last.rows);
    reused.inc(stats.sessions.reused - last.reused);
    Object.assign(last, { calls: stats.calls, rows: stats.rows, reused: stats.sessions.reused });
  };
}

/** The token timings of one generation, observed into the histograms. */
interface TokenTimings {
  readonly queue: Histogram;
  readonly firstToken: Histogram;
  readonly betweenTokens: Histogram;
}

/** The engine with its generations timed: queue, first token, between tokens. */
function timedEngine(engine: SamplingEngine, timings: TokenTimings, now: () => number): SamplingEngine["generate"] {
  return async (request, onToken) => {
    const start = now();
    let called: number | undefined;
    let first: number | undefined;
    const last = new Map<number, number>();
    const choices = await engine.generate(
      {
        ...request,
        onModelCall: () => {
          called ??= now();
          request.onModelCall?.();
        },
      },
      (choice, token, ended) => {
        const at = now();
        first ??= at;
        const before = last.get(choice);
        if (before !== undefined) timings.betweenTokens.observe(at - before);
        last.set(choice, at);
        onToken?.(choice, token, ended);
      },
    );
    const end = now();
    timings.queue.observe((called ?? end) - start);
    timings.firstToken.observe((first ?? end) - start);
    if (first === undefined && called !== undefined)
      for (const choice of choices)
        if (choice.tokens.length > 0) timings.betweenTokens.observe((end - called) / choice.tokens.length);
    return choices;
  };
}

export function createServeMetrics(sources: MetricsSources): ServeMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ model_name: sources.model });
  const registers = [registry];
  let running = 0;
  const catchUp = liveMetrics(registry, sources, () => running);
  const histogram = (name: string, help: string): Histogram =>
    new Histogram({ name, help, buckets: TOKEN_BUCKETS, registers });
  const timings: TokenTimings = {
    queue: new Histogram({
      name: "vllm:request_queue_time_seconds",
      help: "Seconds a generation waits for its first model call.",
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    firstToken: histogram("vllm:time_to_first_token_seconds", "Seconds from a generation's start to its first token."),
    betweenTokens: histogram("vllm:inter_token_latency_seconds", "Seconds between two tokens of a reply."),
  };
  const prompt = new Counter({ name: "vllm:prompt_tokens_total", help: "Prompt tokens.", registers });
  const generation = new Counter({ name: "vllm:generation_tokens_total", help: "Tokens sampled.", registers });
  const success = new Counter({
    name: "vllm:request_success_total",
    help: "Replies finished, by reason.",
    labelNames: ["finished_reason"],
    registers,
  });
  const latency = new Histogram({
    name: "vllm:e2e_request_latency_seconds",
    help: "Seconds from a request's arrival to its answer's end.",
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const requests = new Counter({
    name: "budgetrl_serve_http_requests_total",
    help: "HTTP requests by path and status.",
    labelNames: ["path", "status"],
    registers,
  });
  const sampled = (request: GenerationRequest, choices: readonly SampledChoice[]): void => {
    prompt.inc(request.prompt.length);
    generation.inc(choices.reduce((sum, choice) => sum + choice.tokens.length, 0));
    for (const choice of choices) success.inc({ finished_reason: choice.finish });
  };
  return {
    count(engine) {
      const generate = timedEngine(engine, timings, sources.now ?? monotonic);
      return {
        ...engine,
        async generate(request, onToken) {
          running++;
          try {
            const choices = await generate(request, onToken);
            sampled(request, choices);
            return choices;
          } finally {
            running--;
          }
        },
      };
    },
    answered(path, status, seconds) {
      requests.inc({ path, status: String(status) });
      if (status < 400) latency.observe(seconds);
    },
    async exposition() {
      catchUp();
      return { text: await registry.metrics(), contentType: registry.contentType };
    },
  };
}
