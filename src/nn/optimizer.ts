// AdamW with decoupled weight decay (Loshchilov & Hutter, https://arxiv.org/abs/1711.05101) and clipping by
// global gradient norm, over the flat parameter block. Per parameter, at step t (1-based):
//   g <- g * min(1, clipNorm / ||g||)                         (global norm over every tensor)
//   m <- b1 m + (1 - b1) g;  v <- b2 v + (1 - b2) g^2
//   p <- p - lr * weightDecay * p   (matrices only: spec.decay)
//   p <- p - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
import { ConfigError } from "../core/errors.js";
import type { ParameterSpec } from "./params.js";

export interface AdamWConfig {
  readonly learningRate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  /** Clip the global gradient norm to this; Infinity turns clipping off. */
  readonly clipNorm: number;
}

export const defaultAdamW: AdamWConfig = Object.freeze({
  learningRate: 1e-3,
  beta1: 0.9,
  beta2: 0.95,
  eps: 1e-8,
  weightDecay: 0.1,
  clipNorm: 1,
});

export function resolveAdamW(partial: Partial<AdamWConfig> = {}): AdamWConfig {
  const config = Object.freeze({ ...defaultAdamW, ...partial });
  if (!(config.learningRate >= 0))
    throw new ConfigError("optimizer.learningRate", `must be >= 0, got ${config.learningRate}`);
  for (const beta of ["beta1", "beta2"] as const) {
    if (!(config[beta] >= 0 && config[beta] < 1))
      throw new ConfigError(`optimizer.${beta}`, `must be in [0, 1), got ${config[beta]}`);
  }
  if (!(config.eps > 0)) throw new ConfigError("optimizer.eps", `must be > 0, got ${config.eps}`);
  if (!(config.weightDecay >= 0))
    throw new ConfigError("optimizer.weightDecay", `must be >= 0, got ${config.weightDecay}`);
  if (!(config.clipNorm > 0))
    throw new ConfigError("optimizer.clipNorm", `must be > 0 (Infinity disables clipping), got ${config.clipNorm}`);
  return config;
}

export interface OptimizerState {
  /** Steps taken so far. */
  step: number;
  readonly m: Float32Array;
  readonly v: Float32Array;
}

export function globalNorm(grads: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < grads.length; i++) sum += grads[i]! * grads[i]!;
  return Math.sqrt(sum);
}

export interface UpdateStats {
  readonly gradNorm: number;
  readonly learningRate: number;
  readonly step: number;
  /** False when the gradient was not finite: nothing was changed (the step is skipped, not counted). */
  readonly applied: boolean;
}

/** One AdamW update of `params` from `grads` (left as they are); a non-finite gradient changes nothing. */
export function adamwUpdate(
  specs: readonly ParameterSpec[],
  params: Float32Array,
  grads: Float32Array,
  state: OptimizerState,
  config: AdamWConfig,
  learningRate: number,
): UpdateStats {
  const gradNorm = globalNorm(grads);
  if (!Number.isFinite(gradNorm)) return { gradNorm, learningRate, step: state.step, applied: false };
  const clip = gradNorm > config.clipNorm ? config.clipNorm / gradNorm : 1;
  state.step += 1;
  const { beta1: b1, beta2: b2, eps } = config;
  const c1 = 1 - Math.pow(b1, state.step);
  const c2 = 1 - Math.pow(b2, state.step);
  const { m, v } = state;
  for (const spec of specs) {
    const decay = spec.decay ? learningRate * config.weightDecay : 0;
    for (let i = spec.offset; i < spec.offset + spec.length; i++) {
      const g = grads[i]! * clip;
      const mi = b1 * m[i]! + (1 - b1) * g;
      const vi = b2 * v[i]! + (1 - b2) * g * g;
      m[i] = mi;
      v[i] = vi;
      params[i] = params[i]! - decay * params[i]! - (learningRate * (mi / c1)) / (Math.sqrt(vi / c2) + eps);
    }
  }
  return { gradNorm, learningRate, step: state.step, applied: true };
}
