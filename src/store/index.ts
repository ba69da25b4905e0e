// The run store, the package entry "budgetrl/store": opening a store (an SQLite file, the default, or a
// postgres:// URL; each backend loaded only when a store of its kind is opened), its runs and their tasks, the
// stored episodes, the rows the analyses read (for the metrics of the package root), the training log, and JSONL
// export. Writing is evaluate()'s and train()'s: episode writers, the SQL seam (sql.ts), the schema, the dialects
// and store faults are internal.
export {
  episodeOutcomes,
  firstErrorCounts,
  horizonCounts,
  invalidCounts,
  recoveryRows,
  stepCounts,
  taskIdsOf,
} from "./analysis-rows.js";
export { firstSuccesses, outcomeCounts, readEpisodes } from "./episodes.js";
export { episodeToJsonLine, exportRunJsonl } from "./export.js";
export {
  openStore,
  storeLocation,
  withStore,
  type OpenStoreOptions,
  type Store,
  type StoreBackend,
  type StoreMode,
} from "./open.js";
export { isPostgresUrl } from "./postgres/url.js";
export {
  getRun,
  latestRunId,
  listRuns,
  loadTasks,
  runExists,
  type RunRecord,
  type RunStatus,
  type RunSummary,
  type StoredTask,
} from "./runs.js";
export { readTrainSteps } from "./train-log.js";
