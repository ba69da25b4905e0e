// The backward pass of one shard, the forward pass read bottom to top. Starts from dloss/dlogits (already in
// workspace.logits, see loss.ts) and accumulates every weight gradient into `grads` (same layout as the
// weights), so gradient accumulation across calls is just not zeroing. Matmul shapes, with R rows:
//   forward  y(R, N) = x(R, K) . W^T        W stored (N, K) as in Hugging Face
//   backward dx(R, K) = dy(R, N) . W        dW(N, K) += dy^T . x
// When the forward ran the last block and the head on the output rows only (outputs.ts), so does the
// backward: the head, the last MLP and o_proj on the M output rows, their attention backward per span, the
// key and value projections' backward on every row (the output rows' attention reaches every earlier row
// through them), the query projection's on the output rows.
import type { ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { ROW_BLOCK, type Packing } from "./attention.js";
import { allRows, expandRows, scatterAddRows, spansBySequence, type OutputRows } from "./outputs.js";
import type { LayerWeights, Weights } from "./params.js";
import { attentionScale, probsOffsets, type LayerActivations, type Workspace } from "./workspace.js";

/**
 * One head of one sequence, given dout (n, hd): dP = dout . v^T; dS = softmax backward (times scale);
 * dq = dS . k; dk = dS^T . q; dv = P^T . dout. Causal blocks above the diagonal are skipped.
 */
export function headBackward(
  kernels: Kernels,
  q: Float32Array,
  k: Float32Array,
  v: Float32Array,
  dq: Float32Array,
  dk: Float32Array,
  dv: Float32Array,
  stride: number,
  dout: Float32Array,
  doutStride: number,
  probs: Float32Array,
  dS: Float32Array,
  vT: Float32Array,
  n: number,
  hd: number,
  scale: number,
): void {
  kernels.transpose(vT, v, n, hd, stride);
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - i0);
    kernels.gemm(
      dS.subarray(i0 * n),
      n,
      dout.subarray(i0 * doutStride),
      doutStride,
      1,
      vT,
      n,
      rows,
      i0 + rows,
      hd,
      false,
    );
  }
  kernels.causalSoftmaxBackward(dS, probs, n, n, n, scale);
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - i0);
    kernels.gemm(dq.subarray(i0 * stride), stride, dS.subarray(i0 * n), n, 1, k, stride, rows, hd, i0 + rows, false);
    // Rows j0.. of dk and dv gather from query rows i >= j0 only.
    kernels.gemm(
      dk.subarray(i0 * stride),
      stride,
      dS.subarray(i0 * n + i0),
      1,
      n,
      q.subarray(i0 * stride),
      stride,
      rows,
      hd,
      n - i0,
      false,
    );
    kernels.gemm(
      dv.subarray(i0 * stride),
      stride,
      probs.subarray(i0 * n + i0),
      1,
      n,
      dout.subarray(i0 * doutStride),
      doutStride,
      rows,
      hd,
      n - i0,
      false,
    );
  }
}

function attentionBackward(
  kernels: Kernels,
  model: ModelViews,
  a: LayerActivations,
  workspace: Workspace,
  packing: Packing,
): void {
  const { config } = model;
  const { dModel: C, heads: H } = config;
  const hd = C / H;
  const scale = attentionScale(config);
  const offsets = probsOffsets(config, packing.lengths);
  packing.lengths.forEach((n, s) => {
    const start = packing.starts[s]!;
    for (let h = 0; h < H; h++) {
      const q = a.qkv.subarray(start * 3 * C + h * hd);
      const dq = workspace.dqkv.subarray(start * 3 * C + h * hd);
      headBackward(
        kernels,
        q,
        q.subarray(C),
        q.subarray(2 * C),
        dq,
        dq.subarray(C),
        dq.subarray(2 * C),
        3 * C,
        workspace.datt.subarray(start * C + h * hd),
        C,
        a.probs.subarray(offsets[s]! + h * n * n),
        workspace.scores,
        workspace.scratch,
        n,
        hd,
        scale,
      );
    }
  });
}

/**
 * A block's MLP (x_out = x_mid + down(silu(gate) * up)) and attention output projection (x_mid = x_in + o(att))
 * backward over `rows` rows: dx holds dloss/dx_out on entry, dloss/dx_mid's residual part after the MLP; datt
 * gets dloss/d(attention output). Every block runs it over all its rows, the last one over its output rows.
 */
function mlpAndOutputBackward(
  kernels: Kernels,
  w: LayerWeights,
  g: LayerWeights,
  a: LayerActivations,
  workspace: Workspace,
  rows: number,
  C: number,
  F: number,
): void {
  const { dx, dxn, datt, dGateUp, dh } = workspace;
  kernels.matmul(dh, dx, w.down, rows, F, C, false);
  kernels.matmulTransposedA(g.down, dx, a.h, C, F, rows, true);
  kernels.swigluBackward(dGateUp, dh, a.gateUp, rows, F);
  kernels.matmul(dxn, dGateUp, w.gateUp, rows, C, 2 * F, false);
  kernels.matmulTransposedA(g.gateUp, dGateUp, a.xn2, 2 * F, C, rows, true);
  kernels.rmsnormBackward(dx, g.mlpNorm, dxn, a.xMid, w.mlpNorm, a.rstd2, rows, C);
  kernels.matmul(datt, dx, w.o, rows, C, C, false);
  kernels.matmulTransposedA(g.o, dx, a.att, C, C, rows, true);
}

/**
 * The last block over the output rows (outputs.ts): dx holds dloss/d(block output) of the M output rows
 * (compact) on entry, dloss/d(block input) of every row on exit.
 */
function outputBlockBackward(
  kernels: Kernels,
  model: ModelViews,
  grads: Weights,
  workspace: Workspace,
  rows: number,
  packing: Packing,
  outputs: OutputRows,
): void {
  const { dModel: C, hiddenSize: F, heads: H, layers: L } = model.config;
  const M = outputs.count;
  const w = model.weights.layers[L - 1]!;
  const g = grads.layers[L - 1]!;
  const a = workspace.layers[L - 1]!;
  const { dx, dxn, dqkv, datt, gathered } = workspace;
  mlpAndOutputBackward(kernels, w, g, a, workspace, M, C, F);
  // Queries of the output rows (compact, in dqkv's first M rows), keys and values of every row.
  dqkv.fill(0, 0, rows * 3 * C);
  spansBackward(kernels, model, a, workspace, packing, outputs);
  kernels.rope(dqkv.subarray(C), rows, 3 * C, H, C / H, model.cos, model.sin, workspace.positions, true);
  kernels.rope(dqkv, M, 3 * C, H, C / H, model.cos, model.sin, workspace.outputPositions, true);
  kernels.gemm(dxn, C, dqkv.subarray(C), 3 * C, 1, w.qkv.subarray(C * C), C, rows, C, 2 * C, false);
  kernels.gemm(g.qkv.subarray(C * C), C, dqkv.subarray(C), 1, 3 * C, a.xn1, C, 2 * C, C, rows, true);
  kernels.gemm(g.qkv, C, dqkv, 1, 3 * C, gathered, C, C, C, M, true);
  kernels.gemm(datt, C, dqkv, 3 * C, 1, w.qkv, C, M, C, C, false);
  scatterAddRows(dxn, datt, C, packing, outputs);
  // dloss/d(block input): the residual (output rows only), then input_layernorm's backward (every row).
  expandRows(dx, C, rows, packing, outputs);
  kernels.rmsnormBackward(dx, g.attnNorm, dxn, a.xIn, w.attnNorm, a.rstd1, rows, C);
}

/**
 * The attention backward of the output rows, span by span (outputs.ts): with dout the spans' rows of
 * workspace.datt (compact), dq into the query columns of dqkv's first M rows, dk and dv added into every
 * row's key and value columns (zero on entry).
 */
function spansBackward(
  kernels: Kernels,
  model: ModelViews,
  a: LayerActivations,
  workspace: Workspace,
  packing: Packing,
  outputs: OutputRows,
): void {
  const { dModel: C, heads: H } = model.config;
  const hd = C / H;
  const scale = attentionScale(model.config);
  const { dqkv, datt, scores: dS, scratch: vT } = workspace;
  for (const [sequence, { spans, end }] of spansBySequence(outputs, H)) {
    const start = packing.starts[sequence]!;
    for (let h = 0; h < H; h++) {
      const k = a.qkv.subarray(start * 3 * C + C + h * hd);
      kernels.transpose(vT, a.qkv.subarray(start * 3 * C + 2 * C + h * hd), end, hd, 3 * C);
      for (const { span, probs: offset } of spans) {
        const n = span.length;
        const keys = span.position + n;
        const probs = a.probs.subarray(offset + h * n * keys);
        const dout = datt.subarray(span.index * C + h * hd);
        const q = a.qkv.subarray(span.index * 3 * C + h * hd);
        kernels.gemm(dS, keys, dout, C, 1, vT, end, n, keys, hd, false);
        kernels.causalSoftmaxBackward(dS, probs, keys, n, keys, scale, span.position);
        kernels.gemm(dqkv.subarray(span.index * 3 * C + h * hd), 3 * C, dS, keys, 1, k, 3 * C, n, hd, keys, false);
        kernels.gemm(dqkv.subarray(start * 3 * C + C + h * hd), 3 * C, dS, 1, keys, q, 3 * C, keys, hd, n, true);
        kernels.gemm(dqkv.subarray(start * 3 * C + 2 * C + h * hd), 3 * C, probs, 1, keys, dout, C, keys, hd, n, true);
      }
    }
  }
}

/** dx holds dloss/d(block output) on entry and dloss/d(block input) on exit. */
function blockBackward(
  kernels: Kernels,
  model: ModelViews,
  w: LayerWeights,
  g: LayerWeights,
  a: LayerActivations,
  workspace: Workspace,
  rows: number,
  packing: Packing,
): void {
  const { dModel: C, hiddenSize: F, heads: H } = model.config;
  const { dx, dxn, dqkv } = workspace;
  mlpAndOutputBackward(kernels, w, g, a, workspace, rows, C, F);
  attentionBackward(kernels, model, a, workspace, packing);
  kernels.rope(dqkv, rows, 3 * C, 2 * H, C / H, model.cos, model.sin, workspace.positions, true);
  kernels.matmul(dxn, dqkv, w.qkv, rows, C, 3 * C, false);
  kernels.matmulTransposedA(g.qkv, dqkv, a.xn1, 3 * C, C, rows, true);
  kernels.rmsnormBackward(dx, g.attnNorm, dxn, a.xIn, w.attnNorm, a.rstd1, rows, C);
}

/** lm_head and model.norm over `rows` rows (all of them, or the M output rows): dx = dloss/d(last block output). */
function outputHeadBackward(
  kernels: Kernels,
  model: ModelViews,
  grads: Weights,
  workspace: Workspace,
  rows: number,
): void {
  const { dModel: C, vocabSize: V } = model.config;
  const w = model.weights;
  const { dx, dxn, logits: dlogits } = workspace;
  kernels.matmul(dxn, dlogits, w.head, rows, C, V, false);
  kernels.matmulTransposedA(grads.head, dlogits, workspace.xnF, V, C, rows, true);
  dx.fill(0, 0, rows * C);
  kernels.rmsnormBackward(dx, grads.finalNorm, dxn, workspace.xOut, w.finalNorm, workspace.rstdF, rows, C);
}

/**
 * Accumulates the gradient of the loss whose dlogits are in workspace.logits into `grads` (with `outputs`
 * that are not every row: the M output rows' dlogits, compact, and their coefficients' targets).
 */
export function backwardShard(
  kernels: Kernels,
  model: ModelViews,
  grads: Weights,
  workspace: Workspace,
  rows: number,
  packing: Packing,
  outputs?: OutputRows,
): void {
  const { dModel: C, layers: L } = model.config;
  const w = model.weights;
  const dx = workspace.dx;
  if (outputs === undefined || allRows(outputs, rows)) {
    outputHeadBackward(kernels, model, grads, workspace, rows);
    blockBackward(
      kernels,
      model,
      w.layers[L - 1]!,
      grads.layers[L - 1]!,
      workspace.layers[L - 1]!,
      workspace,
      rows,
      packing,
    );
  } else {
    if (outputs.count === 0) return;
    outputHeadBackward(kernels, model, grads, workspace, outputs.count);
    outputBlockBackward(kernels, model, grads, workspace, rows, packing, outputs);
  }
  for (let l = L - 2; l >= 0; l--)
    blockBackward(kernels, model, w.layers[l]!, grads.layers[l]!, workspace.layers[l]!, workspace, rows, packing);
  for (let r = 0; r < rows; r++) {
    const t = workspace.tokens[r]!;
    for (let i = 0; i < C; i++) grads.embed[t * C + i] = grads.embed[t * C + i]! + dx[r * C + i]!;
  }
}
