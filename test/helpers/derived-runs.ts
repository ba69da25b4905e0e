// Runs derived from a stored run, written straight into the store: what the study's later producers
// (teacher-forced and perturbed rollouts) will store, imitated here so that the report's handling of them can
// be tested now. A derived run copies the source run's tasks and episodes (same keys and seeds), lets the test
// change each episode, and stores a config with extra fields.
import type { Episode } from "../../src/core/episode.js";
import type { Json, JsonObject } from "../../src/core/json.js";
import { createEpisodeWriter, readEpisodes } from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import { createRun, getRun, loadTasks } from "../../src/store/runs.js";
import { collect } from "./collect.js";

export async function deriveRun(
  db: string,
  source: string,
  target: {
    readonly id: string;
    readonly policy?: string;
    readonly config: JsonObject;
    readonly change: (episode: Episode) => Episode;
  },
): Promise<void> {
  const store = await openStore(db);
  try {
    const record = await getRun(store, source);
    const tasks = await loadTasks(store, source);
    await createRun(
      store,
      {
        ...record,
        id: target.id,
        policy: target.policy ?? record.policy,
        config: { ...(record.config as JsonObject), ...target.config } as Json,
        status: "complete",
      },
      tasks,
    );
    const episodes = await collect(readEpisodes(store, source, record.env, new Map()));
    const writer = createEpisodeWriter(store);
    for (const episode of episodes) await writer.write({ ...target.change(episode), run: target.id });
    await writer.flush();
  } finally {
    await store.close();
  }
}
