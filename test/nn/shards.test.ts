// Splitting a batch over shards: consecutive sequences, every one exactly once, totals as even as the order
// allows, and a split that depends on the weights alone.
import { describe, expect, it } from "vitest";
import { shardRanges } from "../../src/nn/shards.js";

describe("shardRanges", () => {
  it("splits where the running total is nearest to each shard's share", () => {
    expect(shardRanges([1, 1, 1, 1], 2)).toEqual([[0, 2], [2, 4]]);
    expect(shardRanges([1, 1, 1], 2)).toEqual([[0, 1], [1, 3]]);
    expect(shardRanges([200, 10, 10, 10, 10, 10, 10, 150], 2)).toEqual([[0, 1], [1, 8]]); // 200 | 210 and 210 | 200: a tie, the earlier
    expect(shardRanges([5, 5, 100], 2)).toEqual([[0, 2], [2, 3]]);
    expect(shardRanges([7], 2)).toEqual([[0, 0], [0, 1]]);
    expect(shardRanges([], 2)).toEqual([[0, 0], [0, 0]]);
    expect(shardRanges([3, 1, 4, 1, 5, 9, 2, 6], 1)).toEqual([[0, 8]]);
  });

  it("covers every sequence once, in order, with even totals on real-looking lengths", () => {
    const lengths = Array.from({ length: 45 }, (_, i) => 20 + ((i * 97) % 237));
    const total = lengths.reduce((a, b) => a + b, 0);
    for (const shards of [2, 3]) {
      const ranges = shardRanges(lengths, shards);
      expect(ranges[0]![0]).toBe(0);
      expect(ranges.at(-1)![1]).toBe(lengths.length);
      ranges.forEach(([first, end], s) => {
        if (s > 0) expect(first).toBe(ranges[s - 1]![1]);
        const sum = lengths.slice(first, end).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - total / shards)).toBeLessThanOrEqual(256);
      });
    }
  });
});
