// The addresses of `budgetrl view`'s pages, written once: the view serves them, and report.html and `show` print them
// when given the view's address (--view-url), so a cell of a table opens its episodes. Every part of a run's name,
// a budget label or a filter goes into the query string through URLSearchParams, never into the path.
import type { EpisodeFilter } from "../store/episode-list.js";

/** The view's pages. */
export const VIEW_PATHS = { runs: "/", run: "/run", episode: "/episode", compare: "/compare" } as const;

/** One stored episode: its run and key. */
export interface EpisodeAddress {
  readonly run: string;
  readonly task: number;
  readonly budget: string;
  readonly sample: number;
}

/** The query parameters of a list filter; `prefix` sets them apart on a page whose own parameters share names. */
export function filterParams(filter: EpisodeFilter, prefix = ""): [string, string][] {
  const params: [string, string][] = [];
  if (filter.budget !== undefined) params.push([`${prefix}budget`, filter.budget]);
  if (filter.sample !== undefined) params.push([`${prefix}sample`, String(filter.sample)]);
  if (filter.task !== undefined) params.push([`${prefix}task`, String(filter.task)]);
  if (filter.outcome !== undefined) params.push([`${prefix}outcome`, filter.outcome]);
  return params;
}

/** A path with its query; `base` is the view's address (empty for links inside the view). */
export function viewUrl(base: string, path: string, params: readonly (readonly [string, string])[] = []): string {
  const query = new URLSearchParams(params.map(([name, value]): [string, string] => [name, value])).toString();
  return `${base.replace(/\/+$/, "")}${path}${query === "" ? "" : `?${query}`}`;
}

/** The runs list, optionally only the runs named. */
export function runsUrl(base: string, runs: readonly string[] = []): string {
  return viewUrl(
    base,
    VIEW_PATHS.runs,
    runs.map((run) => ["run", run]),
  );
}

/** A run's page, its episode list under `filter` (opened at the list when a filter is given). */
export function runUrl(base: string, run: string, filter: EpisodeFilter = {}): string {
  const params = filterParams(filter);
  return `${viewUrl(base, VIEW_PATHS.run, [["id", run], ...params])}${params.length === 0 ? "" : "#episodes"}`;
}

/** An episode's page; `within` is the list it was opened from (its next and previous episodes are that list's). */
export function episodeUrl(base: string, episode: EpisodeAddress, within: EpisodeFilter = {}): string {
  return viewUrl(base, VIEW_PATHS.episode, [
    ["run", episode.run],
    ["task", String(episode.task)],
    ["budget", episode.budget],
    ["sample", String(episode.sample)],
    ...filterParams(within, "in-"),
  ]);
}

/** The comparison of runs on the same tasks, optionally one task's episodes side by side. */
export function compareUrl(
  base: string,
  runs: readonly string[],
  focus: { readonly budget?: string; readonly task?: string; readonly sample?: number } = {},
): string {
  const params: [string, string][] = runs.map((run) => ["run", run]);
  if (focus.budget !== undefined) params.push(["budget", focus.budget]);
  if (focus.task !== undefined) params.push(["task", focus.task]);
  if (focus.sample !== undefined) params.push(["sample", String(focus.sample)]);
  return viewUrl(base, VIEW_PATHS.compare, params);
}
