// The view's episode list on both store backends: under every filter (budget, sample, task, each outcome) the count,
// the pages read in turn and each episode's neighbours are exactly those of the stored episodes filtered in memory, in
// the list's order (a budget by its turns: 25% before 100%); one episode read by its key equals the one the export reads.
import { expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import { evaluate } from "../../src/eval/evaluate.js";
import {
  EPISODE_OUTCOMES,
  episodeCount,
  episodeNeighbours,
  episodePage,
  type EpisodeFilter,
  type EpisodeOutcomeFilter,
} from "../../src/store/episode-list.js";
import { taskIdsOf } from "../../src/store/analysis-rows.js";
import { readEpisode } from "../../src/store/episode-read.js";
import { readEpisodes, writeEpisodes } from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import type { EpisodeKeyValues } from "../../src/store/pages.js";
import { collect } from "../helpers/collect.js";
import { describeEachStore } from "../helpers/services.js";

const OUTCOME_OF: Readonly<Record<EpisodeOutcomeFilter, (episode: Episode) => boolean>> = {
  success: (episode) => episode.success,
  failure: (episode) => !episode.success && episode.stopReason !== "error",
  error: (episode) => episode.stopReason === "error",
  invalid: (episode) => episode.turns.some((turn) => turn.invalid),
  truncated: (episode) => episode.stopReason === "max_turns",
};

const keyOf = (episode: Episode): EpisodeKeyValues => [episode.taskIndex, episode.budget.label, episode.sample];

/** The list's order: task, then the budget's turns (25% before 100%), its label, then sample. */
const listOrder = (a: Episode, b: Episode): number =>
  a.taskIndex - b.taskIndex ||
  a.budget.turns - b.budget.turns ||
  (a.budget.label < b.budget.label ? -1 : a.budget.label > b.budget.label ? 1 : 0) ||
  a.sample - b.sample;

function expected(episodes: readonly Episode[], filter: EpisodeFilter): EpisodeKeyValues[] {
  return episodes
    .filter(
      (episode) =>
        (filter.budget === undefined || episode.budget.label === filter.budget) &&
        (filter.sample === undefined || episode.sample === filter.sample) &&
        (filter.task === undefined || episode.taskIndex === filter.task) &&
        (filter.outcome === undefined || OUTCOME_OF[filter.outcome](episode)),
    )
    .sort(listOrder)
    .map(keyOf);
}

/** A run with successes, truncations, an invalid reply and a policy error. */
async function storedEpisodes(db: string): Promise<Episode[]> {
  await evaluate({
    env: "frozenlake",
    policy: "noisy-oracle:0.5",
    tasks: 5,
    samples: 3,
    ks: [1],
    budgets: ["25%", "100%"],
    seed: 3,
    bootstrap: 0,
    db,
    run: "r",
  });
  const store = await openStore(db, { mode: "write" });
  const [first] = await collect(readEpisodes(store, "r", "frozenlake", new Map()));
  const invalid: Episode = {
    ...first!,
    sample: 7,
    turns: first!.turns.map((turn, i) => (i === 0 ? { ...turn, invalid: true, parsedAction: null } : turn)),
  };
  const errored: Episode = { ...first!, sample: 8, success: false, stopReason: "error", error: "server down" };
  await writeEpisodes(store, [invalid, errored]);
  const ids = new Map((await taskIdsOf(store, "r")).map((id, index) => [index, id]));
  const episodes = await collect(readEpisodes(store, "r", "frozenlake", ids));
  await store.close();
  return episodes;
}

const FILTERS: readonly EpisodeFilter[] = [
  {},
  ...EPISODE_OUTCOMES.map((outcome) => ({ outcome })),
  { budget: "25%" },
  { budget: "100%", outcome: "success" },
  { task: 2 },
  { task: 0, sample: 7 },
  { sample: 1, outcome: "failure" },
  { budget: "no such budget" },
];

describeEachStore("the episode list", (backend) => {
  it("counts, pages and steps through exactly the episodes each filter keeps, in the list's order", async () => {
    const db = await backend.fresh("episode-list");
    const episodes = await storedEpisodes(db);
    const store = await openStore(db, { mode: "read" });
    try {
      for (const outcome of EPISODE_OUTCOMES) expect(expected(episodes, { outcome }).length).toBeGreaterThan(0);
      for (const filter of FILTERS) {
        const keys = expected(episodes, filter);
        expect(await episodeCount(store, "r", filter)).toBe(keys.length);
        const paged: EpisodeKeyValues[] = [];
        for (let offset = 0; offset < keys.length + 4; offset += 4)
          for (const row of await episodePage(store, "r", filter, { offset, limit: 4 }))
            paged.push([row.taskIndex, row.budget, row.sample]);
        expect(paged).toEqual(keys);
        for (const [at, key] of keys.entries())
          expect(await episodeNeighbours(store, "r", filter, key)).toEqual({
            previous: keys[at - 1] ?? null,
            next: keys[at + 1] ?? null,
          });
      }
    } finally {
      await store.close();
    }
  });

  it("lists each episode's task id, outcome and invalid replies, and reads one episode whole by its key", async () => {
    const db = await backend.fresh("episode-read");
    const episodes = await storedEpisodes(db);
    const store = await openStore(db, { mode: "read" });
    try {
      const rows = await episodePage(store, "r", {}, { offset: 0, limit: 1000 });
      expect(rows.map((row) => [row.taskId, row.success, row.stopReason, row.turnsUsed, row.invalidTurns])).toEqual(
        [...episodes]
          .sort(listOrder)
          .map((episode) => [
            episode.taskId,
            episode.success,
            episode.stopReason,
            episode.turnsUsed,
            episode.turns.filter((turn) => turn.invalid).length,
          ]),
      );
      for (const episode of [episodes[0]!, episodes.at(-1)!, episodes.find((one) => one.sample === 7)!])
        expect(await readEpisode(store, "r", "frozenlake", keyOf(episode))).toEqual(episode);
      expect(await readEpisode(store, "r", "frozenlake", [0, "25%", 99])).toBeUndefined();
      expect(await readEpisode(store, "other", "frozenlake", keyOf(episodes[0]!))).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
