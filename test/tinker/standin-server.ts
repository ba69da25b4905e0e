// A loopback stand-in for a Tinker server (node:http on port 0), built from the Tinker SDK 0.25.0's published
// types rather than from our client, and backed by budgetrl's in-process model, so that the Tinker backend's
// whole RL loop runs over real HTTP in tests against the protocol:
//   - JSON bodies checked against the SDK's request types, strict as they are (standin-schemas.ts): a field
//     the SDK does not define is refused with FastAPI's 422;
//   - forward_backward only as the SDK 0.25 sends it: protobuf (Content-Type application/x-protobuf), zstd
//     when Content-Encoding says so (decoded with fzstd, not the client's codec), read by a hand-written
//     strict decoder (standin-proto.ts); forward passes through its forward_only flag: /api/v1/forward is gone;
//   - results of forward_backward and asample as protobuf to an Accept: application/x-protobuf, JSON otherwise;
//   - POST /api/v1/client/config with the flags given (`clientConfig`), and POST /api/v1/auth/token issuing
//     short-lived JWTs (expiry on the injected clock) when pjwt_auth_enabled, after which only a live JWT
//     is accepted in X-API-Key;
//   - a model's training requests run in seq_id order (1, 2, ...), whatever order they arrive in; a request
//     sent again with its seq_id gets its first future, another body with a used seq_id gets 409 (SkyRL's
//     rule); a request refused at submission gives up its turn;
//   - futures: every training and sampling request answers {request_id} at once and runs in the background;
//     retrieve_future long-polls up to `holdMs`, then answers "still pending" the hosted way ({"type":
//     "try_again"}) or SkyRL's (408), and a failed request the hosted way ({"error", "category"}) or SkyRL's
//     (400 {"detail"});
//   - faults injected per request (`fault`): any status (400s from retrieve_future, 402s, 5xx) or a dropped
//     connection, decided by the test (which may read its own injected clock: an outage of minutes in no time);
//     create_session's info / warning / error messages (`sessionMessages`);
//   - forward_backward results with every field stripped, num_datums kept (`stripLogprobs`), as the hosted
//     service may send them (the SDK's response_conv.py: "server-side filters like drop_fwdbwd_logprobs").
// What it is not: the base models are budgetrl's tiny byte-level transformers, trained in full (a LoRA rank is
// accepted and ignored), with the model's own AdamW (optim_step refuses Adam settings other than the model's).
// Files: standin-http.ts (credentials, request bodies), standin-schemas.ts (JSON types), standin-proto.ts
// (protobuf), standin-model.ts (losses and sampling).
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadCheckpoint } from "../../src/nn/checkpoint.js";
import type { ModelConfig } from "../../src/nn/config.js";
import { createModel, type TinyModel } from "../../src/nn/model.js";
import {
  createSampler,
  LOSSES,
  readRows,
  RequestFailure,
  runLoss,
  sampleSeeds,
  type Sampler,
} from "./standin-model.js";
import { createAuth, PROTOBUF, readRequestBody } from "./standin-http.js";
import {
  encodeForwardBackwardOutput,
  encodeSampleResponse,
  ProtoError,
  type JsonForwardBackwardOutput,
  type JsonSampleOutput,
} from "./standin-proto.js";
import type { JsonEndpoint, RequestBody } from "./standin-schemas.js";

export interface StandinBaseModel {
  /** A fresh model of this config and seed, or the checkpoint in `init` (its optimiser state reset). */
  readonly config?: Partial<ModelConfig>;
  readonly seed?: number;
  readonly init?: string;
}

/** An injected answer: a status with a JSON body (default {"detail": "injected fault"}; "" sends an empty body, as a
 * proxy's bare 400 has), or a dropped connection. */
export type StandinFault =
  { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } | "drop";

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
  /** The client config answered to POST /api/v1/client/config (the SDK's field names). Default {}. */
  readonly clientConfig?: Readonly<Record<string, unknown>>;
  /** Lifetime of the JWTs issued by /api/v1/auth/token, in seconds. Default 900. */
  readonly jwtTtlSeconds?: number;
  /** The server's clock (JWT expiry). Default Date.now. */
  readonly now?: () => number;
  /** Messages create_session answers with. */
  readonly sessionMessages?: {
    readonly info_message?: string;
    readonly warning_message?: string;
    readonly error_message?: string;
  };
  /** Decides a fault for the `index`-th request (0-based, over all requests) to `path`; undefined: answer. */
  readonly fault?: (path: string, index: number) => StandinFault | undefined;
  /** forward_backward results without their fields (logprobs, elementwise_loss): only num_datums. */
  readonly stripLogprobs?: boolean;
  /** Idle KV sessions kept per sampler (the prefix cache). Default 512. */
  readonly cacheSessions?: number;
}

export interface StandinRequest {
  readonly path: string;
  /** The JSON body, or the decoded protobuf message of forward_backward (bytes fields as Uint8Array). */
  readonly body: Record<string, unknown>;
  /** The body as it arrived (compressed when it was). */
  readonly raw: Buffer;
  readonly headers: IncomingMessage["headers"];
  /** The status the stand-in answered (once it has). */
  status?: number;
}

export interface Standin {
  readonly url: string;
  readonly requests: readonly StandinRequest[];
  /** The trained model behind a model id (tests compare its weights). */
  model(modelId: string): TinyModel;
  weightsDigest(modelId: string): string;
  /** Training requests of a model in the order they ran: [seq_id, path]. */
  ran(modelId: string): readonly (readonly [number, string])[];
  close(): Promise<void>;
}

class Conflict extends Error {}

type Result =
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "forward_backward"; readonly value: JsonForwardBackwardOutput }
  | { readonly kind: "sample"; readonly value: JsonSampleOutput };
type FutureState =
  | { status: "pending"; readonly done: Promise<void> }
  | { status: "done"; readonly result: Result }
  | { status: "failed"; readonly message: string };

interface TrainedModel {
  readonly model: TinyModel;
  next: number;
  readonly finished: Set<number>;
  readonly waiters: Map<number, () => void>;
  readonly seqIds: Map<number, { readonly requestId: string; readonly key: string }>;
  readonly ran: [number, string][];
  requests: number;
}

interface SavedState {
  readonly weights: Float32Array;
  readonly m: Float32Array;
  readonly v: Float32Array;
  readonly step: number;
}

const digest = (model: TinyModel): string =>
  createHash("sha256")
    .update(new Uint8Array(model.parameters().buffer, model.parameters().byteOffset, model.parameters().byteLength))
    .digest("hex");

/** A training request's turn: it runs when every smaller seq_id of its model has run (or was refused). */
function turn(entry: TrainedModel, seqId: number): Promise<void> {
  return entry.next === seqId ? Promise.resolve() : new Promise((resolve) => entry.waiters.set(seqId, resolve));
}

function finish(entry: TrainedModel, seqId: number): void {
  entry.finished.add(seqId);
  while (entry.finished.delete(entry.next)) {
    entry.next++;
    entry.waiters.get(entry.next)?.();
    entry.waiters.delete(entry.next);
  }
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
  const sampleSeqIds = new Map<string, { readonly requestId: string; readonly key: string }>();
  const states = new Map<string, SavedState>();
  const transient = new Map<string, string[]>();
  const auth = createAuth({
    jwt: options.clientConfig?.pjwt_auth_enabled === true,
    ttlSeconds: options.jwtTtlSeconds ?? 900,
    now: options.now ?? Date.now,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  });
  let ids = 0;
  const id = (prefix: string): string => `${prefix}_${++ids}`;

  const base = (name: string): Promise<TinyModel> => {
    const spec = options.baseModels[name];
    if (spec === undefined) throw new RequestFailure(`unknown base model ${name}`);
    let model = bases.get(name);
    if (model === undefined) {
      model = (async () => {
        if (spec.init === undefined)
          return createModel({ ...(spec.config === undefined ? {} : { config: spec.config }), seed: spec.seed ?? 0 });
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

  const future = (work: () => Promise<Result>): string => {
    const requestId = id("request");
    const done = work().then(
      (result) => void futures.set(requestId, { status: "done", result }),
      (error: unknown) =>
        void futures.set(requestId, {
          status: "failed",
          message: error instanceof Error ? error.message : String(error),
        }),
    );
    futures.set(requestId, { status: "pending", done });
    return requestId;
  };
  const json = async (value: unknown): Promise<Result> => ({ kind: "json", value });

  const trainedModel = (modelId: unknown): TrainedModel => {
    const found = typeof modelId === "string" ? models.get(modelId) : undefined;
    if (found === undefined) throw new RequestFailure(`model ${String(modelId)} not found`);
    return found;
  };

  /** A training request: `check` refuses it at once (its seq_id's turn then passes), `work` runs in seq_id order. */
  const training = (
    modelId: unknown,
    seqId: number | null | undefined,
    key: string,
    path: string,
    check: () => () => Promise<Result>,
  ): { request_id: string } => {
    const entry = trainedModel(modelId);
    if (typeof seqId !== "number")
      throw new RequestFailure("seq_id is required: a model's requests run in seq_id order");
    const seen = entry.seqIds.get(seqId);
    if (seen !== undefined) {
      if (seen.key !== key) throw new Conflict("Training request sequence number was reused");
      return { request_id: seen.requestId };
    }
    if (seqId < entry.next || entry.finished.has(seqId))
      throw new RequestFailure(`seq_id ${seqId} of ${String(modelId)} has passed`);
    let work: () => Promise<Result>;
    try {
      work = check();
    } catch (error) {
      finish(entry, seqId);
      throw error;
    }
    entry.requests++;
    const requestId = future(async () => {
      await turn(entry, seqId);
      try {
        entry.ran.push([seqId, path]);
        return await work();
      } finally {
        finish(entry, seqId);
      }
    });
    entry.seqIds.set(seqId, { requestId, key });
    return { request_id: requestId };
  };

  const addSampler = (sampler: Sampler): string => {
    const samplerId = id("sampling");
    samplers.set(samplerId, sampler);
    return samplerId;
  };

  const dropSampler = (samplerId: string): void => {
    const sampler = samplers.get(samplerId);
    if (sampler === undefined || [...samplerPaths.values()].includes(sampler)) return;
    samplers.delete(samplerId);
    sampler.close();
  };

  type Handler = (body: Record<string, unknown>, key: string) => Promise<unknown> | unknown;
  const body = <E extends JsonEndpoint>(_endpoint: E, value: Record<string, unknown>): RequestBody<E> =>
    value as RequestBody<E>;
  const handlers: Record<string, Handler> = {
    "/api/v1/client/config": () => ({ ...options.clientConfig }),
    "/api/v1/auth/token": () => ({ jwt: auth.issue() }),
    "/api/v1/create_session": () => {
      const sessionId = id("session");
      sessions.add(sessionId);
      return { type: "create_session", session_id: sessionId, ...options.sessionMessages };
    },
    "/api/v1/session_heartbeat": (raw) => {
      if (!sessions.has(body("/api/v1/session_heartbeat", raw).session_id))
        throw new RequestFailure("session not found");
      return { type: "session_heartbeat" };
    },
    "/api/v1/create_model": (raw) => {
      const request = body("/api/v1/create_model", raw);
      if (!sessions.has(request.session_id)) throw new RequestFailure("session not found");
      if (request.lora_config === undefined || request.lora_config === null)
        throw new RequestFailure("the stand-in trains LoRA models: lora_config is required");
      return {
        request_id: future(async () => {
          const model = await (await base(request.base_model)).clone();
          const modelId = id("model");
          models.set(modelId, {
            model,
            next: 1,
            finished: new Set(),
            waiters: new Map(),
            seqIds: new Map(),
            ran: [],
            requests: 0,
          });
          return { kind: "json", value: { type: "create_model", model_id: modelId } };
        }),
      };
    },
    "/api/v1/forward_backward": (request, key) =>
      training(request.model_id, request.seq_id as number | undefined, key, "forward_backward", () => {
        const entry = trainedModel(request.model_id);
        const lossFn = String(request.loss_fn);
        if (!LOSSES.includes(lossFn)) throw new RequestFailure(`loss_fn ${lossFn} is not supported by the stand-in`);
        const rows = readRows(request.data, lossFn);
        const config = (request.loss_fn_config ?? {}) as Record<string, number>;
        return async () => ({
          kind: "forward_backward",
          value: await runLoss(entry.model, rows, lossFn, config, request.forward_only !== true),
        });
      }),
    "/api/v1/optim_step": (raw, key) => {
      const request = body("/api/v1/optim_step", raw);
      return training(request.model_id, request.seq_id, key, "optim_step", () => {
        const entry = trainedModel(request.model_id);
        const own = entry.model.optimizerConfig;
        const expected = {
          beta1: own.beta1,
          beta2: own.beta2,
          eps: own.eps,
          weight_decay: own.weightDecay,
          grad_clip_norm: own.clipNorm,
        };
        return async () => {
          for (const [name, value] of Object.entries(expected)) {
            const given = request.adam_params[name as keyof typeof expected];
            if (given !== value)
              throw new RequestFailure(
                `adam_params.${name} = ${given}: the stand-in applies its model's AdamW (${name} = ${value})`,
              );
          }
          return {
            kind: "json",
            value: {
              type: "optim_step",
              metrics: {
                grad_norm: entry.model.step({ learningRate: request.adam_params.learning_rate ?? 1e-4 }).gradNorm,
              },
            },
          };
        };
      });
    },
    "/api/v1/save_weights": (raw, key) => {
      const request = body("/api/v1/save_weights", raw);
      return training(request.model_id, request.seq_id, key, "save_weights", () => async () => {
        const entry = trainedModel(request.model_id);
        const path = `tinker://${request.model_id}/weights/${String(request.path)}`;
        const state = entry.model.optimizerState();
        states.set(path, {
          weights: entry.model.parameters().slice(),
          m: state.m.slice(),
          v: state.v.slice(),
          step: state.step,
        });
        return { kind: "json", value: { type: "save_weights", path } };
      });
    },
    "/api/v1/load_weights": (raw, key) => {
      const request = body("/api/v1/load_weights", raw);
      return training(request.model_id, request.seq_id, key, "load_weights", () => {
        const entry = trainedModel(request.model_id);
        if (entry.requests > 0 || request.seq_id !== 1)
          throw new RequestFailure(`LoadWeights is not permitted with seq_id ${String(request.seq_id)}`);
        const saved = states.get(request.path);
        if (saved === undefined) throw new RequestFailure(`checkpoint not found: ${request.path}`);
        return async () => {
          entry.model.parameters().set(saved.weights);
          entry.model.weightsChanged();
          const state = entry.model.optimizerState();
          state.m.set(saved.m);
          state.v.set(saved.v);
          state.step = saved.step;
          return { kind: "json", value: { type: "load_weights" } };
        };
      });
    },
    "/api/v1/save_weights_for_sampler": (raw, key) => {
      const request = body("/api/v1/save_weights_for_sampler", raw);
      return training(request.model_id, request.seq_id, key, "save_weights_for_sampler", () => async () => {
        const entry = trainedModel(request.model_id);
        const sampler = createSampler(await entry.model.clone(), true, options.cacheSessions ?? 512);
        const samplerId = addSampler(sampler);
        if (typeof request.path === "string") {
          const path = `tinker://${request.model_id}/sampler_weights/${request.path}`;
          samplerPaths.set(path, sampler);
          return { kind: "json", value: { type: "save_weights_for_sampler", path } };
        }
        // Transient samplers: the newest two of a model are kept.
        const kept = [...(transient.get(request.model_id) ?? []), samplerId];
        while (kept.length > 2) dropSampler(kept.shift() as string);
        transient.set(request.model_id, kept);
        return { kind: "json", value: { type: "save_weights_for_sampler", sampling_session_id: samplerId } };
      });
    },
    "/api/v1/create_sampling_session": async (raw) => {
      const request = body("/api/v1/create_sampling_session", raw);
      if (!sessions.has(request.session_id)) throw new RequestFailure("session not found");
      if (typeof request.base_model === "string")
        return {
          type: "create_sampling_session",
          sampling_session_id: addSampler(
            createSampler(await base(request.base_model), false, options.cacheSessions ?? 512),
          ),
        };
      const sampler = samplerPaths.get(String(request.model_path));
      if (sampler === undefined) throw new RequestFailure(`sampler weights not found: ${String(request.model_path)}`);
      return { type: "create_sampling_session", sampling_session_id: addSampler(sampler) };
    },
    "/api/v1/asample": (raw, key) => {
      const request = body("/api/v1/asample", raw);
      const sampler = samplers.get(String(request.sampling_session_id));
      if (sampler === undefined)
        throw new RequestFailure(`sampling session ${String(request.sampling_session_id)} not found`);
      if (typeof request.seq_id !== "number")
        throw new RequestFailure("'seq_id' must be provided when 'sampling_session_id' is used");
      const seen = sampleSeqIds.get(`${request.sampling_session_id}:${request.seq_id}`);
      if (seen !== undefined) {
        if (seen.key !== key) throw new Conflict("Sampling request sequence number was reused");
        return { request_id: seen.requestId };
      }
      const params = request.sampling_params;
      if (typeof params.max_tokens !== "number" || params.max_tokens < 1)
        throw new RequestFailure("max_tokens is currently required");
      if (params.top_k !== undefined && params.top_k !== -1)
        throw new RequestFailure("the stand-in samples without top_k");
      if (
        params.stop !== undefined &&
        params.stop !== null &&
        !(Array.isArray(params.stop) && params.stop.every((token) => typeof token === "number"))
      )
        throw new RequestFailure("the stand-in stops on token ids only");
      const prompt = request.prompt.chunks.flatMap((chunk) => chunk.tokens);
      const job = {
        maxTokens: params.max_tokens,
        seeds: sampleSeeds(params.seed ?? 0, request.num_samples ?? 1),
        stop: (params.stop ?? []) as number[],
        temperature: params.temperature ?? 1,
        topP: params.top_p ?? 1,
        promptLogprobs: request.prompt_logprobs === true,
      };
      const requestId = future(async () => ({ kind: "sample", value: await sampler.sample(prompt, job) }));
      sampleSeqIds.set(`${request.sampling_session_id}:${request.seq_id}`, { requestId, key });
      return { request_id: requestId };
    },
    "/api/v1/unload_model": (raw) => {
      const request = body("/api/v1/unload_model", raw);
      trainedModel(request.model_id);
      return { request_id: future(() => json({ type: "unload_model", model_id: request.model_id })) };
    },
  };

  const retrieve = async (raw: Record<string, unknown>, accept: string, response: ServerResponse): Promise<void> => {
    const request = body("/api/v1/retrieve_future", raw);
    const state = futures.get(request.request_id);
    if (state === undefined) return send(response, 404, { detail: "Future not found" });
    if (state.status === "pending") {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        state.done,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, options.holdMs ?? 2000))),
      ]);
      clearTimeout(timer);
    }
    const current = futures.get(request.request_id) as FutureState;
    if (current.status === "pending")
      return options.pending === "408"
        ? send(response, 408, { detail: "Timeout waiting for result" })
        : send(response, 200, { type: "try_again", request_id: request.request_id, queue_state: "active" });
    if (current.status === "failed")
      return options.failure === "400"
        ? send(response, 400, { detail: current.message })
        : send(response, 200, { error: current.message, category: "user" });
    const result =
      current.result.kind === "forward_backward" && options.stripLogprobs === true
        ? {
            kind: "forward_backward" as const,
            value: { ...current.result.value, loss_fn_outputs: current.result.value.loss_fn_outputs.map(() => ({})) },
          }
        : current.result;
    if (result.kind !== "json" && accept.includes(PROTOBUF)) {
      const bytes =
        result.kind === "sample" ? encodeSampleResponse(result.value) : encodeForwardBackwardOutput(result.value);
      response.writeHead(200, { "content-type": PROTOBUF });
      return void response.end(Buffer.from(bytes));
    }
    return send(response, 200, result.kind === "sample" ? { type: "sample", ...result.value } : result.value);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = (request.url ?? "").split("?")[0] as string;
      const raw = Buffer.concat(chunks);
      const read = readRequestBody(path, request, raw);
      const record: StandinRequest = { path, body: read.ok ? read.body : {}, raw, headers: request.headers };
      requests.push(record);
      response.on("finish", () => (record.status = response.statusCode));
      const index = perPath.get(path) ?? 0;
      perPath.set(path, index + 1);
      const fault = options.fault?.(path, index);
      if (fault === "drop") return void response.socket?.destroy();
      if (fault !== undefined && fault.body === "") {
        response.writeHead(fault.status, { "content-length": "0", ...fault.headers });
        return void response.end();
      }
      if (fault !== undefined)
        return send(response, fault.status, fault.body ?? { detail: "injected fault" }, fault.headers);
      const credential = request.headers["x-api-key"];
      const denied = auth.check(path, typeof credential === "string" ? credential : undefined);
      if (denied !== undefined) return send(response, 401, { detail: denied });
      const method = request.method ?? "GET";
      const known =
        (method === "POST" && (path in handlers || path === "/api/v1/retrieve_future")) ||
        (method === "GET" && path === "/api/v1/get_server_capabilities");
      if (!known) return send(response, 404, { detail: `${method} ${path} is not an endpoint of the stand-in` });
      if (!read.ok) return send(response, read.status, { detail: read.detail });
      void answer(path, method, read.body, createHash("sha256").update(raw).digest("hex"), request, response);
    });
  });

  const answer = async (
    path: string,
    method: string,
    read: Record<string, unknown>,
    key: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> => {
    try {
      if (method === "GET") {
        const supported = await Promise.all(
          Object.keys(options.baseModels).map(async (name) => ({
            model_name: name,
            max_context_length: (await base(name)).config.contextLength,
          })),
        );
        return send(response, 200, { supported_models: supported });
      }
      if (path === "/api/v1/retrieve_future") return await retrieve(read, request.headers.accept ?? "", response);
      send(response, 200, await (handlers[path] as Handler)(read, key));
    } catch (error) {
      send(
        response,
        error instanceof Conflict ? 409 : error instanceof RequestFailure || error instanceof ProtoError ? 400 : 500,
        { detail: error instanceof Error ? error.message : String(error) },
      );
    }
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    model: (modelId) => trainedModel(modelId).model,
    weightsDigest: (modelId) => digest(trainedModel(modelId).model),
    ran: (modelId) => trainedModel(modelId).ran,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Requests still waiting for an earlier seq_id that never came run now, so that every future settles.
      for (const entry of models.values()) for (const release of entry.waiters.values()) release();
      await Promise.all([...futures.values()].map((state) => (state.status === "pending" ? state.done : undefined)));
      for (const samplerId of [...samplers.keys()]) dropSampler(samplerId);
      for (const sampler of new Set(samplerPaths.values())) sampler.close();
      for (const entry of models.values()) entry.model.dispose();
      for (const model of bases.values()) (await model).dispose();
    },
  };
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
