// The in-process transformer, the package entry "budgetrl/nn": config, tokenizer, the model (forward/backward/
// AdamW/sampling), schedules, checkpoints (budgetrl's own and Hugging Face safetensors), and which WebAssembly
// kernel build runs. Kernels and passes are internal (tests and benchmarks import them from their files).
export { referenceConfig, resolveConfig, headDim, type ModelConfig } from "./config.js";
export {
  ASSISTANT,
  END,
  SYSTEM,
  USER,
  SPECIAL_TOKENS,
  TOKENIZER_VOCAB,
  decodeTokens,
  describeTokens,
  encodeText,
} from "./tokenizer.js";
export {
  createModel,
  type Backend,
  type BackwardOptions,
  type ForwardResult,
  type KvSession,
  type ModelOptions,
  type SampleOptions,
  type TinyModel,
  type TokenBatch,
  type TokenCounts,
} from "./model.js";
export type { FinishReason, Generated } from "./generate.js";
export { defaultAdamW, resolveAdamW, type AdamWConfig, type OptimizerState, type UpdateStats } from "./optimizer.js";
export { warmupCosine, type ScheduleConfig } from "./schedule.js";
export {
  huggingFaceConfig,
  loadCheckpoint,
  readCheckpoint,
  saveCheckpoint,
  type CheckpointContents,
} from "./checkpoint.js";
export { decodeSafetensors, encodeSafetensors, type NamedTensor } from "./safetensors.js";
export { parameterCount, parameterSpecs, type ParameterSpec } from "./params.js";
export { kernelsBuild, type KernelBuild } from "./kernels/wasm.js";
