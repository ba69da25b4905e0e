// The view's query strings read once, at the edge, into typed values: a list filter, an episode's key, a page number,
// a sort, the runs list's query. A value that cannot be one (a sample that is not a number, an outcome the view does
// not know) is a 400 naming the parameter, never a query with it.
import { HttpError } from "../serve/errors.js";
import { EPISODE_OUTCOMES, type EpisodeFilter, type EpisodeOutcomeFilter } from "../store/episode-list.js";
import type { EpisodeKeyValues } from "../store/pages.js";
import type { RunsQuery } from "./runs-data.js";

const badParameter = (name: string, problem: string): HttpError =>
  new HttpError(400, `query parameter "${name}": ${problem}`);

/** A parameter's value; undefined when it is absent or empty (an empty form field). */
export function textParam(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === "" ? undefined : value;
}

/** A required parameter. */
export function requiredParam(params: URLSearchParams, name: string): string {
  const value = textParam(params, name);
  if (value === undefined) throw badParameter(name, "missing");
  return value;
}

/** A whole number >= `min`, or undefined when absent. */
export function integerParam(params: URLSearchParams, name: string, min = 0): number | undefined {
  const value = textParam(params, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value) || Number(value) < min)
    throw badParameter(name, `expected a whole number >= ${min}, got "${value}"`);
  return Number(value);
}

/** A 1-based page number (1 when absent). */
export const pageParam = (params: URLSearchParams, name: string): number => integerParam(params, name, 1) ?? 1;

/** One of `values`, or undefined when absent. */
export function choiceParam<T extends string>(
  params: URLSearchParams,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = textParam(params, name);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value))
    throw badParameter(name, `expected one of ${values.join(", ")}, got "${value}"`);
  return value as T;
}

/** An episode list filter from its parameters (`prefix` as report/view-links.ts writes them). */
export function filterParam(params: URLSearchParams, prefix = ""): EpisodeFilter {
  const budget = textParam(params, `${prefix}budget`);
  const sample = integerParam(params, `${prefix}sample`);
  const task = integerParam(params, `${prefix}task`);
  const outcome = choiceParam<EpisodeOutcomeFilter>(params, `${prefix}outcome`, EPISODE_OUTCOMES);
  return {
    ...(budget === undefined ? {} : { budget }),
    ...(sample === undefined ? {} : { sample }),
    ...(task === undefined ? {} : { task }),
    ...(outcome === undefined ? {} : { outcome }),
  };
}

/** An episode's key: task, budget and sample, all required. */
export function episodeKeyParam(params: URLSearchParams): EpisodeKeyValues {
  const task = integerParam(params, "task");
  const sample = integerParam(params, "sample");
  if (task === undefined) throw badParameter("task", "missing");
  if (sample === undefined) throw badParameter("sample", "missing");
  return [task, requiredParam(params, "budget"), sample];
}

export type SortDirection = "asc" | "desc";

/** A sort: a column name and a direction (ascending unless "desc"). */
export function sortParam(
  params: URLSearchParams,
  name: string,
  fallback: string,
): { readonly column: string; readonly direction: SortDirection } {
  const column = textParam(params, name) ?? fallback;
  const direction = choiceParam<SortDirection>(params, `${name}-dir`, ["asc", "desc"]) ?? "asc";
  return { column, direction };
}

/** The runs list's search, filters, named runs and page. */
export function runsQueryParam(params: URLSearchParams): RunsQuery {
  const search = textParam(params, "q");
  const env = textParam(params, "env");
  const mode = textParam(params, "mode");
  const status = textParam(params, "status");
  return {
    ...(search === undefined ? {} : { search }),
    ...(env === undefined ? {} : { env }),
    ...(mode === undefined ? {} : { mode }),
    ...(status === undefined ? {} : { status }),
    runs: params.getAll("run").filter((run) => run !== ""),
    page: pageParam(params, "page"),
  };
}
