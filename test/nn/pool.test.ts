// The thread pool: jobs run on the calling thread and a worker, results in job order, a failing job rejects
// with its message and leaves the pool usable; a job a worker cannot read rejects instead of waiting forever, and
// the heap at its largest still reaches the workers.
import { describe, expect, it } from "vitest";
import { createHeap, sharedHeap } from "../../src/nn/heap.js";
import type { Job } from "../../src/nn/jobs.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../../src/nn/kernels/wasm.js";
import { createPool } from "../../src/nn/pool.js";

describe("pool", () => {
  it("runs jobs on two threads, reports failures from either, and stays usable", async () => {
    const heap = sharedHeap();
    const module = kernelsModule();
    const kernels = wasmKernels(heap.memory, module, heap.allocFloats(KERNEL_SCRATCH_FLOATS));
    const pool = createPool(kernels, heap.memory, module, 2, [heap.allocFloats(KERNEL_SCRATCH_FLOATS)]);
    const model = { config: { vocabSize: 4 } };
    const empty = { kind: "forward", model, rows: 0 } as unknown as Job;
    const broken = { kind: "forward", model, rows: 3 } as unknown as Job; // no weights or workspace: throws
    expect(await pool.runAll([empty, empty, empty])).toEqual([{ kind: "done" }, { kind: "done" }, { kind: "done" }]);
    await expect(pool.runAll([empty, broken])).rejects.toThrow(/shard job failed in a worker/);
    await expect(pool.runAll([broken, empty])).rejects.toThrow(TypeError);
    expect(await pool.runAll([empty, empty])).toEqual([{ kind: "done" }, { kind: "done" }]);
  });

  it("rejects a job the worker cannot read (a view of a 4 GiB shared buffer, which Node 20 cannot pass to a thread)", async () => {
    const heap = sharedHeap();
    const module = kernelsModule();
    const kernels = wasmKernels(heap.memory, module, heap.allocFloats(KERNEL_SCRATCH_FLOATS));
    const pool = createPool(kernels, heap.memory, module, 2, [heap.allocFloats(KERNEL_SCRATCH_FLOATS)]);
    // Pages are reserved, not touched: growing to 4 GiB costs no memory.
    const full = new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true });
    full.grow(65535);
    const model = { config: { vocabSize: 4 }, unreadable: new Float32Array(full.buffer, 0, 4) };
    const unreadable = { kind: "forward", model, rows: 0 } as unknown as Job;
    const empty = { kind: "forward", model: { config: { vocabSize: 4 } }, rows: 0 } as unknown as Job;
    await expect(pool.runAll([empty, unreadable])).rejects.toThrow(/could not be read in the worker/);
    expect(await pool.runAll([empty, empty])).toEqual([{ kind: "done" }, { kind: "done" }]);
  });

  it("passes a view of the heap at its largest to a worker", async () => {
    // A heap asked for all 4 GiB at once gets its largest (pages reserved, not touched: this costs no memory).
    const heap = createHeap(4 * 2 ** 30);
    expect(heap.memory.buffer.byteLength).toBe(4 * 2 ** 30 - 2 ** 16);
    expect(() => heap.allocFloats(2 ** 30)).toThrow(/cannot grow past 4\.00 GiB/);
    const module = kernelsModule();
    const kernels = wasmKernels(heap.memory, module, heap.allocFloats(KERNEL_SCRATCH_FLOATS));
    const pool = createPool(kernels, heap.memory, module, 2, [heap.allocFloats(KERNEL_SCRATCH_FLOATS)]);
    const model = { config: { vocabSize: 4 }, view: heap.allocFloats(4) };
    const empty = { kind: "forward", model, rows: 0 } as unknown as Job;
    expect(await pool.runAll([empty, empty])).toEqual([{ kind: "done" }, { kind: "done" }]);
  });
});
