// The Tinker endpoints budgetrl uses, one function each: the body it sends (JSON, or protobuf for
// forward_backward; wire.ts gives the shapes and their upstream source; each JSON body is the one the SDK 0.25.0
// dumps from its request type, defaults included: test/tinker/operations.test.ts compares them) and the checked
// result (JSON, or the protobuf results of forward_backward and asample, proto.ts). Training requests carry the
// model's seq_id (1, 2, ... in the order they are sent), so that the server runs them in order and a request resent
// after a fault is recognised, not applied twice.
import type { TinkerClient } from "./client.js";
import { PROTOCOL_SDK_VERSION } from "./version.js";
import { decodeForwardBackwardOutput, decodeSampleResponse, encodeForwardBackwardRequest } from "./proto.js";
import {
  capabilitiesSchema,
  createModelSchema,
  forwardBackwardSchema,
  optimStepSchema,
  readBody,
  sampleSchema,
  samplerSessionSchema,
  savedPathSchema,
  sessionSchema,
  type AdamParams,
  type ForwardBackwardOutput,
  type LossRequest,
  type ModelInput,
  type SampleOutput,
  type SamplingParams,
} from "./wire.js";

/** A new session, with the SDK version whose protocol budgetrl speaks as sdk_version (version.ts: a server may read
 * it as a version; who calls is in the User-Agent); the server's info, warning and error messages about it are shown through the client. */
export async function createSession(client: TinkerClient, tags: readonly string[]): Promise<string> {
  const body = readBody(
    sessionSchema,
    await client.post("/api/v1/create_session", {
      tags,
      user_metadata: {},
      sdk_version: PROTOCOL_SDK_VERSION,
      type: "create_session",
    }),
    "create_session",
  );
  for (const level of ["info", "warning", "error"] as const) {
    const message = body[`${level}_message`];
    if (typeof message === "string" && message !== "") client.notice({ level, message: `tinker server: ${message}` });
  }
  return body.session_id;
}

export async function heartbeat(client: TinkerClient, sessionId: string): Promise<void> {
  await client.post("/api/v1/session_heartbeat", { session_id: sessionId, type: "session_heartbeat" });
}

export interface ServerModel {
  readonly name: string;
  readonly maxContextLength: number | undefined;
}

export async function serverModels(client: TinkerClient): Promise<ServerModel[]> {
  const body = readBody(
    capabilitiesSchema,
    await client.get("/api/v1/get_server_capabilities"),
    "get_server_capabilities",
  );
  return body.supported_models.flatMap((model) =>
    typeof model.model_name === "string"
      ? [{ name: model.model_name, maxContextLength: model.max_context_length ?? undefined }]
      : [],
  );
}

export interface CreateModelRequest {
  readonly sessionId: string;
  readonly modelSeqId: number;
  readonly baseModel: string;
  readonly loraRank: number;
  /** Seed of the LoRA initialisation. */
  readonly seed: number;
}

export async function createModel(client: TinkerClient, request: CreateModelRequest): Promise<string> {
  const body = await client.submit("/api/v1/create_model", {
    session_id: request.sessionId,
    model_seq_id: request.modelSeqId,
    base_model: request.baseModel,
    // The SDK sends LoraConfig whole, its defaults included (train_unembed, train_mlp, train_attn: true).
    lora_config: { rank: request.loraRank, seed: request.seed, train_unembed: true, train_mlp: true, train_attn: true },
    type: "create_model",
  });
  return readBody(createModelSchema, body, "create_model").model_id;
}

/** forward_backward as the SDK 0.25 sends it: a protobuf body; `forwardOnly` runs the loss without a backward
 * pass (what /api/v1/forward did before SDK 0.25). */
export async function forwardBackward(
  client: TinkerClient,
  modelId: string,
  seqId: number,
  input: LossRequest,
  forwardOnly = false,
): Promise<ForwardBackwardOutput> {
  const body = await client.submit(
    "/api/v1/forward_backward",
    encodeForwardBackwardRequest(modelId, seqId, input, forwardOnly),
    { result: "protobuf" },
  );
  return body instanceof Uint8Array
    ? decodeForwardBackwardOutput(body)
    : readBody(forwardBackwardSchema, body, "forward_backward");
}

export async function optimStep(
  client: TinkerClient,
  modelId: string,
  seqId: number,
  adam: AdamParams,
): Promise<Readonly<Record<string, number>>> {
  const body = readBody(
    optimStepSchema,
    await client.submit("/api/v1/optim_step", {
      model_id: modelId,
      seq_id: seqId,
      adam_params: adam,
      type: "optim_step",
    }),
    "optim_step",
  );
  return body.metrics ?? {};
}

/** Weights and optimiser state under `name`; resolves with their tinker:// path. */
export async function saveWeights(client: TinkerClient, modelId: string, seqId: number, name: string): Promise<string> {
  return readBody(
    savedPathSchema,
    await client.submit("/api/v1/save_weights", {
      model_id: modelId,
      path: name,
      seq_id: seqId,
      overwrite: false,
      type: "save_weights",
    }),
    "save_weights",
  ).path;
}

/** Loads weights and optimiser state into a fresh model (it must be the model's first request). */
export async function loadWeights(client: TinkerClient, modelId: string, seqId: number, path: string): Promise<void> {
  await client.submit("/api/v1/load_weights", {
    model_id: modelId,
    path,
    optimizer: true,
    seq_id: seqId,
    type: "load_weights",
  });
}

/** Sampler weights kept under `name`; resolves with their tinker:// path. */
export async function saveSamplerWeights(
  client: TinkerClient,
  modelId: string,
  seqId: number,
  name: string,
): Promise<string> {
  return readBody(
    savedPathSchema,
    await client.submit("/api/v1/save_weights_for_sampler", {
      model_id: modelId,
      path: name,
      seq_id: seqId,
      type: "save_weights_for_sampler",
    }),
    "save_weights_for_sampler",
  ).path;
}

/** The current weights as a new sampling session (transient sampler weights); resolves with its id. */
export async function samplerForCurrentWeights(
  client: TinkerClient,
  modelId: string,
  seqId: number,
  samplingSessionSeqId: number,
): Promise<string> {
  const body = await client.submit("/api/v1/save_weights_for_sampler", {
    model_id: modelId,
    seq_id: seqId,
    sampling_session_seq_id: samplingSessionSeqId,
    type: "save_weights_for_sampler",
  });
  return readBody(samplerSessionSchema, body, "save_weights_for_sampler").sampling_session_id;
}

/** A sampling session on a base model (or saved sampler weights). */
export async function createSamplingSession(
  client: TinkerClient,
  sessionId: string,
  samplingSessionSeqId: number,
  source: { readonly baseModel: string } | { readonly modelPath: string },
): Promise<string> {
  const body = await client.post("/api/v1/create_sampling_session", {
    session_id: sessionId,
    sampling_session_seq_id: samplingSessionSeqId,
    ...("baseModel" in source ? { base_model: source.baseModel } : { model_path: source.modelPath }),
    type: "create_sampling_session",
  });
  return readBody(samplerSessionSchema, body, "create_sampling_session").sampling_session_id;
}

export interface SampleRequest {
  readonly samplingSessionId: string;
  /** Unique per request within the sampling session. */
  readonly seqId: number;
  readonly prompt: ModelInput;
  readonly params: SamplingParams;
  /** Sequences sampled from the one prompt (the server prefills it once). Default 1. */
  readonly numSamples?: number;
  readonly promptLogprobs?: boolean;
}

/** Per prompt token, log p(token | tokens before it); null where the server computed none (the first token). */
export type PromptLogprobs = readonly (number | null)[];

export async function sample(client: TinkerClient, request: SampleRequest): Promise<SampleOutput> {
  const body = await client.submit(
    "/api/v1/asample",
    {
      sampling_session_id: request.samplingSessionId,
      seq_id: request.seqId,
      num_samples: request.numSamples ?? 1,
      prompt: request.prompt,
      sampling_params: request.params,
      prompt_logprobs: request.promptLogprobs === true,
      topk_prompt_logprobs: 0,
      type: "sample",
    },
    { result: "protobuf" },
  );
  return body instanceof Uint8Array ? decodeSampleResponse(body) : readBody(sampleSchema, body, "asample");
}

export async function unloadModel(client: TinkerClient, modelId: string): Promise<void> {
  await client.submit("/api/v1/unload_model", { model_id: modelId, type: "unload_model" });
}
