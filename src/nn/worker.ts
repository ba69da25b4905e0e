// Worker-thread entry: receives the shared heap memory and the compiled kernels once, then runs shard jobs
// (jobs.ts) posted by the pool and answers each with its result or its error (a job it cannot read included).
import { parentPort } from "node:worker_threads";
import { runJob, type Job, type JobResult } from "./jobs.js";
import { referenceKernels } from "./kernels/reference.js";
import type { Kernels } from "./kernels/types.js";
import { wasmKernels } from "./kernels/wasm.js";

export interface WorkerInit {
  readonly memory: WebAssembly.Memory;
  readonly module: WebAssembly.Module | null;
  /** This thread's kernel scratch (a heap view). */
  readonly scratch: Float32Array;
}

export type WorkerReply =
  { readonly ok: true; readonly result: JobResult } | { readonly ok: false; readonly message: string };

let kernels: Kernels | undefined;

// A job this thread cannot read (structured clone refused it) is answered as a failure, never dropped: the pool
// waits for an answer to every job it posts.
parentPort?.on("messageerror", (error: Error) => {
  parentPort?.postMessage({ ok: false, message: `the job could not be read in the worker: ${error.message}` });
});

parentPort?.on("message", (message: { init: WorkerInit } | { job: Job }) => {
  if ("init" in message) {
    kernels =
      message.init.module === null
        ? referenceKernels
        : wasmKernels(message.init.memory, message.init.module, message.init.scratch);
    return;
  }
  let reply: WorkerReply;
  try {
    if (kernels === undefined) throw new Error("worker used before init");
    reply = { ok: true, result: runJob(kernels, message.job) };
  } catch (error: unknown) {
    reply = { ok: false, message: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) };
  }
  parentPort?.postMessage(reply);
});
