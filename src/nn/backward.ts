// The backward pass of one shard, the forward pass read bottom to top. Starts from dloss/dlogits (already in
// workspace.logits, see loss.ts) and accumulates every weight gradient into `grads` (same layout as the
// weights), so gradient accumulation across calls is just not zeroing. Matmul shapes, with R rows:
//   forward  y(R, N) = x(R, K) . W^T        W stored (N, K) as in Hugging Face
//   backward dx(R, K) = dy(R, N) . W        dW(N, K) += dy^T . x
import type { ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import type { Packing } from "./attention.js";
import type { LayerWeights, Weights } from "./params.js";
import { attentionScale, probsOffsets, type LayerActivations, type Workspace } from "./workspace.js";

function attentionBackward(kernels: Kernels, model: ModelViews, a: LayerActivations, workspace: Workspace, packing: Packing): void {
  const { config } = model;
  const { dModel: C, heads: H } = config;
  const hd = C / H;
  const scale = attentionScale(config);
  const offsets = probsOffsets(config, packing.lengths);
  packing.lengths.forEach((n, s) => {
    const start = packing.starts[s]!;
    workspace.dqkv.fill(0, start * 3 * C, (start + n) * 3 * C);
    for (let h = 0; h < H; h++) {
      const q = a.qkv.subarray(start * 3 * C + h * hd);
      const dq = workspace.dqkv.subarray(start * 3 * C + h * hd);
      kernels.attentionBackward(dq, dq.subarray(C), dq.subarray(2 * C), 3 * C, workspace.datt.subarray(start * C + h * hd), C,
        q, q.subarray(C), q.subarray(2 * C), 3 * C, a.probs.subarray(offsets[s]! + h * n * n), n, workspace.scratch, n, hd, scale);
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
