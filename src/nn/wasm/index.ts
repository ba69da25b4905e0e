// AssemblyScript entry point of the WebAssembly kernels (built into dist/nn/kernels.wasm by
// `npm run build:wasm`, which `npm run build` and so `npm ci` run). The module imports its memory, a shared
// WebAssembly.Memory that the TypeScript side allocates tensors in (src/nn/heap.ts), so that worker threads
// can run the same kernels over the same tensors.
export { matmul, setScratch, SCRATCH_BYTES } from "./matmul";
export { rmsnormForward, rmsnormBackward, rope, swigluForward, swigluBackward, causalSoftmax, causalSoftmaxBackward, transpose } from "./layers";
export { storeKeysValues, cachedAttention, causalAttention } from "./attention";
export { tokenLogprobs, logitsGradient } from "./loss";
export { samplingWeights } from "./sampling";
export { linearSwiglu } from "./mlp";
