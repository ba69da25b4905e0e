// Threads for the shards: the calling thread runs shard 0, worker threads run the others. One pool per
// (heap, backend) per process, created on first use, workers unref'd so they never keep the process alive.
// Workers run this package's own worker module: dist/nn/worker.js when compiled, or src/nn/worker.ts
// through tsx (worker-from-source.mjs) when running from source (vitest, `npx tsx`).
import { Worker } from "node:worker_threads";
import { BudgetrlError } from "../core/errors.js";
import { runJob, type Job, type JobResult } from "./jobs.js";
import type { Heap } from "./heap.js";
import { referenceKernels } from "./kernels/reference.js";
import type { Kernels } from "./kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "./kernels/wasm.js";
import type { WorkerReply } from "./worker.js";

export interface Pool {
  /** Number of threads, the calling one included. */
  readonly threads: number;
  /** Runs the jobs, `threads` at a time (the first of each round on the calling thread); results in job order. */
  runAll(jobs: readonly Job[]): Promise<JobResult[]>;
}

interface WorkerHandle {
  worker: Worker;
  busy: boolean;
  /** Set when the thread died; the next job starts a fresh one. */
  dead: boolean;
  readonly start: () => Worker;
}

function startWorker(memory: WebAssembly.Memory, module: WebAssembly.Module | null, scratch: Float32Array): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const worker = new Worker(new URL(fromSource ? "./worker-from-source.mjs" : "./worker.js", import.meta.url));
  worker.postMessage({ init: { memory, module, scratch } });
  worker.unref(); // idle workers never keep the process alive; post() refs it while a job runs
  return worker;
}

/**
 * Sends a job now (synchronously, so the worker starts while the calling thread runs its own shard) and
 * resolves with its result. One job per worker at a time: runAll awaits every job before returning.
 */
function post(handle: WorkerHandle, job: Job): Promise<JobResult> {
  if (handle.busy)
    throw new BudgetrlError(
      "nn:worker-busy",
      "a worker got a second job before finishing the first",
      "model calls must not overlap (the model serialises them)",
    );
  if (handle.dead) {
    handle.worker = handle.start();
    handle.dead = false;
  }
  handle.busy = true;
  const worker = handle.worker;
  worker.ref();
  return new Promise<JobResult>((resolve, reject) => {
    const finish = (): void => {
      worker.off("error", onError);
      worker.off("exit", onExit);
      worker.off("message", onMessage);
      worker.off("messageerror", onMessageError);
      worker.unref();
      handle.busy = false;
    };
    const onError = (error: Error): void => {
      finish();
      handle.dead = true;
      reject(new BudgetrlError("nn:worker", `worker thread failed: ${error.message}`));
    };
    const onExit = (code: number): void => {
      finish();
      handle.dead = true;
      reject(new BudgetrlError("nn:worker", `worker thread exited (code ${code}) during a job`));
    };
    const onMessage = (reply: WorkerReply): void => {
      finish();
      if (reply.ok) resolve(reply.result);
      else reject(new BudgetrlError("nn:worker", `shard job failed in a worker: ${reply.message}`));
    };
    // A reply that cannot be read here would otherwise leave the job waiting forever.
    const onMessageError = (error: Error): void => {
      finish();
      reject(new BudgetrlError("nn:worker", `a worker's answer could not be read: ${error.message}`));
    };
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.on("message", onMessage);
    worker.on("messageerror", onMessageError);
    worker.postMessage({ job });
  });
}

/** `scratches[i]` is worker i's kernel scratch (threads - 1 of them). */
export function createPool(
  kernels: Kernels,
  memory: WebAssembly.Memory,
  module: WebAssembly.Module | null,
  threads: number,
  scratches: readonly Float32Array[],
): Pool {
  const handles: WorkerHandle[] = [];
  for (let i = 1; i < threads; i++) {
    const start = (): Worker => startWorker(memory, module, scratches[i - 1]!);
    handles.push({ worker: start(), busy: false, dead: false, start });
  }
  return {
    threads,
    async runAll(jobs) {
      // Jobs beyond one per thread run in rounds.
      const results: JobResult[] = new Array<JobResult>(jobs.length);
      for (let first = 0; first < jobs.length; first += threads) {
        const round = jobs.slice(first, first + threads);
        const remote = round.slice(1).map((job, i) => post(handles[i]!, job));
        let local: JobResult;
        try {
          local = runJob(kernels, round[0]!);
        } catch (error: unknown) {
          await Promise.allSettled(remote);
          throw error;
        }
        results[first] = local;
        (await Promise.all(remote)).forEach((r, i) => (results[first + 1 + i] = r));
      }
      return results;
    },
  };
}

const pools = new Map<string, Pool>();

/** The process-wide pool for (backend, threads) over this heap: its calling-thread kernels and its workers. */
export function poolFor(heap: Heap, backend: "wasm" | "reference", threads: number): Pool {
  const key = `${backend}:${threads}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    const module = backend === "wasm" ? kernelsModule() : null;
    const scratches = Array.from({ length: threads }, () =>
      heap.allocFloats(module === null ? 1 : KERNEL_SCRATCH_FLOATS),
    );
    const kernels = module === null ? referenceKernels : wasmKernels(heap.memory, module, scratches[0]!);
    pool = createPool(kernels, heap.memory, module, threads, scratches.slice(1));
    pools.set(key, pool);
  }
  return pool;
}
