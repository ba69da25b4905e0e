// The tensor heap: alignment, zeroed memory, reuse after free, growth keeping old views valid.
import { describe, expect, it } from "vitest";
import { createHeap } from "../../src/nn/heap.js";

describe("heap", () => {
  it("allocates aligned zeroed tensors, reuses freed space, and grows without invalidating views", () => {
    const heap = createHeap(1 << 16);
    const a = heap.allocFloats(10);
    a.fill(7);
    expect(a.byteOffset % 64).toBe(0);
    const b = heap.allocInts(3);
    heap.free(a);
    const c = heap.allocFloats(5);
    expect(c.byteOffset).toBe(a.byteOffset);
    expect(Array.from(c)).toEqual([0, 0, 0, 0, 0]);
    b[0] = 42;
    const big = heap.allocFloats(1 << 20);
    expect(big.length).toBe(1 << 20);
    expect(b[0]).toBe(42);
    expect(() => heap.free(new Float32Array(heap.memory.buffer, 64, 1))).toThrow(/no tensor/);
    heap.free(b);
    heap.free(c);
    heap.free(big);
    expect(heap.used()).toBe(0);
  });
});

describe("heap ceiling", () => {
  it("refuses an allocation past its ceiling with nn:out-of-memory and stays usable", () => {
    const heap = createHeap(1 << 16, 4 << 20);
    const small = heap.allocFloats(1000);
    expect(() => heap.allocFloats(2 << 20)).toThrow(/cannot grow past/);
    expect(heap.used()).toBe(4032);
    heap.free(small);
    expect(heap.used()).toBe(0);
    expect(heap.allocFloats(1 << 19).length).toBe(1 << 19);
  });
});
