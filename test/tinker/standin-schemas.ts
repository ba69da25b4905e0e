// The JSON request bodies the stand-in server accepts, from the Tinker SDK 0.25.0's request types (commit
// d595dc2ba62a, src/tinker/types/*_request.py and the types they hold). The SDK's request types are
// StrictBase (pydantic extra="forbid"), so an unknown field is refused, as the schemas here do (strict
// objects); the SDK sends every field that is not None (model_dump exclude_none), defaults included, which the
// optional fields below allow. Responses are the stand-in's own business (handlers in standin-server.ts).
import { z } from "zod";

const int = z.number().int();
const literal = <T extends string>(type: T) => z.literal(type).optional();

const encodedText = z.strictObject({ tokens: z.array(int), type: literal("encoded_text") });
export const modelInputSchema = z.strictObject({ chunks: z.array(encodedText) });

const loraConfig = z.strictObject({
  rank: int.min(1),
  seed: int.nullish(),
  train_unembed: z.boolean().optional(),
  train_mlp: z.boolean().optional(),
  train_attn: z.boolean().optional(),
});
const adamParams = z.strictObject({
  learning_rate: z.number().optional(),
  beta1: z.number().optional(),
  beta2: z.number().optional(),
  eps: z.number().optional(),
  weight_decay: z.number().optional(),
  grad_clip_norm: z.number().optional(),
});
const samplingParams = z.strictObject({
  max_tokens: int.nullish(),
  seed: int.nullish(),
  stop: z.union([z.string(), z.array(z.string()), z.array(int)]).nullish(),
  temperature: z.number().optional(),
  top_k: int.optional(),
  top_p: z.number().optional(),
});

/** Each JSON endpoint's body schema. */
export const REQUEST_SCHEMAS = {
  "/api/v1/client/config": z.strictObject({ sdk_version: z.string() }),
  "/api/v1/auth/token": z.strictObject({}),
  "/api/v1/create_session": z.strictObject({
    tags: z.array(z.string()),
    user_metadata: z.record(z.string(), z.unknown()).nullable(),
    sdk_version: z.string(),
    project_id: z.string().nullish(),
    type: literal("create_session"),
  }),
  "/api/v1/session_heartbeat": z.strictObject({ session_id: z.string(), type: literal("session_heartbeat") }),
  "/api/v1/create_model": z.strictObject({
    session_id: z.string(),
    model_seq_id: int,
    base_model: z.string(),
    user_metadata: z.record(z.string(), z.unknown()).nullish(),
    lora_config: loraConfig.nullish(),
    type: literal("create_model"),
  }),
  "/api/v1/optim_step": z.strictObject({
    adam_params: adamParams,
    model_id: z.string(),
    seq_id: int.nullish(),
    type: literal("optim_step"),
  }),
  "/api/v1/save_weights": z.strictObject({
    model_id: z.string(),
    path: z.string().nullish(),
    seq_id: int.nullish(),
    ttl_seconds: int.nullish(),
    overwrite: z.boolean().optional(),
    type: literal("save_weights"),
  }),
  "/api/v1/load_weights": z.strictObject({
    model_id: z.string().nullish(),
    seq_id: int.nullish(),
    session_id: z.string().nullish(),
    model_seq_id: int.nullish(),
    base_model: z.string().nullish(),
    user_metadata: z.record(z.string(), z.unknown()).nullish(),
    path: z.string(),
    optimizer: z.boolean(),
    weights_access_token: z.string().nullish(),
    type: literal("load_weights"),
  }),
  "/api/v1/save_weights_for_sampler": z.strictObject({
    model_id: z.string(),
    path: z.string().nullish(),
    sampling_session_seq_id: int.nullish(),
    seq_id: int.nullish(),
    ttl_seconds: int.nullish(),
    type: literal("save_weights_for_sampler"),
  }),
  "/api/v1/create_sampling_session": z.strictObject({
    session_id: z.string(),
    sampling_session_seq_id: int,
    base_model: z.string().nullish(),
    model_path: z.string().nullish(),
    type: literal("create_sampling_session"),
  }),
  "/api/v1/asample": z.strictObject({
    num_samples: int.min(1).optional(),
    prompt: modelInputSchema,
    sampling_params: samplingParams,
    base_model: z.string().nullish(),
    model_path: z.string().nullish(),
    sampling_session_id: z.string().nullish(),
    seq_id: int.nullish(),
    prompt_logprobs: z.boolean().nullish(),
    topk_prompt_logprobs: int.min(0).optional(),
    type: literal("sample"),
  }),
  "/api/v1/retrieve_future": z.strictObject({ request_id: z.string(), allow_metadata_only: z.boolean().optional() }),
  "/api/v1/unload_model": z.strictObject({ model_id: z.string(), type: literal("unload_model") }),
} as const;

export type JsonEndpoint = keyof typeof REQUEST_SCHEMAS;
export type RequestBody<E extends JsonEndpoint> = z.output<(typeof REQUEST_SCHEMAS)[E]>;

/** A refusal in FastAPI's shape: {"detail": [{type, loc, msg}]} (422). */
export function validationDetail(error: z.ZodError): { type: string; loc: (string | number)[]; msg: string }[] {
  return error.issues.map((issue) => {
    const unknown = issue.code === "unrecognized_keys";
    return {
      type: unknown ? "extra_forbidden" : issue.code,
      loc: [
        "body",
        ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
        ...(unknown ? issue.keys : []),
      ],
      msg: unknown ? "Extra inputs are not permitted" : issue.message,
    };
  });
}
