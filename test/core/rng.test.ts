import { describe, expect, it } from "vitest";
import { createRng, deriveSeed, rngFromState } from "../../src/core/rng.js";

describe("rng", () => {
  it("gives the same stream for the same seed and different streams for different seeds", () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it("restores a stream exactly from a snapshot", () => {
    const rng = createRng(7);
    for (let i = 0; i < 5; i++) rng.next();
    const copy = rngFromState(rng.snapshot());
    expect(Array.from({ length: 5 }, () => copy.next())).toEqual(Array.from({ length: 5 }, () => rng.next()));
  });

  it("draws integers uniformly (chi-square over 6 bins)", () => {
    const rng = createRng(1);
    const counts = new Array<number>(6).fill(0);
    const draws = 60_000;
    for (let i = 0; i < draws; i++) counts[rng.int(6)]! += 1;
    const expected = draws / 6;
    const chi = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(20.5); // p = 0.001 for 5 degrees of freedom
  });

  it("keeps next() in [0, 1) and refuses bad bounds", () => {
    const rng = createRng(3);
    for (let i = 0; i < 1000; i++) {
      const x = rng.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    expect(() => rng.int(0)).toThrow(RangeError);
    expect(() => rng.pick([])).toThrow(RangeError);
  });

  it("derives child seeds that depend on every label and their order", () => {
    expect(deriveSeed(1, "task", 3)).toBe(deriveSeed(1, "task", 3));
    expect(deriveSeed(1, "task", 3)).not.toBe(deriveSeed(1, 3, "task"));
    expect(deriveSeed(1, "task", 3)).not.toBe(deriveSeed(2, "task", 3));
    expect(deriveSeed(9, "x")).toBeLessThan(2 ** 32);
  });
});
