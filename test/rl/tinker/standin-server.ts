// A loopback stand-in for a Tinker server (node:http on port 0), backed by budgetrl's in-process model, so that
// the Tinker backend's whole RL loop runs over real HTTP in tests. It implements the endpoints the client uses
// (src/rl/tinker/wire.ts lists them) with their JSON shapes, and futures: every training and sampling request
// answers {request_id} at once and runs in the background (training requests of a model one after another,
// in the order they arrived); retrieve_future long-polls up to `holdMs`, then answers "still pending" the
// hosted way ({"type": "try_again"}) or SkyRL's (408), and a failed request the hosted way ({"error",
// "category"}) or SkyRL's (400 {"detail"}).
//
// What it is not: the base models are budgetrl's tiny byte-level transformers, trained in full (a LoRA rank is
// accepted and ignored), with the model's own AdamW (optim_step refuses Adam settings other than the model's);
// losses are computed with budgetrl's own code (cross_entropy: backward with the weights as coefficients;
// ppo / importance_sampling: the clipped-ratio coefficients of src/rl/loss/ppo.ts per position).
// Sampling keeps a prefix cache of KV sessions (a prompt reuses the longest idle session whose cached tokens
// it extends), as the in-process policy keeps each episode's session, so that sampling gives the same tokens
// and log-probs bit for bit. Faults can be injected per request (`fault`).
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadCheckpoint } from "../../../src/nn/checkpoint.js";
import type { ModelConfig } from "../../../src/nn/config.js";
import { createModel, type KvSession, type TinyModel } from "../../../src/nn/model.js";
import { ppoCoefficients } from "../../../src/rl/loss/ppo.js";
import { tokenChunks } from "../../../src/rl/tiny-backend.js";

export interface StandinBaseModel {
  /** A fresh model of this config and seed, or the checkpoint in `init` (its optimiser state reset). */
  readonly config?: Partial<ModelConfig>;
  readonly seed?: number;
  readonly init?: string;
}

export type StandinFault = { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } | "drop";

export interface StandinOptions {
  readonly baseModels: Readonly<Record<string, StandinBaseModel>>;
  /** How a pending future is reported: hosted Tinker's try_again body (default) or SkyRL's 408. */
  readonly pending?: "try_again" | "408";
  /** How a failed request is reported by retrieve_future: hosted {"error"} (default) or SkyRL's 400. */
  readonly failure?: "error-body" | "400";
  /** Longest wait of retrieve_future for a result before answering pending. Default 2000. */
  readonly holdMs?: number;
  /** Required X-API-Key, if any (401 otherwise). */
  readonly apiKey?: string;
  /** Decides a fault for the `index`-th request (0-based, over all requests) to `path`; undefined: answer. */
  readonly fault?: (path: string, index: number) => StandinFault | undefined;
  /** Idle KV sessions kept per sampler (the prefix cache). Default 512. */
  readonly cacheSessions?: number;
}

export interface StandinRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly headers: IncomingMessage["headers"];
}

export interface Standin {
  readonly url: string;
  readonly requests: readonly StandinRequest[];
  /** The trained model behind a model id (tests compare its weights). */
  model(modelId: string): TinyModel;
  weightsDigest(modelId: string): string;
  close(): Promise<void>;
}

class RequestFailure extends Error {}

type FutureState = { status: "pending"; readonly done: Promise<void> } | { status: "done"; readonly value: unknown } | { status: "failed"; readonly message: string };

interface CachedSession {
  readonly session: KvSession;
  busy: boolean;
  used: number;
}

interface Sampler {
  readonly model: TinyModel;
  readonly owned: boolean;
  readonly sessions: CachedSession[];
  queue: { prompt: number[]; options: SampleJob; resolve: (value: unknown) => void; reject: (error: unknown) => void }[];
  running: boolean;
}

interface SampleJob {
  readonly maxTokens: number;
  readonly seed: number;
  readonly stop: number[];
  readonly temperature: number;
  readonly topP: number;
  readonly promptLogprobs: boolean;
}

interface TrainedModel {
  readonly model: TinyModel;
  readonly baseModel: string;
  chain: Promise<unknown>;
  readonly seqIds: Map<number, string>;
  requests: number;
}

interface SavedState {
  readonly weights: Float32Array;
  readonly m: Float32Array;
  readonly v: Float32Array;
  readonly step: number;
}

const digest = (model: TinyModel): string => createHash("sha256").update(new Uint8Array(model.parameters().buffer, model.parameters().byteOffset, model.parameters().byteLength)).digest("hex");

function numbers(value: unknown, what: string): number[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "number")) throw new RequestFailure(`${what} must be a list of numbers`);
  return value as number[];
}

function promptTokens(input: unknown): number[] {
  const chunks = (input as { chunks?: unknown } | undefined)?.chunks;
  if (!Array.isArray(chunks)) throw new RequestFailure("model_input.chunks is missing");
  return chunks.flatMap((chunk: { type?: string; tokens?: unknown }) => {
    if (chunk.type !== undefined && chunk.type !== "encoded_text") throw new RequestFailure(`chunk type ${chunk.type} is not supported by the stand-in`);
    return numbers(chunk.tokens, "chunk.tokens");
  });
}

function lossInput(datum: { loss_fn_inputs?: Record<string, { data?: unknown }> }, name: string, length: number, required: boolean): Float32Array | undefined {
  const values = datum.loss_fn_inputs?.[name]?.data;
  if (values === undefined) {
    if (required) throw new RequestFailure(`loss_fn_inputs.${name} is required`);
    return undefined;
  }
  const list = numbers(values, `loss_fn_inputs.${name}.data`);
  if (list.length !== length) throw new RequestFailure(`loss_fn_inputs.${name} has ${list.length} values for ${length} positions`);
  return Float32Array.from(list);
}

interface Row {
  readonly tokens: number[];
  readonly targets: number[];
  readonly weights?: Float32Array;
  readonly logprobs?: Float32Array;
  readonly advantages?: Float32Array;
}

function readRows(data: unknown, lossFn: string): Row[] {
  if (!Array.isArray(data) || data.length === 0) throw new RequestFailure("data must be a non-empty list of Datum");
  return data.map((datum: { model_input?: unknown; loss_fn_inputs?: Record<string, { data?: unknown }> }) => {
    const inputs = promptTokens(datum.model_input);
    const targets = numbers(datum.loss_fn_inputs?.target_tokens?.data, "loss_fn_inputs.target_tokens.data");
    if (targets.length !== inputs.length) throw new RequestFailure(`target_tokens has ${targets.length} values for ${inputs.length} input tokens`);
    const policy = lossFn !== "cross_entropy";
    const weights = lossInput(datum, "weights", inputs.length, false);
    const logprobs = lossInput(datum, "logprobs", inputs.length, policy);
    const advantages = lossInput(datum, "advantages", inputs.length, policy);
    return { tokens: [...inputs, targets[targets.length - 1] as number], targets, ...(weights === undefined ? {} : { weights }), ...(logprobs === undefined ? {} : { logprobs }), ...(advantages === undefined ? {} : { advantages }) };
  });
}

/** Forward (and backward) over rows in the in-process backend's chunks; per-row log-probs and losses. */
async function runLoss(model: TinyModel, rows: readonly Row[], lossFn: string, config: Record<string, number>, backward: boolean): Promise<unknown> {
  const outputs: unknown[] = [];
  let lossSum = 0;
  for (const part of tokenChunks(rows, 8192)) {
    const seqLen = Math.max(1, ...part.map((row) => row.targets.length));
    const tokens = new Int32Array(part.length * seqLen);
    const targets = new Int32Array(part.length * seqLen).fill(-1);
    part.forEach((row, r) => row.targets.forEach((target, p) => {
      tokens[r * seqLen + p] = row.tokens[p] as number;
      targets[r * seqLen + p] = target;
    }));
    const result = await model.forward({ tokens, targets, batchSize: part.length, seqLen, lengths: part.map((row) => Math.max(1, row.targets.length)) });
    const coefficients = new Float32Array(part.length * seqLen);
    part.forEach((row, r) => {
      const logprobs = result.logprobs.slice(r * seqLen, r * seqLen + row.targets.length);
      let elementwise: Float32Array;
      if (lossFn === "cross_entropy") {
        const weights = row.weights ?? new Float32Array(row.targets.length).fill(1);
        coefficients.set(weights, r * seqLen);
        elementwise = logprobs.map((value, p) => -(weights[p] as number) * value);
      } else {
        const bounds = lossFn === "ppo" ? { clipLow: 1 - (config.clip_low_threshold ?? 0.8), clipHigh: (config.clip_high_threshold ?? 1.2) - 1 } : { clipLow: 1, clipHigh: Number.POSITIVE_INFINITY };
        const mask = new Float32Array(row.targets.length).fill(1);
        const ppo = ppoCoefficients({ logprobs, oldLogprobs: row.logprobs as Float32Array, advantages: row.advantages as Float32Array, mask }, { ...bounds, klCoefficient: 0 });
        coefficients.set(ppo.coefficients, r * seqLen);
        elementwise = logprobs.map((value, p) => {
          const ratio = Math.exp(value - (row.logprobs?.[p] as number));
          const advantage = row.advantages?.[p] as number;
          return -Math.min(ratio * advantage, Math.min(Math.max(ratio, 1 - bounds.clipLow), 1 + bounds.clipHigh) * advantage);
        });
      }
      lossSum += elementwise.reduce((sum, value) => sum + value, 0);
      outputs.push({ logprobs: { data: Array.from(logprobs), dtype: "float32", shape: [logprobs.length] }, elementwise_loss: { data: Array.from(elementwise), dtype: "float32", shape: [elementwise.length] } });
    });
    if (backward) await model.backward(coefficients, { normaliser: 1 });
  }
  return { loss_fn_output_type: "ArrayRecord", loss_fn_outputs: outputs, metrics: { "loss:sum": lossSum } };
}

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const requests: StandinRequest[] = [];
  const perPath = new Map<string, number>();
  const futures = new Map<string, FutureState>();
  const sessions = new Set<string>();
  const models = new Map<string, TrainedModel>();
  const bases = new Map<string, Promise<TinyModel>>();
  const samplers = new Map<string, Sampler>();
  const samplerPaths = new Map<string, Sampler>();
  const states = new Map<string, SavedState>();
  const transient = new Map<string, string[]>();
  const cacheSessions = options.cacheSessions ?? 512;
  let ids = 0;
  const id = (prefix: string): string => `${prefix}_${++ids}`;

  const base = (name: string): Promise<TinyModel> => {
    const spec = options.baseModels[name];
    if (spec === undefined) throw new RequestFailure(`unknown base model ${name}`);
    let model = bases.get(name);
    if (model === undefined) {
      model = (async () => {
        if (spec.init === undefined) return createModel({ ...(spec.config === undefined ? {} : { config: spec.config }), seed: spec.seed ?? 0 });
        const loaded = await loadCheckpoint(spec.init);
        const state = loaded.optimizerState();
        state.m.fill(0);
        state.v.fill(0);
        state.step = 0;
        return loaded;
      })();
      bases.set(name, model);
    }
    return model;
  };

  const future = (work: () => Promise<unknown>): string => {
    const requestId = id("request");
    const done = work().then(
      (value) => void futures.set(requestId, { status: "done", value }),
      (error: unknown) => void futures.set(requestId, { status: "failed", message: error instanceof Error ? error.message : String(error) }),
    );
    futures.set(requestId, { status: "pending", done });
    return requestId;
  };

  const trainedModel = (modelId: unknown): TrainedModel => {
    const found = typeof modelId === "string" ? models.get(modelId) : undefined;
    if (found === undefined) throw new RequestFailure(`model ${String(modelId)} not found`);
    return found;
  };

  /** A training request of a model: queued after the model's earlier ones; a resent seq_id gets its first future. */
  const trainingFuture = (entry: TrainedModel, seqId: unknown, work: () => Promise<unknown>): string => {
    if (typeof seqId === "number" && entry.seqIds.has(seqId)) return entry.seqIds.get(seqId) as string;
    entry.requests++;
    const run = entry.chain.then(work);
    entry.chain = run.catch(() => undefined);
    const requestId = future(() => run);
    if (typeof seqId === "number") entry.seqIds.set(seqId, requestId);
    return requestId;
  };

  const addSampler = (model: TinyModel, owned: boolean): [string, Sampler] => {
    const sampler: Sampler = { model, owned, sessions: [], queue: [], running: false };
    const samplerId = id("sampling");
    samplers.set(samplerId, sampler);
    return [samplerId, sampler];
  };

  const dropSampler = (samplerId: string): void => {
    const sampler = samplers.get(samplerId);
    if (sampler === undefined || [...samplerPaths.values()].includes(sampler)) return;
    samplers.delete(samplerId);
    for (const cached of sampler.sessions) cached.session.close();
    if (sampler.owned) sampler.model.dispose();
  };

  /** The idle session whose cached tokens the prompt extends (the longest), or a new one. */
  const sessionFor = (sampler: Sampler, prompt: readonly number[]): CachedSession => {
    let best: CachedSession | undefined;
    for (const cached of sampler.sessions) {
      const tokens = cached.session.cached;
      if (cached.busy || tokens.length >= prompt.length || (best !== undefined && tokens.length <= best.session.cached.length)) continue;
      if (tokens.every((token, i) => prompt[i] === token)) best = cached;
    }
    if (best === undefined) {
      const idle = sampler.sessions.filter((cached) => !cached.busy).sort((a, b) => a.used - b.used);
      if (sampler.sessions.length >= cacheSessions && idle[0] !== undefined) {
        idle[0].session.close();
        sampler.sessions.splice(sampler.sessions.indexOf(idle[0]), 1);
      }
      best = { session: sampler.model.openSession(), busy: false, used: 0 };
      sampler.sessions.push(best);
    }
    best.busy = true;
    best.used = ++ids;
    return best;
  };

  const drain = async (sampler: Sampler): Promise<void> => {
    sampler.running = true;
    while (sampler.queue.length > 0) {
      const batch = sampler.queue.splice(0, 64);
      const cached = batch.map((job) => sessionFor(sampler, job.prompt));
      try {
        for (const [group, jobs] of groupBy(batch)) {
          const indices = jobs.map((job) => batch.indexOf(job));
          const generated = await sampler.model.sample(jobs.map((job) => job.prompt), { ...group, seeds: jobs.map((job) => job.options.seed), sessions: indices.map((i) => cached[i]?.session) });
          const scores = jobs.some((job) => job.options.promptLogprobs) ? await sampler.model.logprobs(jobs.map((job) => job.prompt)) : undefined;
          jobs.forEach((job, j) => {
            const result = generated[j]!;
            const promptLogprobs = job.options.promptLogprobs ? [null, ...Array.from(scores?.[j] ?? [])] : undefined;
            job.resolve({ type: "sample", sequences: [{ tokens: result.tokens, logprobs: result.logprobs, stop_reason: result.finish === "stop" ? "stop" : "length" }], ...(promptLogprobs === undefined ? {} : { prompt_logprobs: promptLogprobs }) });
          });
        }
      } catch (error) {
        for (const job of batch) job.reject(error);
      } finally {
        for (const session of cached) session.busy = false;
      }
    }
    sampler.running = false;
  };

  const handlers: Record<string, (body: Record<string, unknown>) => Promise<unknown> | unknown> = {
    "/api/v1/create_session": () => {
      const sessionId = id("session");
      sessions.add(sessionId);
      return { type: "create_session", session_id: sessionId };
    },
    "/api/v1/session_heartbeat": (body) => {
      if (!sessions.has(String(body.session_id))) throw new RequestFailure("session not found");
      return { type: "session_heartbeat" };
    },
    "/api/v1/create_model": (body) => {
      if (!sessions.has(String(body.session_id))) throw new RequestFailure("session not found");
      const name = String(body.base_model);
      const rank = (body.lora_config as { rank?: unknown } | undefined)?.rank;
      if (typeof rank !== "number" || !(rank >= 1)) throw new RequestFailure("lora_config.rank must be a positive integer");
      return { request_id: future(async () => {
        const model = await (await base(name)).clone();
        const modelId = id("model");
        models.set(modelId, { model, baseModel: name, chain: Promise.resolve(), seqIds: new Map(), requests: 0 });
        return { type: "create_model", model_id: modelId };
      }) };
    },
    "/api/v1/forward": (body) => {
      const entry = trainedModel(body.model_id);
      const input = body.forward_input as { data?: unknown; loss_fn?: string; loss_fn_config?: Record<string, number> };
      const rows = readRows(input.data, String(input.loss_fn));
      return { request_id: trainingFuture(entry, body.seq_id, () => runLoss(entry.model, rows, String(input.loss_fn), input.loss_fn_config ?? {}, false)) };
    },
    "/api/v1/forward_backward": (body) => {
      const entry = trainedModel(body.model_id);
      const input = body.forward_backward_input as { data?: unknown; loss_fn?: string; loss_fn_config?: Record<string, number> };
      if (!["cross_entropy", "importance_sampling", "ppo"].includes(String(input.loss_fn))) throw new RequestFailure(`loss_fn ${String(input.loss_fn)} is not supported by the stand-in`);
      const rows = readRows(input.data, String(input.loss_fn));
      return { request_id: trainingFuture(entry, body.seq_id, () => runLoss(entry.model, rows, String(input.loss_fn), input.loss_fn_config ?? {}, true)) };
    },
    "/api/v1/optim_step": (body) => {
      const entry = trainedModel(body.model_id);
      const adam = body.adam_params as Record<string, number>;
      const own = entry.model.optimizerConfig;
      const expected = { beta1: own.beta1, beta2: own.beta2, eps: own.eps, weight_decay: own.weightDecay, grad_clip_norm: own.clipNorm };
      return { request_id: trainingFuture(entry, body.seq_id, async () => {
        for (const [key, value] of Object.entries(expected)) if (adam[key] !== value) throw new RequestFailure(`adam_params.${key} = ${adam[key]}: the stand-in applies its model's AdamW (${key} = ${value})`);
        return { type: "optim_step", metrics: { grad_norm: entry.model.step({ learningRate: adam.learning_rate as number }).gradNorm } };
      }) };
    },
    "/api/v1/save_weights": (body) => {
      const entry = trainedModel(body.model_id);
      return { request_id: trainingFuture(entry, body.seq_id, async () => {
        const path = `tinker://${String(body.model_id)}/weights/${String(body.path)}`;
        const state = entry.model.optimizerState();
        states.set(path, { weights: entry.model.parameters().slice(), m: state.m.slice(), v: state.v.slice(), step: state.step });
        return { type: "save_weights", path };
      }) };
    },
    "/api/v1/load_weights": (body) => {
      const entry = trainedModel(body.model_id);
      if (entry.requests > 0) throw new RequestFailure(`LoadWeights is not permitted with seq_id ${String(body.seq_id)}`);
      const saved = states.get(String(body.path));
      if (saved === undefined) throw new RequestFailure(`checkpoint not found: ${String(body.path)}`);
      return { request_id: trainingFuture(entry, body.seq_id, async () => {
        entry.model.parameters().set(saved.weights);
        entry.model.weightsChanged();
        const state = entry.model.optimizerState();
        state.m.set(saved.m);
        state.v.set(saved.v);
        state.step = saved.step;
        return { type: "load_weights" };
      }) };
    },
    "/api/v1/save_weights_for_sampler": (body) => {
      const entry = trainedModel(body.model_id);
      const modelId = String(body.model_id);
      return { request_id: trainingFuture(entry, body.seq_id, async () => {
        const [samplerId, sampler] = addSampler(await entry.model.clone(), true);
        if (typeof body.path === "string") {
          const path = `tinker://${modelId}/sampler_weights/${body.path}`;
          samplerPaths.set(path, sampler);
          return { type: "save_weights_for_sampler", path };
        }
        // Transient samplers: the newest two of a model are kept.
        const kept = [...(transient.get(modelId) ?? []), samplerId];
        while (kept.length > 2) dropSampler(kept.shift() as string);
        transient.set(modelId, kept);
        return { type: "save_weights_for_sampler", sampling_session_id: samplerId };
      }) };
    },
    "/api/v1/create_sampling_session": async (body) => {
      if (!sessions.has(String(body.session_id))) throw new RequestFailure("session not found");
      if (typeof body.base_model === "string") return { type: "create_sampling_session", sampling_session_id: addSampler(await base(body.base_model), false)[0] };
      const sampler = samplerPaths.get(String(body.model_path));
      if (sampler === undefined) throw new RequestFailure(`sampler weights not found: ${String(body.model_path)}`);
      const samplerId = id("sampling");
      samplers.set(samplerId, sampler);
      return { type: "create_sampling_session", sampling_session_id: samplerId };
    },
    "/api/v1/asample": (body) => {
      const sampler = samplers.get(String(body.sampling_session_id));
      if (sampler === undefined) throw new RequestFailure(`sampling session ${String(body.sampling_session_id)} not found`);
      const params = body.sampling_params as Record<string, unknown>;
      if (typeof params.max_tokens !== "number" || params.max_tokens < 1) throw new RequestFailure("max_tokens is currently required");
      if (params.top_k !== undefined && params.top_k !== -1) throw new RequestFailure("the stand-in samples without top_k");
      const job: SampleJob = { maxTokens: params.max_tokens, seed: Number(params.seed ?? 0), stop: numbers(params.stop ?? [], "stop"), temperature: Number(params.temperature ?? 1), topP: Number(params.top_p ?? 1), promptLogprobs: body.prompt_logprobs === true };
      const prompt = promptTokens(body.prompt);
      return { request_id: future(() => new Promise((resolve, reject) => {
        sampler.queue.push({ prompt, options: job, resolve, reject });
        if (!sampler.running) setImmediate(() => void (sampler.running ? undefined : drain(sampler)));
      })) };
    },
    "/api/v1/unload_model": (body) => {
      trainedModel(body.model_id);
      return { request_id: future(async () => ({ type: "unload_model", model_id: String(body.model_id) })) };
    },
  };

  const retrieve = async (body: Record<string, unknown>, response: ServerResponse): Promise<void> => {
    const state = futures.get(String(body.request_id));
    if (state === undefined) return send(response, 404, { detail: "Future not found" });
    if (state.status === "pending") {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([state.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, options.holdMs ?? 2000)))]);
      clearTimeout(timer);
    }
    const now = futures.get(String(body.request_id)) as FutureState;
    if (now.status === "pending") return options.pending === "408" ? send(response, 408, { detail: "Timeout waiting for result" }) : send(response, 200, { type: "try_again", request_id: body.request_id, queue_state: "active" });
    if (now.status === "failed") return options.failure === "400" ? send(response, 400, { detail: now.message }) : send(response, 200, { error: now.message, category: "user" });
    return send(response, 200, now.value);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = (request.url ?? "").split("?")[0] as string;
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
      } catch {
        return send(response, 422, { detail: "the body is not JSON" });
      }
      requests.push({ path, body, headers: request.headers });
      const index = perPath.get(path) ?? 0;
      perPath.set(path, index + 1);
      const fault = options.fault?.(path, index);
      if (fault === "drop") return void response.socket?.destroy();
      if (fault !== undefined) return send(response, fault.status, fault.body ?? { detail: "injected fault" }, fault.headers);
      if (options.apiKey !== undefined && request.headers["x-api-key"] !== options.apiKey) return send(response, 401, { detail: "invalid API key" });
      void answer(path, request.method ?? "GET", body, response);
    });
  });

  const answer = async (path: string, method: string, body: Record<string, unknown>, response: ServerResponse): Promise<void> => {
    try {
      if (method === "GET" && path === "/api/v1/get_server_capabilities") {
        const supported = await Promise.all(Object.keys(options.baseModels).map(async (name) => ({ model_name: name, max_context_length: (await base(name)).config.contextLength })));
        return send(response, 200, { supported_models: supported });
      }
      if (method === "POST" && path === "/api/v1/retrieve_future") return await retrieve(body, response);
      const handler = method === "POST" ? handlers[path] : undefined;
      if (handler === undefined) return send(response, 404, { detail: `${method} ${path} is not an endpoint of the stand-in` });
      send(response, 200, await handler(body));
    } catch (error) {
      send(response, error instanceof RequestFailure ? 400 : 500, { detail: error instanceof Error ? error.message : String(error) });
    }
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    model: (modelId) => trainedModel(modelId).model,
    weightsDigest: (modelId) => digest(trainedModel(modelId).model),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...futures.values()].map((state) => (state.status === "pending" ? state.done : undefined)));
      for (const samplerId of [...samplers.keys()]) dropSampler(samplerId);
      for (const sampler of new Set(samplerPaths.values())) {
        for (const cached of sampler.sessions) cached.session.close();
        if (sampler.owned) sampler.model.dispose();
      }
      for (const entry of models.values()) entry.model.dispose();
      for (const model of bases.values()) (await model).dispose();
    },
  };
}

/** Jobs with the same sampling settings, which one model call can sample together. */
function groupBy(jobs: readonly Sampler["queue"][number][]): Map<{ maxNewTokens: number; temperature: number; topP: number; stopTokens: number[] }, Sampler["queue"][number][]> {
  const groups = new Map<string, { key: { maxNewTokens: number; temperature: number; topP: number; stopTokens: number[] }; jobs: Sampler["queue"][number][] }>();
  for (const job of jobs) {
    const key = { maxNewTokens: job.options.maxTokens, temperature: job.options.temperature, topP: job.options.topP, stopTokens: job.options.stop };
    const name = JSON.stringify(key);
    const group = groups.get(name) ?? { key, jobs: [] };
    group.jobs.push(job);
    groups.set(name, group);
  }
  return new Map([...groups.values()].map((group) => [group.key, group.jobs]));
}

function send(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
