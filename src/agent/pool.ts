// Run async jobs with at most `limit` in flight; jobs come from any iterable, sync or async (a plan that reads its
// tasks from a store). Results are delivered as jobs finish; the caller decides what
// to do with them (the rollout engine writes them to the store). A failing job rejects the whole pool after the
// jobs in flight settle, so nothing half-written is left behind. A stop signal ends the pool without error: no new
// job starts, and jobs that end with a StoppedError (abandoned by the signal) are not failures.
import { StoppedError } from "../core/errors.js";

export async function runPool<TJob>(
  jobs: Iterable<TJob> | AsyncIterable<TJob>,
  limit: number,
  work: (job: TJob) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  if (!(Number.isInteger(limit) && limit >= 1))
    throw new RangeError(`runPool: limit must be a positive integer, got ${limit}`);
  const iterator: Iterator<TJob> | AsyncIterator<TJob> =
    Symbol.asyncIterator in jobs ? jobs[Symbol.asyncIterator]() : jobs[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  // A function, not a narrowed expression: the signal may abort while a job is awaited.
  const aborted = (): boolean => signal?.aborted === true;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failure !== undefined || aborted()) return;
      try {
        // Planning the next job may fail too (a task that cannot be made or stored): a failure like any other.
        const next = await iterator.next();
        // Planning may have awaited: the pool may have stopped meanwhile.
        if (next.done === true || failure !== undefined || aborted()) return;
        await work(next.value);
      } catch (error) {
        if (!(error instanceof StoppedError && aborted())) failure ??= { error };
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  if (failure !== undefined) throw failure.error;
}
