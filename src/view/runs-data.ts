// The runs list's data: every run's record read from the runs table, searched and filtered in memory (a store holds
// runs by the hundred, their episodes by the million), sorted (a study folder's runs by seed, env and model, in the
// order of its plan; other stores newest first), then one page, and only for that page the outcomes: episodes,
// successes, policy errors and Pass@1 per budget, the numbers `show` prints (its table at K = 1, without intervals).
import { storedRunOutcomes, tableFor } from "../eval/table.js";
import type { StudyRunGroup } from "../study/run-groups.js";
import { runOutcomeCounts, runRecords, type RunOutcomeCounts } from "../store/run-list.js";
import type { Store } from "../store/store.js";
import { policyText, runFacts, type RunFacts } from "./run-facts.js";

export const RUNS_PER_PAGE = 50;

export interface RunsQuery {
  /** Words every listed run has in its name, env, policy or model (case-insensitive). */
  readonly search?: string;
  readonly env?: string;
  readonly mode?: string;
  readonly status?: string;
  /** Only these runs (report.html's links to a cell's runs). */
  readonly runs: readonly string[];
  readonly page: number;
}

export interface BudgetPass {
  readonly budget: string;
  readonly value: number;
}

export interface RunListEntry {
  readonly facts: RunFacts;
  readonly group: StudyRunGroup | null;
  /** Pass@1 at each budget in axis order (empty without episodes or config). */
  readonly pass1: readonly BudgetPass[];
  readonly tasks: number;
  readonly samples: number;
  readonly episodes: number;
  readonly successes: number;
  readonly errors: number;
}

export interface RunsView {
  readonly entries: readonly RunListEntry[];
  /** Runs matching the query, and in the store. */
  readonly matching: number;
  readonly stored: number;
  readonly page: number;
  readonly pages: number;
  /** The values the filters offer. */
  readonly envs: readonly string[];
  readonly modes: readonly string[];
  readonly statuses: readonly string[];
}

function matches(facts: RunFacts, group: StudyRunGroup | null, query: RunsQuery): boolean {
  const { record } = facts;
  if (query.runs.length > 0 && !query.runs.includes(record.id)) return false;
  if (query.env !== undefined && record.env !== query.env) return false;
  if (query.status !== undefined && record.status !== query.status) return false;
  if (query.mode !== undefined && facts.config?.budgetMode !== query.mode) return false;
  if (query.search === undefined) return true;
  const haystack = [record.id, record.env, policyText(facts), group?.model ?? ""].join("\u0000").toLowerCase();
  return query.search
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")
    .every((word) => haystack.includes(word));
}

async function entryOf(
  store: Store,
  facts: RunFacts,
  group: StudyRunGroup | null,
  outcomes: RunOutcomeCounts,
): Promise<RunListEntry> {
  const { config } = facts;
  const counted = outcomes.counts.reduce((sum, entry) => ({ n: sum.n + entry.n, c: sum.c + entry.c }), { n: 0, c: 0 });
  const totals = { episodes: counted.n + outcomes.errors, successes: counted.c, errors: outcomes.errors };
  if (config === null || counted.n === 0)
    return { facts, group, pass1: [], tasks: config?.tasks ?? 0, samples: config?.samples ?? 0, ...totals };
  const stored =
    config.protocol === "separate"
      ? { counts: outcomes.counts, firstSuccesses: [], bases: new Map() }
      : await storedRunOutcomes(store, facts.record.id, config);
  const table = tableFor({ ...config, bootstrap: 0 }, stored, [1]);
  const pass1 = table.budgets.map((spec, j) => ({ budget: spec.label, value: table.cells[0]?.[j]?.value ?? NaN }));
  return { facts, group, pass1, tasks: table.tasks, samples: table.minSamples, ...totals };
}

/** The order of a study's groups (its plan's), runs outside the plan after them, newest first otherwise. */
function sortedByGroup(
  runs: readonly { facts: RunFacts; group: StudyRunGroup | null }[],
  groups: ReadonlyMap<string, StudyRunGroup>,
): { facts: RunFacts; group: StudyRunGroup | null }[] {
  const order = new Map([...groups.keys()].map((id, at) => [id, at]));
  return [...runs].sort(
    (a, b) => (order.get(a.facts.record.id) ?? order.size) - (order.get(b.facts.record.id) ?? order.size),
  );
}

export async function runsView(
  store: Store,
  groups: ReadonlyMap<string, StudyRunGroup> | null,
  query: RunsQuery,
): Promise<RunsView> {
  const all = (await runRecords(store)).map((record) => ({
    facts: runFacts(record),
    group: groups?.get(record.id) ?? null,
  }));
  const kept = all.filter(({ facts, group }) => matches(facts, group, query));
  const ordered = groups === null ? kept : sortedByGroup(kept, groups);
  const pages = Math.max(1, Math.ceil(ordered.length / RUNS_PER_PAGE));
  const page = Math.min(query.page, pages);
  const shown = ordered.slice((page - 1) * RUNS_PER_PAGE, page * RUNS_PER_PAGE);
  const outcomes = await runOutcomeCounts(
    store,
    shown.map(({ facts }) => facts.record.id),
  );
  const entries = [];
  for (const { facts, group } of shown)
    entries.push(await entryOf(store, facts, group, outcomes.get(facts.record.id) ?? { counts: [], errors: 0 }));
  const distinct = (values: readonly string[]): string[] => [...new Set(values)].sort();
  return {
    entries,
    matching: ordered.length,
    stored: all.length,
    page,
    pages,
    envs: distinct(all.map(({ facts }) => facts.record.env)),
    modes: distinct(all.flatMap(({ facts }) => (facts.config === null ? [] : [facts.config.budgetMode]))),
    statuses: distinct(all.map(({ facts }) => facts.record.status)),
  };
}
