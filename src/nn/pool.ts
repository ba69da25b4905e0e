// Threads for the shards: the calling thread runs shard 0, worker threads run the others. One pool per
// (heap, backend) per process, created on first use, workers unref'd so they never keep the process alive.
// Workers run this package's own worker module: dist/nn/worker.js when compiled, or src/nn/worker.ts
// through tsx (worker-from-source.mjs) when running from source (vitest, `npx tsx`).
import { Worker } from "node:worker_threads";
import { BudgetrlError } from "../core/errors.js";
import { runJob, type Job, type JobResult } from "./jobs.js";
import type { Kernels } from "./kernels/types.js";
import type { WorkerReply } from "./worker.js";

export interface Pool {
  /** Number of threads, the calling one included. */
  readonly threads: number;
  /** Runs jobs[i] on thread i % threads (job 0 on the calling thread); results in job order. */
  runAll(jobs: readonly Job[]): Promise<JobResult[]>;
}

interface WorkerHandle {
  readonly worker: Worker;
  queue: Promise<unknown>;
}

function startWorker(memory: WebAssembly.Memory, module: WebAssembly.Module | null, scratch: Float32Array): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const worker = new Worker(new URL(fromSource ? "./worker-from-source.mjs" : "./worker.js", import.meta.url));
  worker.postMessage({ init: { memory, module, scratch } });
  worker.unref();
  return worker;
}

function post(handle: WorkerHandle, job: Job): Promise<JobResult> {
  const run = handle.queue.then(
    () =>
      new Promise<JobResult>((resolve, reject) => {
        const onError = (error: Error): void => reject(new BudgetrlError("nn:worker", `worker thread failed: ${error.message}`));
        handle.worker.once("error", onError);
        handle.worker.once("message", (reply: WorkerReply) => {
          handle.worker.off("error", onError);
          if (reply.ok) resolve(reply.result);
          else reject(new BudgetrlError("nn:worker", `shard job failed in a worker: ${reply.message}`));
        });
        handle.worker.postMessage({ job });
      }),
  );
  handle.queue = run.catch(() => undefined);
  return run;
}

/** `scratches[i]` is worker i's kernel scratch (threads - 1 of them). */
export function createPool(kernels: Kernels, memory: WebAssembly.Memory, module: WebAssembly.Module | null, threads: number, scratches: readonly Float32Array[]): Pool {
  const handles: WorkerHandle[] = [];
  for (let i = 1; i < threads; i++) handles.push({ worker: startWorker(memory, module, scratches[i - 1]!), queue: Promise.resolve() });
  return {
    threads,
    async runAll(jobs) {
      const remote: Promise<JobResult>[] = [];
      const local: JobResult[] = [];
      jobs.forEach((job, i) => {
        const thread = i % threads;
        if (thread !== 0) remote.push(post(handles[thread - 1]!, job));
      });
      jobs.forEach((job, i) => {
        if (i % threads === 0) local.push(runJob(kernels, job));
      });
      const remoteResults = await Promise.all(remote);
      let l = 0;
      let r = 0;
      return jobs.map((_, i) => (i % threads === 0 ? local[l++]! : remoteResults[r++]!));
    },
  };
}
