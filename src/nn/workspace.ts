// Activation memory for one shard of a batch: everything the forward pass keeps for the backward pass, the
// backward pass's scratch, and the per-token outputs, carved out of two heap blocks (floats and ints). Sized
// for `rows` tokens and `probs` attention weights (heads * sum of squared sequence lengths per layer); grown
// by reallocating. All fields are views, so a workspace can be posted to a worker as it is.
import { headDim, type ModelConfig } from "./config.js";
import type { Heap } from "./heap.js";

export interface LayerActivations {
  readonly xIn: Float32Array; // (R, C) residual stream entering the block
  readonly xn1: Float32Array; // (R, C) after input_layernorm
  readonly rstd1: Float32Array; // (R)
  readonly qkv: Float32Array; // (R, 3C), q and k rotated
  readonly probs: Float32Array; // per sequence (H, L, L)
  readonly att: Float32Array; // (R, C) attention output before o_proj
  readonly xMid: Float32Array; // (R, C) residual after attention
  readonly xn2: Float32Array; // (R, C) after post_attention_layernorm
  readonly rstd2: Float32Array; // (R)
  readonly gateUp: Float32Array; // (R, 2F)
  readonly h: Float32Array; // (R, F) silu(gate) * up
}

export interface Workspace {
  readonly kind: WorkspaceKind;
  readonly rowCapacity: number;
  readonly probsCapacity: number;
  readonly floats: Float32Array;
  readonly ints: Int32Array;
  readonly tokens: Int32Array; // (R)
  readonly targets: Int32Array; // (R), -1 = no target
  readonly positions: Int32Array; // (R)
  readonly slots: Int32Array; // (R) float offset of each row's KV-cache block when decoding
  readonly outputPositions: Int32Array; // (M <= R) positions of the output rows (outputs.ts), compact
  readonly outputTargets: Int32Array; // (M) their targets
  readonly layers: readonly LayerActivations[]; // "sample": layer l uses activation set l % 2
  readonly xOut: Float32Array; // (R, C) final residual stream
  readonly xnF: Float32Array; // (R, C) after model.norm
  readonly rstdF: Float32Array; // (R)
  readonly logits: Float32Array; // (R, V); the backward pass overwrites it with dlogits
  readonly sampleWeights: Float32Array; // (R, V) sampling weights of each row's logits
  readonly sampleStats: Float32Array; // (R, 2) log-sum-exp of the logits, sum of the weights
  readonly logprobs: Float32Array; // (R) log p(target)
  readonly entropy: Float32Array; // (R)
  readonly coefficients: Float32Array; // (R) c_t of the backward pass
  readonly entropyCoefficients: Float32Array; // (R)
  readonly dx: Float32Array; // (R, C); this and the rest of the backward's buffers are empty in a "sample" workspace
  readonly dxn: Float32Array; // (R, C)
  readonly dqkv: Float32Array; // (R, 3C)
  readonly datt: Float32Array; // (R, C)
  readonly dGateUp: Float32Array; // (R, 2F)
  readonly dh: Float32Array; // (R, F)
  readonly gathered: Float32Array; // (M, C) the output rows' input_layernorm output in the last block (outputs.ts)
  readonly scratch: Float32Array; // (contextLength * headDim + 8) a transposed head of k or v; one attention row when decoding
  readonly scores: Float32Array; // (contextLength, max(contextLength, 16)) attention-weight gradients of one head; a prefill's attention weights
}

/**
 * "train" keeps every layer's activations (for a backward pass) and the backward's buffers; "sample" (a
 * prefill and decoding, no backward) needs each layer's activations only until the next layer has run, so
 * its layers alternate between two activation sets and it has no backward buffers: less than half the memory
 * per row, which lets a batch of long prompts prefill in one go.
 */
export type WorkspaceKind = "train" | "sample";

/** The float fields of a workspace: every field but the ints, the capacities and the block they are cut from. */
type FloatFields = Omit<
  Workspace,
  | "kind"
  | "rowCapacity"
  | "probsCapacity"
  | "floats"
  | "ints"
  | "tokens"
  | "targets"
  | "positions"
  | "slots"
  | "outputPositions"
  | "outputTargets"
>;

/**
 * The float fields laid out one after another, each cut by `take(n)`: run once with a counting `take` to size
 * the block, and once to cut the views from it, so that the size always matches the layout.
 */
function layoutFloats(
  config: ModelConfig,
  rows: number,
  probs: number,
  kind: WorkspaceKind,
  take: (n: number) => Float32Array,
): FloatFields {
  const { dModel: C, hiddenSize: F, vocabSize: V } = config;
  const T = config.contextLength;
  const sets = kind === "train" ? config.layers : Math.min(2, config.layers);
  const activationSets: LayerActivations[] = [];
  for (let l = 0; l < sets; l++) {
    activationSets.push({
      xIn: take(rows * C),
      xn1: take(rows * C),
      rstd1: take(rows),
      qkv: take(rows * 3 * C),
      probs: take(probs),
      att: take(rows * C),
      xMid: take(rows * C),
      xn2: take(rows * C),
      rstd2: take(rows),
      gateUp: take(rows * 2 * F),
      h: take(rows * F),
    });
  }
  const layers = Array.from({ length: config.layers }, (_, l) => activationSets[l % sets]!);
  const backward = (n: number): Float32Array => take(kind === "train" ? n : 0);
  return {
    layers,
    xOut: take(rows * C),
    xnF: take(rows * C),
    rstdF: take(rows),
    logits: take(rows * V),
    sampleWeights: take(rows * V),
    sampleStats: take(rows * 2),
    logprobs: take(rows),
    entropy: take(rows),
    coefficients: take(rows),
    entropyCoefficients: take(rows),
    dx: backward(rows * C),
    dxn: backward(rows * C),
    dqkv: backward(rows * 3 * C),
    datt: backward(rows * C),
    dGateUp: backward(rows * 2 * F),
    dh: backward(rows * F),
    gathered: backward(rows * C),
    scratch: take(T * headDim(config) + 8),
    scores: take(T * Math.max(T, 16)),
  };
}

export function allocateWorkspace(
  heap: Heap,
  config: ModelConfig,
  rows: number,
  probs: number,
  kind: WorkspaceKind = "train",
): Workspace {
  let size = 0;
  const none = new Float32Array(0);
  layoutFloats(config, rows, probs, kind, (n) => ((size += n), none));
  // Not zeroed: every kernel writes what it later reads (a fresh workspace for a big batch is hundreds of MB).
  const floats = heap.allocFloats(size, false);
  let ints: Int32Array;
  try {
    ints = heap.allocInts(6 * rows);
  } catch (error) {
    heap.free(floats);
    throw error;
  }
  let offset = 0;
  return {
    kind,
    rowCapacity: rows,
    probsCapacity: probs,
    floats,
    ints,
    tokens: ints.subarray(0, rows),
    targets: ints.subarray(rows, 2 * rows),
    positions: ints.subarray(2 * rows, 3 * rows),
    slots: ints.subarray(3 * rows, 4 * rows),
    outputPositions: ints.subarray(4 * rows, 5 * rows),
    outputTargets: ints.subarray(5 * rows, 6 * rows),
    ...layoutFloats(config, rows, probs, kind, (n) => floats.subarray(offset, (offset += n))),
  };
}

export function freeWorkspace(heap: Heap, workspace: Workspace): void {
  heap.free(workspace.floats);
  heap.free(workspace.ints);
}

/** Attention weights one layer keeps for these sequence lengths. */
export function probsSize(config: ModelConfig, lengths: readonly number[]): number {
  return config.heads * lengths.reduce((sum, n) => sum + n * n, 0);
}

/** Offsets of each sequence's (H, L, L) block of attention weights. */
export function probsOffsets(config: ModelConfig, lengths: readonly number[]): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const n of lengths) {
    offsets.push(offset);
    offset += config.heads * n * n;
  }
  return offsets;
}

export function attentionScale(config: ModelConfig): number {
  return 1 / Math.sqrt(headDim(config));
}
