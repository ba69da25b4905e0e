// Everything an env or a checker needs from a data dir, loaded once: the entries of the chosen categories with
// their ground truth, the function docs of every class they involve, and the constants (default states,
// long-context extensions). Also where each entry's offered functions are computed and cached.
import { DataError } from "../../../core/errors.js";
import type { BfclConstants } from "../apis/backend-class.js";
import { BFCL_FUNC_DOC_FILES, type BfclClassRegistry } from "../apis/class-registry.js";
import { loadEntries, type BfclCategory, type BfclEntry } from "./entries.js";
import { entryFunctions, loadFuncDocs, type EntryFunctions, type FuncDoc } from "./func-docs.js";
import { loadConstants } from "./module-constants.js";

export interface BfclDataset {
  readonly dataDir: string;
  readonly categories: readonly BfclCategory[];
  /** Entries of the categories, category by category, in file order. */
  readonly entries: readonly BfclEntry[];
  readonly byId: ReadonlyMap<string, BfclEntry>;
  /** Class name -> its function docs. */
  readonly docs: ReadonlyMap<string, readonly FuncDoc[]>;
  readonly constants: BfclConstants;
  /** The offered functions of an entry (computed once per entry). */
  functionsOf(entry: BfclEntry): EntryFunctions;
}

export interface LoadOptions {
  /** When given, every entry's classes must be in it (DataError naming them, before any doc is read), and the
   * doc files come from it. */
  readonly registry?: BfclClassRegistry;
  /** Class name -> doc file name, when no registry is given (default: upstream's mapping). */
  readonly funcDocFiles?: Readonly<Record<string, string>>;
}

export function loadBfclDataset(
  dataDir: string,
  categories: readonly BfclCategory[],
  options: LoadOptions = {},
): BfclDataset {
  const entries = loadEntries(dataDir, categories);
  const { registry } = options;
  if (registry !== undefined)
    for (const entry of entries) registry.resolve(entry.involvedClasses, `bfcl entry ${entry.id}`);
  const funcDocFiles = registry?.funcDocFiles ?? options.funcDocFiles ?? BFCL_FUNC_DOC_FILES;
  const byId = new Map<string, BfclEntry>();
  for (const entry of entries) {
    if (byId.has(entry.id)) throw new DataError(`BFCL data: entry id "${entry.id}" appears in two categories`);
    byId.set(entry.id, entry);
  }
  const docs = loadFuncDocs(dataDir, new Set(entries.flatMap((entry) => entry.involvedClasses)), funcDocFiles);
  const constants = loadConstants(dataDir);
  const cache = new Map<string, EntryFunctions>();
  return {
    dataDir,
    categories,
    entries,
    byId,
    docs,
    constants,
    functionsOf(entry) {
      let functions = cache.get(entry.id);
      if (functions === undefined) {
        functions = entryFunctions(entry, docs);
        cache.set(entry.id, functions);
      }
      return functions;
    },
  };
}
