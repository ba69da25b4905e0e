// Outcome counts from episodes held in memory (the store computes the same with SQL): per (task, budget label),
// n finished episodes and c successes, policy errors excluded.
import type { Episode } from "../core/episode.js";
import type { FirstSuccess, OutcomeCounts } from "../core/outcome.js";

export function countOutcomes(
  episodes: Iterable<Pick<Episode, "taskIndex" | "budget" | "success" | "stopReason">>,
): OutcomeCounts[] {
  const counts = new Map<string, { taskIndex: number; budget: string; n: number; c: number }>();
  for (const episode of episodes) {
    if (episode.stopReason === "error") continue;
    const key = `${episode.taskIndex}\u0000${episode.budget.label}`;
    let entry = counts.get(key);
    if (entry === undefined)
      counts.set(key, (entry = { taskIndex: episode.taskIndex, budget: episode.budget.label, n: 0, c: 0 }));
    entry.n += 1;
    if (episode.success) entry.c += 1;
  }
  return [...counts.values()];
}

export function firstSuccessesOf(
  episodes: Iterable<Pick<Episode, "taskIndex" | "successTurn" | "stopReason">>,
): FirstSuccess[] {
  const out: FirstSuccess[] = [];
  for (const episode of episodes)
    if (episode.stopReason !== "error") out.push({ taskIndex: episode.taskIndex, successTurn: episode.successTurn });
  return out;
}
