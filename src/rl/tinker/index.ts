// The Tinker trainer backend: a small client of the Tinker HTTP API (futures, faults), the endpoints budgetrl
// uses, training sequences as Tinker data, renderers (conversation <-> tokens, tools and template
// options included), the policy that samples through the server, and the backend itself.
export { openTinkerBackend, adamParams, type TinkerBackend, type TinkerBackendOptions } from "./backend.js";
export { readTinkerCheckpoint, TINKER_CHECKPOINT_FORMAT, type TinkerCheckpoint } from "./checkpoint.js";
export { createTinkerClient, PROTOCOL_SDK_VERSION, TinkerRequestError, type SubmitOptions, type TinkerClient, type TinkerClientOptions, type TinkerClientStats, type TinkerNotice } from "./client.js";
export { decodeForwardBackwardOutput, decodeSampleResponse, encodeForwardBackwardRequest, PROTOBUF_CONTENT_TYPE } from "./proto.js";
export { crossEntropyDatum, policyLossDatum, responseLogprobs, responsePositions } from "./datum.js";
export { BAD_REQUEST_RETRIES, billingPause, classifyStatus, classifyThrown, errorDetail, type BillingPause, type HttpVerdict } from "./faults.js";
export { jwtExpiryMs } from "./auth.js";
export * as tinkerApi from "./operations.js";
export { createTinkerPolicy, type SampledReply, type SampleReplies } from "./policy.js";
export { hfDirProblem, hfRendererDir, readHfFiles, type HfTokenizerFiles } from "./hf-files.js";
export { extendedPrompt, type TemplateText } from "./hf-extend.js";
export { DEFAULT_HF_RENDERER_OPTIONS, RESERVED_TEMPLATE_VARIABLES, resolveToolCallFormat, TOOL_CALL_OPTIONS, templateOptionsField, toolCallFormatField, type HfRendererOptions, type TemplateOptions, type ToolCallOption } from "./hf-options.js";
export { hfRenderer, type HfRendererSettings } from "./hf-renderer.js";
export { byteRenderer, openRenderer, RENDERER_NAMES, rendererNameProblem, type Renderer } from "./renderer.js";
export { futureState, modelInput, tensor, TINKER_LOSSES, TinkerProtocolError, type AdamParams, type ClientConfig, type Datum, type ForwardBackwardOutput, type LossRequest, type ModelInput, type SampleOutput, type SamplingParams, type TensorData, type TinkerLoss } from "./wire.js";
