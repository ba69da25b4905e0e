// Output rows: the rows of a shard whose outputs the loss reads (they have a target, hence logits, a log-prob
// and a coefficient). In RL most rows are context (observations between the replies): they have no target,
// and the last block computes nothing that reaches the loss for them except their keys and values, which
// the output rows attend to. So the last block runs in two parts:
//   every row:    RMSNorm, the key and value projections, RoPE on the keys (as a prefill does)
//   output rows:  the query projection, attention over the keys and values before them, o_proj, the MLP,
//                 then model.norm and lm_head
// with the output rows' activations stored compactly (row m of the compact arrays is output row m, in packed
// order). Every earlier block still runs on every row (its outputs feed the last block's keys and values).
// The backward pass mirrors it (backward.ts). Output rows come in spans: runs of consecutive positions of
// one sequence (a reply), each attending like a prefill chunk at positions `position`.. of its sequence.
//
// A row's log-prob and entropy are bit-identical to the whole-sequence pass (matmul rows are independent
// and a row's attention does not depend on the block it starts in); gradients agree to float rounding (the
// sums skip rows whose gradient is exactly zero, so they are grouped differently).
import { headForward, type Packing } from "./attention.js";
import { linear, type ModelViews } from "./forward.js";
import type { Kernels } from "./kernels/types.js";
import { attentionScale, type LayerActivations, type Workspace } from "./workspace.js";

/** Consecutive output rows of one sequence: compact rows index.. are its rows position.. (within the sequence). */
export interface OutputSpan {
  readonly sequence: number;
  readonly index: number;
  readonly position: number;
  readonly length: number;
}

export interface OutputRows {
  /** Number of output rows (M). */
  readonly count: number;
  readonly spans: readonly OutputSpan[];
}

/** The output rows of packed sequences: rows whose target is not -1. */
export function findOutputRows(packing: Packing, targets: ArrayLike<number>): OutputRows {
  const spans: OutputSpan[] = [];
  let count = 0;
  packing.lengths.forEach((n, sequence) => {
    const start = packing.starts[sequence]!;
    let t = 0;
    while (t < n) {
      if (targets[start + t]! < 0) {
        t++;
        continue;
      }
      const position = t;
      while (t < n && targets[start + t]! >= 0) t++;
      spans.push({ sequence, index: count, position, length: t - position });
      count += t - position;
    }
  });
  return { count, spans };
}

/** Whether every row is an output row (then the whole-sequence pass is used as it is). */
export function allRows(outputs: OutputRows, rows: number): boolean {
  return outputs.count === rows;
}

/** compact(M, width) rows <- x rows of the output rows (row stride width). */
export function gatherRows(
  compact: Float32Array,
  x: Float32Array,
  width: number,
  packing: Packing,
  outputs: OutputRows,
): void {
  for (const span of outputs.spans) {
    const row = packing.starts[span.sequence]! + span.position;
    compact.set(x.subarray(row * width, (row + span.length) * width), span.index * width);
  }
}

/** x rows of the output rows += compact(M, width) rows. */
export function scatterAddRows(
  x: Float32Array,
  compact: Float32Array,
  width: number,
  packing: Packing,
  outputs: OutputRows,
): void {
  for (const span of outputs.spans) {
    const row = packing.starts[span.sequence]! + span.position;
    for (let i = 0; i < span.length * width; i++)
      x[row * width + i] = x[row * width + i]! + compact[span.index * width + i]!;
  }
}

/**
 * In place: compact rows (M, width) at the start of x move to their packed rows, every other row of the
 * first `rows` becomes 0. Spans are in packed order and a compact row never lies after its packed row, so
 * moving the last span first never overwrites a compact row still to be moved.
 */
export function expandRows(x: Float32Array, width: number, rows: number, packing: Packing, outputs: OutputRows): void {
  let end = rows;
  for (let i = outputs.spans.length - 1; i >= 0; i--) {
    const span = outputs.spans[i]!;
    const row = packing.starts[span.sequence]! + span.position;
    x.fill(0, (row + span.length) * width, end * width);
    x.copyWithin(row * width, span.index * width, (span.index + span.length) * width);
    end = row;
  }
  x.fill(0, 0, end * width);
}

/** A span and the offset of its attention weights in a layer's probs: per head an (length, position + length) block. */
export interface WeightedSpan {
  readonly span: OutputSpan;
  readonly probs: number;
}

/**
 * The spans of each sequence with their attention weights' offsets (spans in order, each after the one
 * before), and how far into the sequence the last one reaches (keys and values needed).
 */
export function spansBySequence(
  outputs: OutputRows,
  heads: number,
): Map<number, { spans: WeightedSpan[]; end: number }> {
  const bySequence = new Map<number, { spans: WeightedSpan[]; end: number }>();
  let probs = 0;
  for (const span of outputs.spans) {
    const entry = bySequence.get(span.sequence) ?? { spans: [], end: 0 };
    entry.spans.push({ span, probs });
    entry.end = Math.max(entry.end, span.position + span.length);
    bySequence.set(span.sequence, entry);
    probs += heads * span.length * (span.position + span.length);
  }
  return bySequence;
}

/**
 * The last block's first part on every row: a.xn1 (R, C), and in a.qkv (R, 3C) the rotated keys and the
 * values (columns C..3C). When C is not a multiple of 8 the key and value columns do not start a weight
 * panel, and the queries are computed too (and not used).
 */
function keysValues(
  kernels: Kernels,
  model: ModelViews,
  a: LayerActivations,
  workspace: Workspace,
  rows: number,
): void {
  const { dModel: C, heads: H, normEps } = model.config;
  const layer = model.config.layers - 1;
  kernels.rmsnormForward(a.xn1, a.rstd1, a.xIn, model.weights.layers[layer]!.attnNorm, rows, C, normEps);
  const wT = model.transposed.layers[layer]!.qkv;
  if (C % 8 === 0)
    kernels.gemmPanels(a.qkv.subarray(C), 3 * C, a.xn1, C, 1, wT.subarray(C * C), 8 * C, rows, 2 * C, C, false);
  else linear(kernels, a.qkv, a.xn1, wT, rows, 3 * C, C, false);
  kernels.rope(a.qkv.subarray(C), rows, 3 * C, H, C / H, model.cos, model.sin, workspace.positions, false);
}

/**
 * The last block and the head over the output rows: reads a.xIn (every row), leaves the compact activations
 * the backward pass reads (queries in the query columns of a.qkv's first M rows, a.att, a.xMid, a.xn2,
 * a.rstd2, a.gateUp, a.h, workspace.xOut, xnF, rstdF, the output rows' attention weights in a.probs) and
 * returns the logits (M, V) in workspace.logits. workspace.outputPositions and outputTargets get the output
 * rows' positions and targets.
 */
export function forwardOutputs(
  kernels: Kernels,
  model: ModelViews,
  workspace: Workspace,
  rows: number,
  packing: Packing,
  outputs: OutputRows,
): Float32Array {
  const { dModel: C, hiddenSize: F, heads: H, normEps, layers: L } = model.config;
  const M = outputs.count;
  const a = workspace.layers[L - 1]!;
  const w = model.weights.layers[L - 1]!;
  const t = model.transposed.layers[L - 1]!;
  keysValues(kernels, model, a, workspace, rows);
  for (const span of outputs.spans) {
    const row = packing.starts[span.sequence]! + span.position;
    for (let i = 0; i < span.length; i++) {
      workspace.outputPositions[span.index + i] = workspace.positions[row + i]!;
      workspace.outputTargets[span.index + i] = workspace.targets[row + i]!;
    }
  }
  // Queries of the output rows, compact, in the query columns of a.qkv's first M rows (after the keys and values:
  // when C is not a multiple of 8 the full product above wrote those columns too).
  gatherRows(workspace.gathered, a.xn1, C, packing, outputs);
  kernels.gemmPanels(a.qkv, 3 * C, workspace.gathered, C, 1, t.qkv, 8 * C, M, C, C, false);
  kernels.rope(a.qkv, M, 3 * C, H, C / H, model.cos, model.sin, workspace.outputPositions, false);
  attendSpans(kernels, model, a, workspace, packing, outputs);
  gatherRows(a.xMid, a.xIn, C, packing, outputs);
  linear(kernels, a.xMid, a.att, t.o, M, C, C, true);
  kernels.rmsnormForward(a.xn2, a.rstd2, a.xMid, w.mlpNorm, M, C, normEps);
  linear(kernels, a.gateUp, a.xn2, t.gateUp, M, 2 * F, C, false);
  kernels.swigluForward(a.h, a.gateUp, M, F);
  workspace.xOut.set(a.xMid.subarray(0, M * C));
  linear(kernels, workspace.xOut, a.h, t.down, M, C, F, true);
  kernels.rmsnormForward(workspace.xnF, workspace.rstdF, workspace.xOut, model.weights.finalNorm, M, C, normEps);
  linear(kernels, workspace.logits, workspace.xnF, model.transposed.head, M, model.config.vocabSize, C, false);
  return workspace.logits;
}

/** Each span's queries attend to its sequence's keys and values up to each row (a.att compact, weights kept). */
function attendSpans(
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
  for (const [sequence, { spans, end }] of spansBySequence(outputs, H)) {
    const start = packing.starts[sequence]!;
    for (let h = 0; h < H; h++) {
      const k = a.qkv.subarray(start * 3 * C + C + h * hd);
      kernels.transpose(workspace.scratch, k, end, hd, 3 * C);
      for (const { span, probs: offset } of spans) {
        const n = span.length;
        const probs = a.probs.subarray(offset + h * n * (span.position + n));
        headForward(
          kernels,
          a.qkv.subarray(span.index * 3 * C + h * hd),
          3 * C,
          { rows: workspace.scratch, ld: end },
          a.qkv.subarray(start * 3 * C + 2 * C + h * hd),
          3 * C,
          a.att.subarray(span.index * C + h * hd),
          C,
          probs,
          n,
          hd,
          scale,
          span.position,
          true,
        );
      }
    }
  }
}
