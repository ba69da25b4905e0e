// The package entry "budgetrl/tinker": training on a Tinker service, the backend `train()` uses for `backend:
// "tinker"` (or a library caller's own loop), with what it is built from, named again here: the Tinker adapter
// (src/tinker/index.ts: the client of the HTTP API, the policy that samples through the service, checkpoints, wire
// types) and the renderers (src/policies/renderers/index.ts: budgetrl's bytes or a Hugging Face tokenizer and chat
// template). The entry lives here, with the backend, because the adapter does not import rl.
// Importing it registers the policy kind `tinker:` (the adapter's index does), so that evaluate({ policy:
// "tinker:..." }) works.
export { openTinkerBackend, type TinkerBackend, type TinkerBackendOptions } from "./backend.js";
export {
  createTinkerClient,
  createTinkerPolicy,
  PROTOCOL_SDK_VERSION,
  readTinkerCheckpoint,
  TINKER_CHECKPOINT_FORMAT,
  TINKER_LOSSES,
  TinkerProtocolError,
  TinkerRequestError,
  type AdamParams,
  type ClientConfig,
  type Datum,
  type ForwardBackwardOutput,
  type LossRequest,
  type ModelInput,
  type SampledReply,
  type SampleOutput,
  type SampleReplies,
  type SamplingParams,
  type SubmitOptions,
  type TensorData,
  type TinkerCheckpoint,
  type TinkerClient,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerLoss,
  type TinkerNotice,
} from "../../../tinker/index.js";
export {
  byteRenderer,
  DEFAULT_HF_RENDERER_OPTIONS,
  hfRenderer,
  openRenderer,
  readHfFiles,
  RENDERER_NAMES,
  TOOL_CALL_OPTIONS,
  type HfRendererOptions,
  type HfTokenizerFiles,
  type Renderer,
  type TemplateOptions,
  type ToolCallOption,
} from "../../../policies/renderers/index.js";
