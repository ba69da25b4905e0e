import { describe, expect, it } from "vitest";
import { passAtK } from "../../src/metrics/pass-at-k.js";

/** Fraction of k-subsets of n samples (c successes) holding at least one success, by enumeration. */
function bruteForce(n: number, c: number, k: number): number {
  let hits = 0;
  let subsets = 0;
  const visit = (start: number, chosen: number, hasSuccess: boolean): void => {
    if (chosen === k) {
      subsets++;
      if (hasSuccess) hits++;
      return;
    }
    for (let i = start; i < n; i++) visit(i + 1, chosen + 1, hasSuccess || i < c);
  };
  visit(0, 0, false);
  return hits / subsets;
}

describe("passAtK", () => {
  it("equals brute-force enumeration over all k-subsets for every n <= 12", () => {
    for (let n = 1; n <= 12; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) expect(passAtK(n, c, k)).toBeCloseTo(bruteForce(n, c, k), 12);
      }
    }
  });

  it("handles the edges exactly and stays stable for large n", () => {
    expect(passAtK(10, 0, 5)).toBe(0);
    expect(passAtK(10, 6, 5)).toBe(1);
    expect(passAtK(10, 10, 1)).toBe(1);
    expect(passAtK(1000, 1, 1)).toBeCloseTo(0.001, 15);
    const large = passAtK(100_000, 3, 50_000);
    expect(large).toBeGreaterThan(0.87);
    expect(large).toBeLessThan(0.876);
  });

  it("refuses k outside [1, n] and c outside [0, n]", () => {
    expect(() => passAtK(4, 1, 5)).toThrow(RangeError);
    expect(() => passAtK(4, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(4, 5, 1)).toThrow(RangeError);
  });
});
