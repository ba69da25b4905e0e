// `budgetrl bfcl run`: execute a call list on a fresh instance set of one entry and show every result and the
// final public state, so that users can debug their agents (and we can test against upstream). Calls are one
// list of call strings per user turn (JSON), by default the entry's ground truth; each turn runs with that turn's
// callable functions (config option `callable`, default "unexcluded"). The data dir defaults to the bundled copy.
// Output: JSON, keys sorted, indent 2:
//   {"entry": id, "state": {Class: {attribute: value}}, "turns": [[{"call": text, "result": text}, ...], ...]}
// State values are plain data (check/state-dump.ts): dict keys as strings, sets as sorted lists, files and
// directories as {"__class__": "File"|"Directory", "name", "content"|"contents"}.
import { DataError } from "../../core/errors.js";
import type { AnyBfclClass } from "./apis/backend-class.js";
import { bfclClassRegistry } from "./apis/class-registry.js";
import { createInstanceSet, executeCall } from "./apis/instance-set.js";
import { BFCL_CLASSES } from "./apis/upstream-classes.js";
import { parseCall } from "./calls/parse.js";
import { instancesState } from "./check/state-dump.js";
import { allowedNames, DEFAULT_RULES, type CallableFunctions } from "./context.js";
import { resolveDataDir } from "./load/bundled-data.js";
import { BFCL_CATEGORIES, loadCategory, type BfclCategory, type BfclEntry } from "./load/entries.js";
import { entryFunctions, loadFuncDocs, offeredAt } from "./load/func-docs.js";
import { loadConstants } from "./load/module-constants.js";
import { pyJsonDumps } from "./py/format.js";
import { parsePyJson } from "./py/json.js";
import { isList, type PyDict, type PyValue } from "./py/value.js";

export interface BfclRunOptions {
  /** Default: the data bundled with budgetrl. */
  readonly dataDir?: string;
  /** Entry id, e.g. "multi_turn_base_0". */
  readonly entry: string;
  /** JSON text (or its parse): one list of call strings per user turn. Default: the entry's ground truth. */
  readonly calls?: string | readonly (readonly string[])[];
  readonly callable?: CallableFunctions;
  readonly classes?: readonly AnyBfclClass[];
}

/** The category of an entry id: "multi_turn_long_context_3" -> "long_context". */
export function categoryOfId(id: string): BfclCategory {
  const match = /^multi_turn_(.+)_\d+$/.exec(id);
  const category = match?.[1];
  if (category === undefined || !(BFCL_CATEGORIES as readonly string[]).includes(category)) {
    throw new DataError(
      `bfcl run: "${id}" is not a multi-turn entry id`,
      `ids look like multi_turn_<category>_<n> with category one of ${BFCL_CATEGORIES.join(", ")}`,
    );
  }
  return category as BfclCategory;
}

function callLists(calls: BfclRunOptions["calls"], entry: BfclEntry): string[][] {
  if (calls === undefined) return entry.groundTruth.map((turn) => turn.map(({ text }) => text));
  let value: PyValue;
  if (typeof calls === "string") {
    try {
      value = parsePyJson(calls);
    } catch (error) {
      throw new DataError(
        `bfcl run: the call list is not valid JSON (${(error as Error).message})`,
        "write one list of call strings per user turn, e.g. [[\"cd(folder='document')\"], []]",
      );
    }
  } else value = calls.map((turn) => [...turn]);
  if (!isList(value) || !value.every((turn) => isList(turn) && turn.every((item) => typeof item === "string"))) {
    throw new DataError("bfcl run: the call list must be a JSON list with one list of call strings per user turn");
  }
  const turns = value as string[][];
  if (turns.length > entry.question.length)
    throw new DataError(
      `bfcl run: ${turns.length} turns of calls for ${entry.id}, which has ${entry.question.length} user turns`,
    );
  return turns;
}

export function bfclRun(options: BfclRunOptions): string {
  const registry = bfclClassRegistry(options.classes ?? BFCL_CLASSES);
  const dataDir = resolveDataDir(options.dataDir);
  const entry = loadCategory(dataDir, categoryOfId(options.entry)).find((item) => item.id === options.entry);
  if (entry === undefined) throw new DataError(`bfcl run: no entry "${options.entry}" in ${dataDir}`);
  const involved = registry.resolve(entry.involvedClasses, entry.id);
  const functions = entryFunctions(entry, loadFuncDocs(dataDir, entry.involvedClasses, registry.funcDocFiles));
  const set = createInstanceSet(involved, entry.initialConfig, entry.longContext, loadConstants(dataDir));
  const callable = options.callable ?? DEFAULT_RULES.callable;
  const turns: PyValue[] = callLists(options.calls, entry).map((turn, index) => {
    const allowed = allowedNames(callable, entry, offeredAt(functions, index), set);
    return turn.map((text): PyDict => {
      const verdict = parseCall(text);
      const result = verdict.valid
        ? executeCall(set, verdict.call, allowed).text
        : `Error during execution: invalid syntax (${verdict.message})`;
      return new Map([
        ["call", text],
        ["result", result],
      ]);
    });
  });
  const output: PyDict = new Map<string, PyValue>([
    ["entry", entry.id],
    ["state", instancesState(set.instances)],
    ["turns", turns],
  ]);
  return pyJsonDumps(output, { sortKeys: true, indent: 2 });
}
