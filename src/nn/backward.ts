// The backward pass of one shard, the forward pass read bottom to top. Starts from dloss/dlogits (already in
// workspace.logits, see loss.ts) and accumulates every weight gradient into `grads` (same layout as the
// weights), so gradient accumulation across calls is just not zeroing. Matmul shapes, with R rows:
//   forward  y(R, N) = x(R, K) . W^T        W stored (N, K) as in Hugging Face
//   backward dx(R, K) = dy(R, N) . W        dW(N, K) += dy^T . x
import type { ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { ROW_BLOCK, transposeStrided, type Packing } from "./attention.js";
import type { LayerWeights, Weights } from "./params.js";
import { attentionScale, probsOffsets, type LayerActivations, type Workspace } from "./workspace.js";

/**
 * One head of one sequence, given dout (n, hd): dP = dout . v^T; dS = softmax backward (times scale);
 * dq = dS . k; dk = dS^T . q; dv = P^T . dout. Causal blocks above the diagonal are skipped.
 */
export function headBackward(kernels: Kernels, q: Float32Array, k: Float32Array, v: Float32Array, dq: Float32Array, dk: Float32Array, dv: Float32Array, stride: number,
  dout: Float32Array, doutStride: number, probs: Float32Array, dS: Float32Array, vT: Float32Array, n: number, hd: number, scale: number): void {
  transposeStrided(vT, v, n, hd, stride);
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - i0);
    kernels.gemm(dS.subarray(i0 * n), n, dout.subarray(i0 * doutStride), doutStride, 1, vT, n, rows, i0 + rows, hd, false);
  }
  kernels.causalSoftmaxBackward(dS, probs, n, n, n, scale);
  for (let i0 = 0; i0 < n; i0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - i0);
    kernels.gemm(dq.subarray(i0 * stride), stride, dS.subarray(i0 * n), n, 1, k, stride, rows, hd, i0 + rows, false);
    // Rows j0.. of dk and dv gather from query rows i >= j0 only.
    kernels.gemm(dk.subarray(i0 * stride), stride, dS.subarray(i0 * n + i0), 1, n, q.subarray(i0 * stride), stride, rows, hd, n - i0, false);
    kernels.gemm(dv.subarray(i0 * stride), stride, probs.subarray(i0 * n + i0), 1, n, dout.subarray(i0 * doutStride), doutStride, rows, hd, n - i0, false);
  }
}

function attentionBackward(kernels: Kernels, model: ModelViews, a: LayerActivations, workspace: Workspace, packing: Packing): void {
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
      headBackward(kernels, q, q.subarray(C), q.subarray(2 * C), dq, dq.subarray(C), dq.subarray(2 * C), 3 * C, workspace.datt.subarray(start * C + h * hd), C, a.probs.subarray(offsets[s]! + h * n * n), workspace.scores, workspace.scratch, n, hd, scale);
    }
  });
}

/** dx holds dloss/d(block output) on entry and dloss/d(block input) on exit. */
function blockBackward(kernels: Kernels, model: ModelViews, w: LayerWeights, g: LayerWeights, a: LayerActivations, workspace: Workspace, rows: number, packing: Packing): void {
  const { dModel: C, hiddenSize: F, heads: H } = model.config;
  const { dx, dxn, dqkv, datt, dGateUp, dh } = workspace;
  // MLP: x_out = x_mid + down(silu(gate) * up)
  kernels.matmul(dh, dx, w.down, rows, F, C, false);
  kernels.matmulTransposedA(g.down, dx, a.h, C, F, rows, true);
  kernels.swigluBackward(dGateUp, dh, a.gateUp, rows, F);
  kernels.matmul(dxn, dGateUp, w.gateUp, rows, C, 2 * F, false);
  kernels.matmulTransposedA(g.gateUp, dGateUp, a.xn2, 2 * F, C, rows, true);
  kernels.rmsnormBackward(dx, g.mlpNorm, dxn, a.xMid, w.mlpNorm, a.rstd2, rows, C);
  // Attention: x_mid = x_in + o(attention(rope(qkv(rmsnorm(x_in)))))
  kernels.matmul(datt, dx, w.o, rows, C, C, false);
  kernels.matmulTransposedA(g.o, dx, a.att, C, C, rows, true);
  attentionBackward(kernels, model, a, workspace, packing);
  kernels.rope(dqkv, rows, 3 * C, 2 * H, C / H, model.cos, model.sin, workspace.positions, true);
  kernels.matmul(dxn, dqkv, w.qkv, rows, C, 3 * C, false);
  kernels.matmulTransposedA(g.qkv, dqkv, a.xn1, 3 * C, C, rows, true);
  kernels.rmsnormBackward(dx, g.attnNorm, dxn, a.xIn, w.attnNorm, a.rstd1, rows, C);
}

/** Accumulates the gradient of the loss whose dlogits are in workspace.logits into `grads`. */
export function backwardShard(kernels: Kernels, model: ModelViews, grads: Weights, workspace: Workspace, rows: number, packing: Packing): void {
  const { dModel: C, vocabSize: V, layers: L } = model.config;
  const w = model.weights;
  const { dx, dxn, logits: dlogits } = workspace;
  kernels.matmul(dxn, dlogits, w.head, rows, C, V, false);
  kernels.matmulTransposedA(grads.head, dlogits, workspace.xnF, V, C, rows, true);
  dx.fill(0, 0, rows * C);
  kernels.rmsnormBackward(dx, grads.finalNorm, dxn, workspace.xOut, w.finalNorm, workspace.rstdF, rows, C);
  for (let l = L - 1; l >= 0; l--) blockBackward(kernels, model, w.layers[l]!, grads.layers[l]!, workspace.layers[l]!, workspace, rows, packing);
  for (let r = 0; r < rows; r++) {
    const t = workspace.tokens[r]!;
    for (let i = 0; i < C; i++) grads.embed[t * C + i] = grads.embed[t * C + i]! + dx[r * C + i]!;
  }
}
