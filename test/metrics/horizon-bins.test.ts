// The horizon's bins say what they hold: exact ratios when there are few (integer and fractional multiples of
// the optimal length), ranges labelled by their smallest and largest ratio when there are many, length bins by
// the lengths in them; every number reads as it is.
import { describe, expect, it } from "vitest";
import {
  distinctDigits,
  formatBinValue,
  lengthBin,
  lengthBinning,
  ratioBin,
  ratioBinning,
  spanOf,
  type Binning,
} from "../../src/metrics/horizon-bins.js";

const labels = (binning: Binning): string[] => [...binning.spans.values()].map((span) => span.label);

describe("horizon bins", () => {
  it("bins optimal lengths by powers of two (hanoi: one bin per disk count) and ratios at edges", () => {
    expect([1, 2, 3, 4, 7, 8, 15, 31, 63].map(lengthBin)).toEqual([1, 2, 2, 4, 4, 8, 8, 16, 32]);
    expect([0.5, 1, 1.2, 1.5, 2, 3.99, 4, 9].map((ratio) => ratioBin(ratio, [1, 1.5, 2, 3, 4]))).toEqual([
      0, 1, 1, 2, 3, 4, 5, 5,
    ]);
  });

  it("shows few ratios exactly: 25%..100% of a 4 x L reference are 1, 2, 3, 4", () => {
    // L = 6, reference 24 turns: T = 6, 12, 18, 24, as in the quick study on frozenlake.
    expect(labels(ratioBinning([6, 12, 18, 24].map((turns) => turns / 6)))).toEqual(["1", "2", "3", "4"]);
  });

  it("writes fractional multiples of the optimal length as they are", () => {
    // 1.25x, 1.5x, 2x, 3x of L = 4; and 4/3, 5/3 (L = 3).
    expect(labels(ratioBinning([5, 6, 8, 12].map((turns) => turns / 4)))).toEqual(["1.25", "1.5", "2", "3"]);
    expect(labels(ratioBinning([4 / 3, 5 / 3, 4 / 3]))).toEqual(["1.33", "1.67"]);
    expect(formatBinValue(2)).toBe("2");
    expect(formatBinValue(0.1 + 0.2)).toBe("0.3");
  });

  it("adds decimals only when two values would read the same", () => {
    expect(distinctDigits([1, 1.25, 1.5])).toBe(2);
    expect(distinctDigits([1.333, 1.3334])).toBe(4);
    expect(labels(ratioBinning([1.333, 1.3334]))).toEqual(["1.333", "1.3334"]);
  });

  it("labels range bins by the smallest and largest ratio they hold, not by their edges", () => {
    const ratios = [0.5, 1, 1.2, 1.4, 1.6, 1.75, 2, 2.5, 3.5, 5];
    const binning = ratioBinning(ratios);
    expect(labels(binning)).toEqual(["0.5", "1-1.4", "1.6-1.75", "2-2.5", "3.5", "5"]);
    expect(spanOf(binning, 1.2).span).toEqual({ label: "1-1.4", low: 1, high: 1.4 });
    // A bin that holds ratio 1 alone reads "1", never "1-1.5".
    expect(labels(ratioBinning([1, 1, 2, 2.5, 3, 3.5, 4, 6, 7, 8], { maxExact: 3 }))).toEqual([
      "1",
      "2-2.5",
      "3-3.5",
      "4-8",
    ]);
  });

  it("labels length bins by the lengths in them", () => {
    expect(labels(lengthBinning([6, 6, 6]))).toEqual(["6"]);
    expect(labels(lengthBinning([4, 5, 7, 8, 15, 9, 13]))).toEqual(["4-7", "8-15"]);
    expect(labels(lengthBinning([9, 13, 1]))).toEqual(["1", "9-13"]);
  });

  it("refuses a value outside the bins it was built from", () => {
    const binning = lengthBinning([4, 5]);
    expect(spanOf(binning, 5).key).toBe(4);
    expect(() => spanOf(binning, 7)).toThrow(/outside the bins/);
    expect(() => spanOf(binning, 9)).toThrow(/outside the bins/);
    expect(labels(ratioBinning([]))).toEqual([]);
  });
});
