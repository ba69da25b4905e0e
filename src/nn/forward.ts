// The forward pass of one shard, top to bottom (llm.c style): token embedding, then per block
//   x_mid = x + o_proj(attention(rope(qkv(rmsnorm(x)))))
//   x_out = x_mid + down_proj(silu(gate_proj(h)) * up_proj(h)),  h = rmsnorm(x_mid)
// then model.norm and lm_head. Rows are the shard's tokens, sequences packed one after another; how a row
// attends is the `attend` step's business (whole sequences for training, the KV cache for decoding).
// Everything the backward pass needs stays in the workspace.
import type { ModelConfig } from "./config.js";
import type { Kernels } from "./kernels/types.js";
import type { Transposed, Weights } from "./params.js";
import type { LayerActivations, Workspace } from "./workspace.js";

/** What a shard needs to know about the model: views of the shared weights, all postable to a worker. */
export interface ModelViews {
  readonly config: ModelConfig;
  readonly weights: Weights;
  readonly transposed: Transposed;
  readonly cos: Float32Array;
  readonly sin: Float32Array;
}

/** Computes att (R, C) of layer `layer` from its qkv (R, 3C), q and k already rotated. */
export type AttentionStep = (layer: number, activations: LayerActivations, rows: number) => void;

export function embedTokens(model: ModelViews, workspace: Workspace, rows: number): void {
  const C = model.config.dModel;
  const x = workspace.layers[0]!.xIn;
  for (let r = 0; r < rows; r++) {
    const t = workspace.tokens[r]!;
    x.set(model.weights.embed.subarray(t * C, (t + 1) * C), r * C);
  }
}

/** out(rows, n) (+)= x(rows, k) . W^T, with W^T in 8-column panels (params.ts). */
export function linear(
  kernels: Kernels,
  out: Float32Array,
  x: Float32Array,
  wT: Float32Array,
  rows: number,
  n: number,
  k: number,
  accumulate: boolean,
): void {
  kernels.gemmPanels(out, n, x, k, 1, wT, 8 * k, rows, n, k, accumulate);
}

/**
 * One block over `rows` rows: reads a.xIn, writes the block's output stream into xOut. Without
 * `forBackward` (sampling), the gate/up activations are not kept: the MLP's first half runs fused.
 */
export function block(
  kernels: Kernels,
  model: ModelViews,
  layer: number,
  a: LayerActivations,
  xOut: Float32Array,
  workspace: Workspace,
  rows: number,
  attend: AttentionStep,
  forBackward = true,
): void {
  const { dModel: C, hiddenSize: F, heads: H, normEps } = model.config;
  const w = model.weights.layers[layer]!;
  const t = model.transposed.layers[layer]!;
  kernels.rmsnormForward(a.xn1, a.rstd1, a.xIn, w.attnNorm, rows, C, normEps);
  linear(kernels, a.qkv, a.xn1, t.qkv, rows, 3 * C, C, false);
  kernels.rope(a.qkv, rows, 3 * C, 2 * H, C / H, model.cos, model.sin, workspace.positions, false);
  attend(layer, a, rows);
  a.xMid.set(a.xIn.subarray(0, rows * C));
  linear(kernels, a.xMid, a.att, t.o, rows, C, C, true);
  kernels.rmsnormForward(a.xn2, a.rstd2, a.xMid, w.mlpNorm, rows, C, normEps);
  if (!forBackward && F % 8 === 0 && C <= 256) kernels.linearSwiglu(a.h, a.xn2, t.gateUp, rows, F, C);
  else {
    linear(kernels, a.gateUp, a.xn2, t.gateUp, rows, 2 * F, C, false);
    kernels.swigluForward(a.h, a.gateUp, rows, F);
  }
  xOut.set(a.xMid.subarray(0, rows * C));
  linear(kernels, xOut, a.h, t.down, rows, C, F, true);
}

/**
 * Runs the blocks over rows whose tokens and positions are in the workspace; returns the final stream.
 * `forBackward` false (sampling) skips keeping what only the backward pass reads. With `blocks` below the
 * number of layers, only the first `blocks` run (the next block's input is then in its xIn).
 */
export function forwardBlocks(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  rows: number,
  attend: AttentionStep,
  forBackward = true,
  blocks = model.config.layers,
): Float32Array {
  embedTokens(model, workspace, rows);
  const L = model.config.layers;
  for (let l = 0; l < blocks; l++) {
    const out = l + 1 < L ? workspace.layers[l + 1]!.xIn : workspace.xOut;
    block(kernels, model, l, workspace.layers[l]!, out, workspace, rows, attend, forBackward);
  }
  return workspace.xOut;
}

/** model.norm and lm_head over `rows` rows of `x`: logits (rows, V) into workspace.logits. */
export function forwardHead(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  x: Float32Array,
  rows: number,
): Float32Array {
  const { dModel: C, vocabSize: V, normEps } = model.config;
  kernels.rmsnormForward(workspace.xnF, workspace.rstdF, x, model.weights.finalNorm, rows, C, normEps);
  linear(kernels, workspace.logits, workspace.xnF, model.transposed.head, rows, V, C, false);
  return workspace.logits;
}
