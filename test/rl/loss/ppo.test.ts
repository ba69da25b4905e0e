import { describe, expect, it } from "vitest";
import { ppoCoefficients } from "../../../src/rl/loss/ppo.js";

const f = (values: number[]) => Float32Array.from(values);

/** The loss as a function of one token's log p, to check c_t by finite differences. */
function lossAt(logps: number[], old: number[], ref: number[], advantages: number[], beta: number): number {
  return ppoCoefficients(
    {
      logprobs: f(logps),
      oldLogprobs: f(old),
      refLogprobs: f(ref),
      advantages: f(advantages),
      mask: f(logps.map(() => 1)),
    },
    { clipLow: 0.2, clipHigh: 0.28, klCoefficient: beta },
  ).loss;
}

describe("ppoCoefficients", () => {
  it("gives c_t = r_t A_t inside the clip range and 0 where the clip binds", () => {
    const old = [-1, -1, -1, -1];
    const logps = [-1, -1 + Math.log(1.5), -1 + Math.log(0.5), -1 + Math.log(1.1)];
    const result = ppoCoefficients({
      logprobs: f(logps),
      oldLogprobs: f(old),
      advantages: f([2, 1, -1, -1]),
      mask: f([1, 1, 1, 1]),
    });
    expect(result.coefficients[0]).toBeCloseTo(2, 6); // ratio 1
    expect(result.coefficients[1]).toBe(0); // ratio 1.5 > 1.28 with A > 0: clipped
    expect(result.coefficients[2]).toBe(0); // ratio 0.5 < 0.8 with A < 0: clipped
    expect(result.coefficients[3]).toBeCloseTo(-1.1, 5); // ratio 1.1 with A < 0: not clipped
    expect(result.clipFraction).toBe(0.5);
    expect(result.tokens).toBe(4);
  });

  it("ignores masked tokens and matches the loss's derivative (finite differences, with KL)", () => {
    const logps = [-0.7, -2.1, -0.3];
    const old = [-0.8, -2.0, -0.25];
    const ref = [-0.9, -1.5, -0.4];
    const advantages = [0.9, -1.3, 0.4];
    const beta = 0.1;
    const result = ppoCoefficients(
      { logprobs: f(logps), oldLogprobs: f(old), refLogprobs: f(ref), advantages: f(advantages), mask: f([1, 1, 1]) },
      { clipLow: 0.2, clipHigh: 0.28, klCoefficient: beta },
    );
    for (let t = 0; t < 3; t++) {
      const h = 1e-3;
      const up = [...logps];
      const down = [...logps];
      up[t]! += h;
      down[t]! -= h;
      const numeric = (lossAt(up, old, ref, advantages, beta) - lossAt(down, old, ref, advantages, beta)) / (2 * h);
      // loss = -(1/N) sum c log p  =>  d loss / d logp_t = -c_t / N
      expect(-(result.coefficients[t] as number) / 3).toBeCloseTo(numeric, 3);
    }
    expect(result.kl).toBeGreaterThan(0);
    const masked = ppoCoefficients({
      logprobs: f(logps),
      oldLogprobs: f(old),
      advantages: f(advantages),
      mask: f([1, 0, 0]),
    });
    expect([...masked.coefficients].slice(1)).toEqual([0, 0]);
    expect(masked.tokens).toBe(1);
  });
});
