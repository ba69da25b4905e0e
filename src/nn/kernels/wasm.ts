// The fast kernels: WebAssembly SIMD compiled from src/nn/wasm/*.ts (AssemblyScript) by
// `npm run build:wasm` into two files: dist/nn/kernels.wasm (SIMD128) and dist/nn/kernels-fma.wasm (the
// matmul uses relaxed-SIMD fused multiply-add). The FMA build is the default: relaxed SIMD is standard from
// Node 22; on Node 20 (V8 11.3, where the feature is complete but behind a flag) this file turns the flag on
// with v8.setFlagsFromString before compiling, which only adds the relaxed opcodes to what validates. If
// the runtime still refuses the FMA build, the SIMD128 build is used. BUDGETRL_NN_KERNELS=simd|fma forces a
// choice (simd never touches the flag). Results are bit-identical run to run on one machine with either
// build (Liftoff and TurboFan emit the same fused or unfused instruction for relaxed_madd), but the two
// builds round differently, and the FMA build can round differently on a CPU without FMA3.
//
// The module imports the shared heap memory, so every view passed in must live in that heap; its
// byteOffset is the pointer. Loaded from dist/nn/ whether this file runs compiled (dist/nn/kernels/) or
// from source through vitest/tsx (src/nn/kernels/).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { BudgetrlError } from "../../core/errors.js";
import type { Kernels } from "./types.js";

type Ptr = number;
interface KernelExports {
  setScratch(pointer: Ptr): void;
  SCRATCH_BYTES: { value: number };
  matmul(
    c: Ptr,
    a: Ptr,
    b: Ptr,
    m: number,
    n: number,
    k: number,
    ars: number,
    acs: number,
    ldb: number,
    ldc: number,
    accumulate: number,
    panelStride: number,
  ): void;
  rmsnormForward(out: Ptr, rstd: Ptr, x: Ptr, weight: Ptr, rows: number, dim: number, eps: number): void;
  rmsnormBackward(dx: Ptr, dweight: Ptr, dout: Ptr, x: Ptr, weight: Ptr, rstd: Ptr, rows: number, dim: number): void;
  rope(
    x: Ptr,
    rows: number,
    rowStride: number,
    vectors: number,
    headDim: number,
    cos: Ptr,
    sin: Ptr,
    positions: Ptr,
    inverse: number,
  ): void;
  swigluForward(h: Ptr, gateUp: Ptr, rows: number, hidden: number): void;
  linearSwiglu(h: Ptr, x: Ptr, wT: Ptr, m: number, hidden: number, k: number, panelStride: number): void;
  swigluBackward(dGateUp: Ptr, dh: Ptr, gateUp: Ptr, rows: number, hidden: number): void;
  causalAttention(
    out: Ptr,
    outStride: number,
    q: Ptr,
    qStride: number,
    kT: Ptr,
    ldk: number,
    kPanel: number,
    v: Ptr,
    ldv: number,
    probs: Ptr,
    n: number,
    hd: number,
    scale: number,
    past: number,
    keepProbs: number,
  ): void;
  storeKeysValues(
    keys: Ptr,
    values: Ptr,
    qkv: Ptr,
    rows: number,
    firstPos: number,
    contextLength: number,
    dModel: number,
    heads: number,
  ): void;
  cachedAttention(
    att: Ptr,
    qkv: Ptr,
    rows: number,
    positions: Ptr,
    slots: Ptr,
    cache: Ptr,
    layerOffset: number,
    contextLength: number,
    dModel: number,
    heads: number,
    scale: number,
    scratch: Ptr,
  ): void;
  causalSoftmax(s: Ptr, ld: number, rows: number, cols: number, scale: number): void;
  samplingWeights(weights: Ptr, stats: Ptr, logits: Ptr, rows: number, vocab: number, temperature: number): void;
  tokenLogprobs(logits: Ptr, targets: Ptr, rows: number, vocab: number, logprobs: Ptr, entropy: Ptr): void;
  logitsGradient(
    logits: Ptr,
    targets: Ptr,
    rows: number,
    vocab: number,
    coefficients: Ptr,
    entropyCoefficients: Ptr,
    normaliser: number,
  ): void;
  causalSoftmaxBackward(d: Ptr, p: Ptr, ld: number, rows: number, cols: number, scale: number, past: number): void;
  transpose(out: Ptr, x: Ptr, rows: number, cols: number, stride: number): void;
}

export type KernelBuild = "simd" | "fma";

/** Path of a compiled kernel build, or undefined when it has not been built. */
export function findKernelsWasm(build: KernelBuild = "simd"): string | undefined {
  const file = build === "simd" ? "kernels.wasm" : "kernels-fma.wasm";
  for (const dir of ["../", "../../../dist/nn/"]) {
    const path = fileURLToPath(new URL(dir + file, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}

/**
 * Whether this runtime validates relaxed SIMD, turning on Node 20's experimental flag if needed (the flag
 * is read when a module is validated or compiled; workers get the module compiled here).
 */
function acceptsRelaxedSimd(bytes: Uint8Array): boolean {
  if (WebAssembly.validate(bytes)) return true;
  if (Number(process.versions.node.split(".")[0]) >= 22) return false;
  setFlagsFromString("--experimental-wasm-relaxed-simd");
  return WebAssembly.validate(bytes);
}

/** The build this process uses: forced by BUDGETRL_NN_KERNELS, else FMA when the runtime accepts it. */
function chooseBuild(): { build: KernelBuild; bytes: Uint8Array } {
  const forced = process.env["BUDGETRL_NN_KERNELS"];
  if (forced !== undefined && forced !== "simd" && forced !== "fma") {
    throw new BudgetrlError("nn:bad-kernels", `BUDGETRL_NN_KERNELS must be "simd" or "fma", got "${forced}"`);
  }
  const fmaPath = findKernelsWasm("fma");
  if (forced !== "simd" && fmaPath !== undefined) {
    const bytes = readFileSync(fmaPath);
    if (acceptsRelaxedSimd(bytes)) return { build: "fma", bytes };
    if (forced === "fma")
      throw new BudgetrlError(
        "nn:no-fma",
        "this runtime does not support relaxed SIMD",
        "use Node 22+, or node --experimental-wasm-relaxed-simd on Node 20",
      );
  }
  const path = findKernelsWasm("simd");
  if (path === undefined) {
    throw new BudgetrlError(
      "nn:no-wasm",
      "the WebAssembly kernels (dist/nn/kernels.wasm) are not built",
      'run `npm run build:wasm` (npm ci does it), or create the model with backend: "reference"',
    );
  }
  return { build: "simd", bytes: readFileSync(path) };
}

let compiled: { build: KernelBuild; module: WebAssembly.Module } | undefined;

/** The compiled (not yet instantiated) kernels module; compiled once per process and shared with workers. */
export function kernelsModule(): WebAssembly.Module {
  if (compiled === undefined) {
    const { build, bytes } = chooseBuild();
    compiled = { build, module: new WebAssembly.Module(bytes) };
  }
  return compiled.module;
}

/** Which build kernelsModule() loaded. */
export function kernelsBuild(): KernelBuild {
  kernelsModule();
  return compiled!.build;
}

/** Floats of heap scratch each thread's kernels need (packed matmul panels). */
export const KERNEL_SCRATCH_FLOATS = 16384;

/** The matrix products and the transpose: the linear layers. */
function linearKernels(
  w: KernelExports,
): Pick<Kernels, "matmul" | "matmulTransposedA" | "gemm" | "gemmPanels" | "transpose" | "linearSwiglu"> {
  return {
    matmul: (out, a, b, m, n, k, accumulate) =>
      w.matmul(out.byteOffset, a.byteOffset, b.byteOffset, m, n, k, k, 1, n, n, accumulate ? 1 : 0, 8),
    matmulTransposedA: (out, a, b, m, n, k, accumulate) =>
      w.matmul(out.byteOffset, a.byteOffset, b.byteOffset, m, n, k, 1, m, n, n, accumulate ? 1 : 0, 8),
    gemm: (out, ldc, a, ars, acs, b, ldb, m, n, k, accumulate) =>
      w.matmul(out.byteOffset, a.byteOffset, b.byteOffset, m, n, k, ars, acs, ldb, ldc, accumulate ? 1 : 0, 8),
    gemmPanels: (out, ldc, a, ars, acs, b, panelStride, m, n, k, accumulate) =>
      w.matmul(out.byteOffset, a.byteOffset, b.byteOffset, m, n, k, ars, acs, 8, ldc, accumulate ? 1 : 0, panelStride),
    transpose: (out, x, rows, cols, stride) => w.transpose(out.byteOffset, x.byteOffset, rows, cols, stride),
    linearSwiglu: (h, x, wT, rows, hidden, k) =>
      w.linearSwiglu(h.byteOffset, x.byteOffset, wT.byteOffset, rows, hidden, k, 8 * k),
  };
}

/** RMS norm, RoPE and SwiGLU, forward and backward. */
function layerKernels(
  w: KernelExports,
): Pick<Kernels, "rmsnormForward" | "rmsnormBackward" | "rope" | "swigluForward" | "swigluBackward"> {
  return {
    rmsnormForward: (out, rstd, x, weight, rows, dim, eps) =>
      w.rmsnormForward(out.byteOffset, rstd.byteOffset, x.byteOffset, weight.byteOffset, rows, dim, eps),
    rmsnormBackward: (dx, dweight, dout, x, weight, rstd, rows, dim) =>
      w.rmsnormBackward(
        dx.byteOffset,
        dweight.byteOffset,
        dout.byteOffset,
        x.byteOffset,
        weight.byteOffset,
        rstd.byteOffset,
        rows,
        dim,
      ),
    rope: (x, rows, rowStride, vectors, headDim, cos, sin, positions, inverse) =>
      w.rope(
        x.byteOffset,
        rows,
        rowStride,
        vectors,
        headDim,
        cos.byteOffset,
        sin.byteOffset,
        positions.byteOffset,
        inverse ? 1 : 0,
      ),
    swigluForward: (h, gateUp, rows, hidden) => w.swigluForward(h.byteOffset, gateUp.byteOffset, rows, hidden),
    swigluBackward: (dGateUp, dh, gateUp, rows, hidden) =>
      w.swigluBackward(dGateUp.byteOffset, dh.byteOffset, gateUp.byteOffset, rows, hidden),
  };
}

/** Causal attention over a sequence and over the KV cache. */
function attentionKernels(w: KernelExports): Pick<Kernels, "causalAttention" | "storeKeysValues" | "cachedAttention"> {
  return {
    causalAttention: (out, outStride, q, qStride, kT, ldk, kPanel, v, ldv, probs, n, hd, scale, past, keepProbs) =>
      w.causalAttention(
        out.byteOffset,
        outStride,
        q.byteOffset,
        qStride,
        kT.byteOffset,
        ldk,
        kPanel,
        v.byteOffset,
        ldv,
        probs.byteOffset,
        n,
        hd,
        scale,
        past,
        keepProbs ? 1 : 0,
      ),
    storeKeysValues: (keys, values, qkv, rows, firstPos, contextLength, dModel, heads) =>
      w.storeKeysValues(
        keys.byteOffset,
        values.byteOffset,
        qkv.byteOffset,
        rows,
        firstPos,
        contextLength,
        dModel,
        heads,
      ),
    cachedAttention: (
      att,
      qkv,
      rows,
      positions,
      slots,
      cache,
      layerOffset,
      contextLength,
      dModel,
      heads,
      scale,
      scratch,
    ) =>
      w.cachedAttention(
        att.byteOffset,
        qkv.byteOffset,
        rows,
        positions.byteOffset,
        slots.byteOffset,
        cache.byteOffset,
        layerOffset,
        contextLength,
        dModel,
        heads,
        scale,
        scratch.byteOffset,
      ),
  };
}

/** The causal softmax of attention scores, forward and backward. */
function softmaxKernels(w: KernelExports): Pick<Kernels, "causalSoftmax" | "causalSoftmaxBackward"> {
  return {
    causalSoftmax: (scores, ld, rows, cols, scale) => w.causalSoftmax(scores.byteOffset, ld, rows, cols, scale),
    causalSoftmaxBackward: (d, probs, ld, rows, cols, scale, past = 0) =>
      w.causalSoftmaxBackward(d.byteOffset, probs.byteOffset, ld, rows, cols, scale, past),
  };
}

/** The output head: sampling weights, token log-probs, the logits' gradient. */
function outputKernels(w: KernelExports): Pick<Kernels, "samplingWeights" | "tokenLogprobs" | "logitsGradient"> {
  return {
    samplingWeights: (weights, stats, logits, rows, vocab, temperature) =>
      w.samplingWeights(weights.byteOffset, stats.byteOffset, logits.byteOffset, rows, vocab, temperature),
    tokenLogprobs: (logits, targets, rows, vocab, logprobs, entropy) =>
      w.tokenLogprobs(logits.byteOffset, targets.byteOffset, rows, vocab, logprobs.byteOffset, entropy.byteOffset),
    logitsGradient: (logits, targets, rows, vocab, coefficients, entropyCoefficients, normaliser) =>
      w.logitsGradient(
        logits.byteOffset,
        targets.byteOffset,
        rows,
        vocab,
        coefficients.byteOffset,
        entropyCoefficients?.byteOffset ?? 0,
        normaliser,
      ),
  };
}

/**
 * Kernels bound to `memory` (the shared heap). `scratch` is a heap view of KERNEL_SCRATCH_FLOATS floats
 * that only this thread uses.
 */
export function wasmKernels(memory: WebAssembly.Memory, module: WebAssembly.Module, scratch: Float32Array): Kernels {
  const instance = new WebAssembly.Instance(module, {
    env: {
      memory,
      abort: () => {
        throw new BudgetrlError("nn:wasm-abort", "WebAssembly kernel aborted");
      },
    },
  });
  const w = instance.exports as unknown as KernelExports;
  if (scratch.length * 4 < w.SCRATCH_BYTES.value)
    throw new BudgetrlError(
      "nn:wasm-scratch",
      `kernel scratch of ${scratch.length} floats is below the ${w.SCRATCH_BYTES.value / 4} the kernels need`,
    );
  w.setScratch(scratch.byteOffset);
  return {
    name: "wasm",
    ...linearKernels(w),
    ...layerKernels(w),
    ...attentionKernels(w),
    ...softmaxKernels(w),
    ...outputKernels(w),
  };
}
