// Per-task precomputation cache (compiled grids, oracle tables). Lookups go first through a WeakMap on the
// task object (the rollout engine reuses one object for all samples of a task: O(1), no hashing), then
// through a bounded map keyed by the task's canonical text (tasks decoded again from the store), so that
// memory stays bounded however many tasks a long run visits.

export interface TaskCache<Task extends object, Compiled> {
  get(task: Task): Compiled;
  /** Remember a compiled form computed elsewhere (e.g. by the generator, which already built it). */
  put(task: Task, compiled: Compiled): void;
}

export function createTaskCache<Task extends object, Compiled>(
  keyOf: (task: Task) => string,
  compile: (task: Task) => Compiled,
  limit = 64,
): TaskCache<Task, Compiled> {
  const byObject = new WeakMap<Task, Compiled>();
  const byKey = new Map<string, Compiled>();
  const remember = (key: string, task: Task, compiled: Compiled): void => {
    byKey.delete(key);
    if (byKey.size >= limit) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, compiled);
    byObject.set(task, compiled);
  };
  return {
    get(task) {
      const known = byObject.get(task);
      if (known !== undefined) return known;
      const key = keyOf(task);
      const compiled = byKey.get(key) ?? compile(task);
      remember(key, task, compiled);
      return compiled;
    },
    put(task, compiled) {
      remember(keyOf(task), task, compiled);
    },
  };
}
