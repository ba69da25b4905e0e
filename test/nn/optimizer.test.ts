// AdamW: the update against a hand computation, decoupled weight decay on matrices only, clipping.
import { describe, expect, it } from "vitest";
import { adamwUpdate, resolveAdamW } from "../../src/nn/optimizer.js";
import type { ParameterSpec } from "../../src/nn/params.js";

const specs: ParameterSpec[] = [
  { name: "matrix", shape: [1, 2], offset: 0, length: 2, decay: true },
  { name: "norm", shape: [1], offset: 2, length: 1, decay: false },
];

describe("adamwUpdate", () => {
  it("matches the formula, decays matrices only, and clips by global norm", () => {
    const config = resolveAdamW({ beta1: 0.9, beta2: 0.99, eps: 1e-12, weightDecay: 0.5, clipNorm: 1 });
    const params = Float32Array.from([1, -2, 3]);
    const grads = Float32Array.from([3, 0, 4]); // norm 5 -> clipped to (0.6, 0, 0.8)
    const state = { step: 0, m: new Float32Array(3), v: new Float32Array(3) };
    const stats = adamwUpdate(specs, params, grads, state, config, 0.1);
    expect(stats.gradNorm).toBe(5);
    // First step: m_hat = g, v_hat = g^2, so the Adam step is lr * sign(g) (eps ~ 0).
    expect(params[0]).toBeCloseTo(1 - 0.1 * 0.5 * 1 - 0.1, 6);
    expect(params[1]).toBeCloseTo(-2 - 0.1 * 0.5 * -2, 6);
    expect(params[2]).toBeCloseTo(3 - 0.1, 6);
    expect(state.step).toBe(1);
    expect(state.m[2]).toBeCloseTo(0.1 * 0.8, 6);
  });

  it("skips the update when the gradient is not finite", () => {
    const params = Float32Array.from([1, 2, 3]);
    const state = { step: 4, m: new Float32Array(3), v: new Float32Array(3) };
    const stats = adamwUpdate(specs, params, Float32Array.from([1, Number.NaN, 0]), state, resolveAdamW(), 0.1);
    expect(stats.applied).toBe(false);
    expect(Array.from(params)).toEqual([1, 2, 3]);
    expect(state.step).toBe(4);
  });

  it("rejects bad settings", () => {
    expect(() => resolveAdamW({ beta1: 1 })).toThrow(/beta1/);
    expect(() => resolveAdamW({ clipNorm: 0 })).toThrow(/clipNorm/);
  });
});
