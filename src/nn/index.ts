// The in-process transformer: config, tokenizer, the model (forward/backward/AdamW/sampling), schedules,
// checkpoints. Kernels and passes are internal; `referenceKernels`/`wasmKernels` are exported for tests and
// benchmarks that compare them.
export { referenceConfig, resolveConfig, headDim, type ModelConfig } from "./config.js";
export { ASSISTANT, END, SYSTEM, USER, SPECIAL_TOKENS, TOKENIZER_VOCAB, decodeTokens, describeTokens, encodeText } from "./tokenizer.js";
export {
  createModel, type Backend, type BackwardOptions, type ForwardResult, type KvSession, type ModelOptions, type SampleOptions, type TinyModel, type TokenBatch,
  type TokenCounts,
} from "./model.js";
export type { FinishReason, Generated } from "./generate.js";
export { defaultAdamW, resolveAdamW, type AdamWConfig, type OptimizerState, type UpdateStats } from "./optimizer.js";
export { warmupCosine, type ScheduleConfig } from "./schedule.js";
export { huggingFaceConfig, loadCheckpoint, readCheckpoint, saveCheckpoint, type CheckpointContents } from "./checkpoint.js";
export { decodeSafetensors, encodeSafetensors, type NamedTensor } from "./safetensors.js";
export { parameterCount, parameterSpecs, type ParameterSpec } from "./params.js";
export { referenceKernels } from "./kernels/reference.js";
export { findKernelsWasm, KERNEL_SCRATCH_FLOATS, kernelsBuild, kernelsModule, wasmKernels, type KernelBuild } from "./kernels/wasm.js";
export type { Kernels } from "./kernels/types.js";
