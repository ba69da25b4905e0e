// The thread pool: jobs run on the calling thread and a worker, results in job order, a failing job rejects
// with its message and leaves the pool usable.
import { describe, expect, it } from "vitest";
import { sharedHeap } from "../../src/nn/heap.js";
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
});
