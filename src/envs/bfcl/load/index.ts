// Loading a BFCL data dir (upstream's layout): the entries of each category with their parsed ground truth, the
// function docs and what each turn offers, the module constants (default states, long-context extensions) in
// upstream's key order, and the dataset that holds them all, loaded once; by default from the copy bundled with
// budgetrl (data/bfcl).
export { BUNDLED_BFCL_DATA_DIR, resolveDataDir } from "./bundled-data.js";
export { loadBfclDataset, type BfclDataset, type LoadOptions } from "./dataset.js";
export {
  answerFile,
  BFCL_CATEGORIES,
  dataFile,
  loadCategory,
  loadEntries,
  parseCategories,
  type BfclCategory,
  type BfclEntry,
  type GroundTruthCall,
} from "./entries.js";
export {
  entryFunctions,
  LANGUAGE_HINT,
  loadFuncDocs,
  offeredAt,
  toolSpec,
  type EntryFunctions,
  type FuncDoc,
} from "./func-docs.js";
export { DATA_DIR_HINT, readJsonFile, readJsonLinesFile, type Origin } from "./json-files.js";
export { loadConstants, restoreEllipsis } from "./module-constants.js";
