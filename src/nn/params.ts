// Parameter layout: every weight of the model lives in one flat Float32Array, in Hugging Face Llama order
// and names, so that checkpoints are a plain walk over `parameterSpecs` and fused matmuls come for free
// (q_proj, k_proj, v_proj are adjacent rows: one (3C, C) matrix; gate_proj, up_proj: one (2F, C) matrix).
// Also: seeded initialisation, the transposed copies the forward matmuls read (W^T in 8-column panels), and
// the rotary tables.
import { createRng } from "../core/rng.js";
import { headDim, type ModelConfig } from "./config.js";

export interface ParameterSpec {
  /** Hugging Face name, e.g. "model.layers.0.self_attn.q_proj.weight". */
  readonly name: string;
  readonly shape: readonly number[];
  /** Offset and length in floats within the flat block. */
  readonly offset: number;
  readonly length: number;
  /** AdamW decays matrices, not norm gains. */
  readonly decay: boolean;
}

export interface LayerWeights {
  readonly attnNorm: Float32Array;
  /** (3C, C): q_proj, k_proj, v_proj. */
  readonly qkv: Float32Array;
  /** (C, C). */
  readonly o: Float32Array;
  readonly mlpNorm: Float32Array;
  /** (2F, C): gate_proj, up_proj. */
  readonly gateUp: Float32Array;
  /** (C, F). */
  readonly down: Float32Array;
}

/** Views of one flat block (parameters, or gradients, or an optimiser moment) by role. */
export interface Weights {
  readonly flat: Float32Array;
  readonly embed: Float32Array;
  readonly layers: readonly LayerWeights[];
  readonly finalNorm: Float32Array;
  /** (V, C); the same view as `embed` when tied. */
  readonly head: Float32Array;
}

/**
 * Transposed copies for the forward matmuls: x (R, K) . W^T, with W^T (K, N) stored in panels of 8 columns
 * (panel q holds columns 8q..8q+7 as a contiguous (K, 8) block; the last one zero-padded), so that the
 * matmul streams each panel sequentially (see src/nn/wasm/matmul.ts and Kernels.gemmPanels).
 */
export interface TransposedLayer {
  readonly qkv: Float32Array;
  readonly o: Float32Array;
  readonly gateUp: Float32Array;
  readonly down: Float32Array;
}
export interface Transposed {
  readonly flat: Float32Array;
  readonly layers: readonly TransposedLayer[];
  readonly head: Float32Array;
}

export function parameterSpecs(config: ModelConfig): ParameterSpec[] {
  const { vocabSize: V, dModel: C, hiddenSize: F } = config;
  const specs: ParameterSpec[] = [];
  let offset = 0;
  const add = (name: string, shape: number[]): void => {
    const length = shape.reduce((a, b) => a * b, 1);
    specs.push({ name, shape, offset, length, decay: shape.length > 1 });
    offset += length;
  };
  add("model.embed_tokens.weight", [V, C]);
  for (let l = 0; l < config.layers; l++) {
    const p = `model.layers.${l}`;
    add(`${p}.input_layernorm.weight`, [C]);
    for (const x of ["q", "k", "v", "o"]) add(`${p}.self_attn.${x}_proj.weight`, [C, C]);
    add(`${p}.post_attention_layernorm.weight`, [C]);
    add(`${p}.mlp.gate_proj.weight`, [F, C]);
    add(`${p}.mlp.up_proj.weight`, [F, C]);
    add(`${p}.mlp.down_proj.weight`, [C, F]);
  }
  add("model.norm.weight", [C]);
  if (!config.tiedEmbeddings) add("lm_head.weight", [V, C]);
  return specs;
}

export function parameterCount(config: ModelConfig): number {
  return parameterSpecs(config).reduce((sum, s) => sum + s.length, 0);
}

export function bindWeights(config: ModelConfig, flat: Float32Array): Weights {
  const specs = new Map(parameterSpecs(config).map((s) => [s.name, s]));
  /** The named tensor, or `count` adjacent tensors of the same size starting with it (fused views). */
  const view = (name: string, count = 1): Float32Array => {
    const spec = specs.get(name)!;
    return flat.subarray(spec.offset, spec.offset + spec.length * count);
  };
  const layers: LayerWeights[] = [];
  for (let l = 0; l < config.layers; l++) {
    const p = `model.layers.${l}`;
    layers.push({
      attnNorm: view(`${p}.input_layernorm.weight`),
      qkv: view(`${p}.self_attn.q_proj.weight`, 3),
      o: view(`${p}.self_attn.o_proj.weight`),
      mlpNorm: view(`${p}.post_attention_layernorm.weight`),
      gateUp: view(`${p}.mlp.gate_proj.weight`, 2),
      down: view(`${p}.mlp.down_proj.weight`),
    });
  }
  const embed = view("model.embed_tokens.weight");
  return {
    flat,
    embed,
    layers,
    finalNorm: view("model.norm.weight"),
    head: config.tiedEmbeddings ? embed : view("lm_head.weight"),
  };
}

/** Columns of W^T rounded up to whole 8-column panels. */
export function panelColumns(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** Floats needed by `bindTransposed`. */
export function transposedSize(config: ModelConfig): number {
  const { vocabSize: V, dModel: C, hiddenSize: F } = config;
  const p = panelColumns;
  return config.layers * (C * p(3 * C) + C * p(C) + C * p(2 * F) + F * p(C)) + C * p(V);
}

export function bindTransposed(config: ModelConfig, flat: Float32Array): Transposed {
  const { vocabSize: V, dModel: C, hiddenSize: F } = config;
  let offset = 0;
  const take = (n: number): Float32Array => flat.subarray(offset, (offset += n));
  const p = panelColumns;
  const layers: TransposedLayer[] = [];
  for (let l = 0; l < config.layers; l++)
    layers.push({ qkv: take(C * p(3 * C)), o: take(C * p(C)), gateUp: take(C * p(2 * F)), down: take(F * p(C)) });
  return { flat, layers, head: take(C * p(V)) };
}

/** out = in(rows, cols)^T in panels of 8 columns: in[r][c] goes to out[(r / 8) * 8 cols + 8 c + r % 8]. */
export function transposeToPanels(out: Float32Array, input: Float32Array, rows: number, cols: number): void {
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    const panel = Math.floor(r / 8) * 8 * cols + (r % 8);
    for (let c = 0; c < cols; c++) out[panel + 8 * c] = input[base + c]!;
  }
}

/** Refresh the transposed copies after the weights changed. */
export function transposeWeights(config: ModelConfig, weights: Weights, out: Transposed): void {
  const { vocabSize: V, dModel: C, hiddenSize: F } = config;
  weights.layers.forEach((w, l) => {
    const t = out.layers[l]!;
    transposeToPanels(t.qkv, w.qkv, 3 * C, C);
    transposeToPanels(t.o, w.o, C, C);
    transposeToPanels(t.gateUp, w.gateUp, 2 * F, C);
    transposeToPanels(t.down, w.down, C, F);
  });
  transposeToPanels(out.head, weights.head, V, C);
}

/**
 * Seeded initialisation: matrices ~ N(0, 0.02^2), the two projections that write into the residual stream
 * (o_proj, down_proj) scaled by 1/sqrt(2 layers) as in GPT-2, norm gains 1.
 */
export function initializeWeights(config: ModelConfig, flat: Float32Array, seed: number): void {
  const rng = createRng(seed);
  const residualScale = 1 / Math.sqrt(2 * config.layers);
  for (const spec of parameterSpecs(config)) {
    const view = flat.subarray(spec.offset, spec.offset + spec.length);
    if (spec.shape.length === 1) {
      view.fill(1);
      continue;
    }
    const std = 0.02 * (/o_proj|down_proj/.test(spec.name) ? residualScale : 1);
    for (let i = 0; i < view.length; i++) view[i] = rng.normal() * std;
  }
}

/** cos/sin tables (contextLength, headDim/2) for rotary embeddings, computed in float64 then rounded. */
export function ropeTables(config: ModelConfig, cos: Float32Array, sin: Float32Array): void {
  const hd = headDim(config);
  const half = hd / 2;
  for (let pos = 0; pos < config.contextLength; pos++) {
    for (let i = 0; i < half; i++) {
      const angle = pos * Math.pow(config.ropeTheta, (-2 * i) / hd);
      cos[pos * half + i] = Math.cos(angle);
      sin[pos * half + i] = Math.sin(angle);
    }
  }
}
