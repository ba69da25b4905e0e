// The ids of a stored run's tasks, in their stored order: what tests compare between runs (distinct draws,
// held-out sets left out, a resumed run against an uninterrupted one).
import { openStore } from "../../src/store/open.js";
import { loadTasks } from "../../src/store/runs.js";

export async function storedIds(db: string, run: string): Promise<string[]> {
  const store = await openStore(db, { readonly: true });
  try {
    return (await loadTasks(store, run)).map((task) => task.id);
  } finally {
    await store.close();
  }
}
