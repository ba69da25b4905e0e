// Run async jobs with at most `limit` in flight. Results are delivered as jobs finish; the caller decides what
// to do with them (the rollout engine writes them to the store). A failing job rejects the whole pool after the
// jobs in flight settle, so nothing half-written is left behind.

export async function runPool<TJob>(jobs: Iterable<TJob>, limit: number, work: (job: TJob) => Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`runPool: limit must be a positive integer, got ${limit}`);
  const iterator = jobs[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failure !== undefined || signal?.aborted === true) return;
      const next = iterator.next();
      if (next.done === true) return;
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  if (failure !== undefined) throw failure.error;
}
