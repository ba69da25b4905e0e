// JSONL export: one trajectory per line (the episode with its turns), in key order, so equal runs export
// byte-identical files.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Episode } from "../core/episode.js";
import type { Store } from "./open.js";
import { readEpisodes } from "./episodes.js";
import { getRun, loadTasks } from "./runs.js";

export function episodeToJsonLine(episode: Episode): string {
  return JSON.stringify(episode);
}

/** Write a run's trajectories to `out` (a path, or "-" for stdout). Returns the number of lines written. */
export async function exportRunJsonl(store: Store, runId: string, out: string): Promise<number> {
  const run = getRun(store, runId);
  const taskIds = new Map(loadTasks(store, runId).map((task) => [task.index, task.id]));
  const stream = out === "-" ? process.stdout : createWriteStream(out);
  let lines = 0;
  for (const episode of readEpisodes(store, runId, run.env, taskIds)) {
    if (!stream.write(`${episodeToJsonLine(episode)}\n`)) await once(stream, "drain");
    lines++;
  }
  if (stream !== process.stdout) {
    stream.end();
    await once(stream, "finish");
  }
  return lines;
}
