// The Tinker trainer backend, the package entry "budgetrl/tinker": the backend `train()` uses for `backend:
// "tinker"` (or a library caller's own loop), the client of the Tinker HTTP API it talks through, the policy that
// samples through the server, its checkpoints, and the renderers (conversation <-> tokens: budgetrl's bytes or a
// Hugging Face tokenizer and chat template, tools and template options included), with the wire types they use.
// Left out: the endpoints, the protobuf and datum encodings, fault classification, JWTs and the template helpers.
// Importing it registers the policy kind `tinker:` (policy-kind.ts), so that evaluate({ policy: "tinker:..." }) works.
import "./policy-kind.js";
export { openTinkerBackend, type TinkerBackend, type TinkerBackendOptions } from "./backend.js";
export { readTinkerCheckpoint, TINKER_CHECKPOINT_FORMAT, type TinkerCheckpoint } from "./checkpoint.js";
export {
  createTinkerClient,
  PROTOCOL_SDK_VERSION,
  TinkerRequestError,
  type SubmitOptions,
  type TinkerClient,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerNotice,
} from "./client.js";
export { createTinkerPolicy, type SampledReply, type SampleReplies } from "./policy.js";
export { readHfFiles, type HfTokenizerFiles } from "./hf-files.js";
export {
  DEFAULT_HF_RENDERER_OPTIONS,
  TOOL_CALL_OPTIONS,
  type HfRendererOptions,
  type TemplateOptions,
  type ToolCallOption,
} from "./hf-options.js";
export { hfRenderer } from "./hf-renderer.js";
export { byteRenderer, openRenderer, type Renderer } from "./renderer.js";
export { RENDERER_NAMES } from "./renderer-names.js";
export {
  TINKER_LOSSES,
  TinkerProtocolError,
  type AdamParams,
  type ClientConfig,
  type Datum,
  type ForwardBackwardOutput,
  type LossRequest,
  type ModelInput,
  type SampleOutput,
  type SamplingParams,
  type TensorData,
  type TinkerLoss,
} from "./wire.js";
