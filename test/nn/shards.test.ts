// Splitting a batch over shards: consecutive sequences, every one exactly once, totals as even as the order
// allows, and a split that depends on the weights alone.
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/nn/config.js";
import { createHeap } from "../../src/nn/heap.js";
import { allocateWorkspace } from "../../src/nn/workspace.js";
import { ensureWorkspace, shardRanges, type WorkspaceSlot } from "../../src/nn/shards.js";

describe("shardRanges", () => {
  it("splits where the running total is nearest to each shard's share", () => {
    expect(shardRanges([1, 1, 1, 1], 2)).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(shardRanges([1, 1, 1], 2)).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(shardRanges([200, 10, 10, 10, 10, 10, 10, 150], 2)).toEqual([
      [0, 1],
      [1, 8],
    ]); // 200 | 210 and 210 | 200: a tie, the earlier
    expect(shardRanges([5, 5, 100], 2)).toEqual([
      [0, 2],
      [2, 3],
    ]);
    expect(shardRanges([7], 2)).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(shardRanges([], 2)).toEqual([
      [0, 0],
      [0, 0],
    ]);
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

describe("ensureWorkspace when the heap runs out", () => {
  it("throws out-of-memory, leaves the slot empty and frees what it took, so freeing the model afterwards is clean", () => {
    const heap = createHeap(1 << 16, 64 << 20);
    const config = resolveConfig({ contextLength: 64 });
    const slot: WorkspaceSlot = { workspace: undefined };
    ensureWorkspace(heap, config, slot, [8]);
    const before = heap.used();
    expect(before).toBeGreaterThan(0);
    expect(() =>
      ensureWorkspace(
        heap,
        config,
        slot,
        Array.from({ length: 4000 }, () => 64),
      ),
    ).toThrow(/cannot grow past/);
    expect(slot.workspace).toBeUndefined();
    expect(heap.used()).toBe(0);
    ensureWorkspace(heap, config, slot, [8]);
    expect(heap.used()).toBe(before);
  });
});

describe("sample workspaces", () => {
  it("hold less than half the floats per row of a training workspace, and are reallocated when the kind changes", () => {
    const heap = createHeap(1 << 16, 64 << 20);
    const config = resolveConfig({ contextLength: 64 });
    const train = allocateWorkspace(heap, config, 200, 1, "train");
    const sample = allocateWorkspace(heap, config, 200, 1, "sample");
    expect(sample.floats.length).toBeLessThan(train.floats.length / 2);
    expect(sample.layers[2]!.xIn.byteOffset).toBe(sample.layers[0]!.xIn.byteOffset);
    expect(sample.layers[1]!.xIn.byteOffset).not.toBe(sample.layers[0]!.xIn.byteOffset);
    expect(new Set(train.layers.map((layer) => layer.xIn.byteOffset)).size).toBe(config.layers);
    const slot: WorkspaceSlot = { workspace: sample };
    expect(ensureWorkspace(heap, config, slot, [10], "train").kind).toBe("train");
  });
});
