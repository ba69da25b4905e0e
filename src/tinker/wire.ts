// The Tinker HTTP API on the wire: the JSON request bodies we send and the JSON responses we accept (checked
// with zod, so that a server that answers something else fails with a message naming the field); the protobuf
// bodies are in proto.ts.
//
// Written from the public API, no code copied. Shapes follow:
// - the Tinker Python SDK (github.com/thinking-machines-lab/tinker) 0.25.0, commit d595dc2ba62a: request and
//   response types in src/tinker/types/, endpoints in resources/, the client config, JWT exchange, session and
//   retry rules in lib/internal_client_holder.py, lib/_jwt_auth.py and lib/api_future_impl.py, the protobuf
//   messages in proto/ (see proto.ts);
// - SkyRL's Tinker-compatible server (github.com/NovaSky-AI/SkyRL, skyrl/tinker/api.py and
//   proto_serialization.py, commit a9564572eb8e), which reads forward_backward as protobuf (zstd too) or JSON,
//   answers protobuf results to an Accept: application/x-protobuf, answers retrieve_future with 408 while a
//   request is pending and 400 {"detail"} when it failed (hosted Tinker: {"type": "try_again"} and
//   {"error", "category"} bodies; both are handled), and stubs client/config.
//
//   POST /api/v1/client/config             {sdk_version}                                  -> flags (clientConfigSchema)
//   POST /api/v1/auth/token                {}  (X-API-Key: the API key)                    -> {jwt}  (when pjwt_auth_enabled)
//   POST /api/v1/create_session            {tags, user_metadata, sdk_version, type}       -> {session_id, info/warning/error_message?}
//   POST /api/v1/session_heartbeat         {session_id, type}                             -> {}
//   GET  /api/v1/get_server_capabilities                                                  -> {supported_models: [{model_name, max_context_length?}]}
//   POST /api/v1/create_model              {session_id, model_seq_id, base_model, lora_config: {rank, seed}, type} -> future {model_id}
//   POST /api/v1/forward_backward          protobuf ForwardBackwardRequest {model_id, seq_id, data, loss_fn,
//                                          loss_fn_config, forward_only} (zstd when the config says) -> future ForwardBackwardOutput
//   POST /api/v1/optim_step                {model_id, seq_id, adam_params, type}          -> future {metrics?}
//   POST /api/v1/save_weights              {model_id, path, seq_id, type}                 -> future {path}  (state + optimiser)
//   POST /api/v1/load_weights              {model_id, path, optimizer, seq_id, type}      -> future {}      (a model's first request)
//   POST /api/v1/save_weights_for_sampler  {model_id, seq_id, path | sampling_session_seq_id, type} -> future {path | sampling_session_id}
//   POST /api/v1/create_sampling_session   {session_id, sampling_session_seq_id, base_model | model_path, type} -> {sampling_session_id}
//   POST /api/v1/asample                   {sampling_session_id, seq_id, prompt, sampling_params, num_samples,
//                                          prompt_logprobs, type}                         -> future SampleOutput
//   POST /api/v1/retrieve_future           {request_id, allow_metadata_only: false}        -> the result | try_again | error
//   POST /api/v1/unload_model              {model_id, type}                               -> future
// There is no /api/v1/forward in SDK 0.25: a forward pass is forward_backward with forward_only. A model runs
// its training requests in seq_id order (1, 2, ...). A future is {request_id} (SkyRL adds future_id and
// status); ForwardBackwardOutput and SampleOutput come back as protobuf when asked for (proto.ts), anything
// else as JSON. Datum: {model_input: {chunks: [{type: "encoded_text", tokens}]}, loss_fn_inputs: {name: {data,
// dtype, shape}}}, one value per input position: target_tokens (int64) and weights (cross_entropy: loss =
// -sum_t weights_t log p_t) or logprobs + advantages (importance_sampling: -sum_t exp(logp_t - logprobs_t) A_t;
// ppo: -sum_t min(r_t A_t, clip(r_t, low, high) A_t) with loss_fn_config {clip_low_threshold,
// clip_high_threshold} as ratio bounds, default 0.8 / 1.2). Losses are sums over tokens, not means. Auth: header
// X-API-Key, the API key or, after the JWT exchange, the JWT.
import { z } from "zod";
import { BudgetrlError } from "../core/errors.js";

export const TINKER_LOSSES = ["cross_entropy", "importance_sampling", "ppo"] as const;
export type TinkerLoss = (typeof TINKER_LOSSES)[number];

export interface TensorData {
  readonly data: readonly number[];
  readonly dtype: "int64" | "float32";
  readonly shape: readonly number[];
}

export interface ModelInput {
  readonly chunks: readonly { readonly type: "encoded_text"; readonly tokens: readonly number[] }[];
}

export interface Datum {
  readonly model_input: ModelInput;
  readonly loss_fn_inputs: Readonly<Record<string, TensorData>>;
}

export interface LossRequest {
  readonly data: readonly Datum[];
  readonly loss_fn: TinkerLoss;
  readonly loss_fn_config?: Readonly<Record<string, number>>;
}

export interface AdamParams {
  readonly learning_rate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weight_decay: number;
  readonly grad_clip_norm: number;
}

export interface SamplingParams {
  readonly max_tokens: number;
  readonly seed: number;
  readonly stop: readonly number[];
  readonly temperature: number;
  readonly top_k: number;
  readonly top_p: number;
}

export function modelInput(tokens: readonly number[]): ModelInput {
  return { chunks: [{ type: "encoded_text", tokens }] };
}

export function tensor(values: ArrayLike<number>, dtype: TensorData["dtype"]): TensorData {
  return { data: Array.from(values), dtype, shape: [values.length] };
}

// ---- responses ----

export const futureSchema = z.object({ request_id: z.union([z.string(), z.number()]).transform(String) });

export const sessionSchema = z.object({
  session_id: z.string(),
  info_message: z.string().nullish(),
  warning_message: z.string().nullish(),
  error_message: z.string().nullish(),
});

/** The server's flags for this client (SDK defaults for the ones it leaves out; unknown ones are ignored). */
export const clientConfigSchema = z.object({
  pjwt_auth_enabled: z.boolean().default(false),
  credential_default_source: z.string().default("api_key"),
  proto_compress_fwdbwd: z.boolean().default(false),
  billing_exception_max_pause_duration_sec: z.number().min(0).default(3600),
});
export type ClientConfig = z.output<typeof clientConfigSchema>;
/** The SDK's defaults of the server's flags, until the server has said its own. */
export const CLIENT_CONFIG_DEFAULTS: ClientConfig = clientConfigSchema.parse({});

export const authTokenSchema = z.object({ jwt: z.string().min(1) });

export const capabilitiesSchema = z.object({
  supported_models: z.array(
    z.object({ model_name: z.string().nullish(), max_context_length: z.number().int().nullish() }),
  ),
});

export const createModelSchema = z.object({ model_id: z.string() });

const tensorSchema = z.object({
  data: z.array(z.number()),
  dtype: z.string().optional(),
  shape: z.array(z.number()).nullish(),
});

export const forwardBackwardSchema = z.object({
  loss_fn_outputs: z.array(z.record(z.string(), tensorSchema)),
  metrics: z.record(z.string(), z.number()).nullish(),
});
export type ForwardBackwardOutput = z.output<typeof forwardBackwardSchema>;

export const optimStepSchema = z.object({ metrics: z.record(z.string(), z.number()).nullish() });

export const savedPathSchema = z.object({ path: z.string() });

export const samplerSessionSchema = z.object({ sampling_session_id: z.string() });

export const sampleSchema = z.object({
  sequences: z.array(
    z.object({ tokens: z.array(z.number().int()), logprobs: z.array(z.number()).nullish(), stop_reason: z.string() }),
  ),
  prompt_logprobs: z.array(z.number().nullable()).nullish(),
});
export type SampleOutput = z.output<typeof sampleSchema>;

/** What retrieve_future said about a future. */
export type FutureState =
  | { readonly kind: "pending" }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "done"; readonly value: unknown };

/** Reads a 200 body of retrieve_future: try_again, an error record, or the result. */
export function futureState(body: unknown): FutureState {
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (record.type === "try_again") return { kind: "pending" };
    if (typeof record.error === "string")
      return {
        kind: "failed",
        message: `${record.error}${typeof record.category === "string" ? ` (${record.category} error)` : ""}`,
      };
  }
  return { kind: "done", value: body };
}

/** A response body checked against its schema; a mismatch names the endpoint and the field. */
export function readBody<S extends z.ZodType>(schema: S, body: unknown, endpoint: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "the body" : issue.path.join(".");
  throw new TinkerProtocolError(
    `${endpoint} answered something else than the Tinker API describes: ${where}: ${issue?.message ?? "invalid"}`,
  );
}

/** A server answer that does not fit the API (not retried). */
export class TinkerProtocolError extends BudgetrlError {
  constructor(message: string) {
    super("tinker:protocol", message);
    this.name = "TinkerProtocolError";
  }
}
