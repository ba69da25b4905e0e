// BFCL multi-turn entries and their ground truth, read from a data dir with upstream's layout:
//   data/BFCL_v4_multi_turn_<category>.json             one entry per line: id, question (turns of messages),
//                                                       initial_config, involved_classes, path, and optionally
//                                                       excluded_function, missed_function {turn: [names]}
//   possible_answer/BFCL_v4_multi_turn_<category>.json  one {id, ground_truth} per line, in the same order;
//                                                       ground_truth has one list of call strings per turn
// Every problem is a DataError naming the file and line. Ground-truth calls are parsed once, here.
import { join } from "node:path";
import { ConfigError } from "../../../core/errors.js";
import type { Message, Role } from "../../../core/message.js";
import type { Call } from "../calls/call.js";
import { parseCall } from "../calls/parse.js";
import type { PyDict, PyValue } from "../py/value.js";
import { dataError, dictAt, listAt, readJsonLinesFile, stringAt, stringListAt, type Origin } from "./json-files.js";

export const BFCL_CATEGORIES = ["base", "miss_func", "miss_param", "long_context"] as const;
export type BfclCategory = (typeof BFCL_CATEGORIES)[number];

/** One ground-truth call: the string as written in the data and its parse. */
export interface GroundTruthCall {
  readonly text: string;
  readonly call: Call;
}

export interface BfclEntry {
  /** e.g. "multi_turn_base_0". */
  readonly id: string;
  readonly category: BfclCategory;
  /** Line of the entry in its data file (1-based), for messages. */
  readonly origin: Origin;
  /** One list of messages per user turn; a miss_func turn that re-adds functions has none. */
  readonly question: readonly (readonly Message[])[];
  /** Class name -> scenario dict, loaded into each instance (deep-copied). */
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  /** Upstream's record of the functions the ground truth uses ("Class.method"); informative only. */
  readonly path: readonly string[];
  /** Functions never offered to the model in this entry. */
  readonly excludedFunctions: readonly string[];
  /** miss_func: turn index -> functions held out until that turn (then re-added). */
  readonly missedFunctions: ReadonlyMap<number, readonly string[]>;
  /** One list of calls per user turn; empty when the model should make no call (miss_func, miss_param). */
  readonly groundTruth: readonly (readonly GroundTruthCall[])[];
  /** Upstream loads the long-context extensions for the long_context category. */
  readonly longContext: boolean;
}

export function dataFile(dataDir: string, category: BfclCategory): string {
  return join(dataDir, "data", `BFCL_v4_multi_turn_${category}.json`);
}

export function answerFile(dataDir: string, category: BfclCategory): string {
  return join(dataDir, "possible_answer", `BFCL_v4_multi_turn_${category}.json`);
}

/** Parse a category list ("base,miss_func" or an array); throws ConfigError naming `field`. */
export function parseCategories(value: string | readonly string[], field = "categories"): BfclCategory[] {
  const items = (typeof value === "string" ? value.split(",") : [...value])
    .map((item) => item.trim())
    .filter((item) => item !== "");
  if (items.length === 0)
    throw new ConfigError(field, "at least one category is required", `use some of ${BFCL_CATEGORIES.join(", ")}`);
  const out: BfclCategory[] = [];
  for (const item of items) {
    const name = item.startsWith("multi_turn_") ? item.slice("multi_turn_".length) : item;
    if (!(BFCL_CATEGORIES as readonly string[]).includes(name))
      throw new ConfigError(field, `unknown category "${item}"`, `use some of ${BFCL_CATEGORIES.join(", ")}`);
    if (!out.includes(name as BfclCategory)) out.push(name as BfclCategory);
  }
  return out;
}

const ROLES: readonly Role[] = ["system", "user", "assistant"];

function readQuestion(origin: Origin, value: PyValue | undefined): Message[][] {
  return listAt(origin, "question", value).map((turn, turnIndex) =>
    listAt(origin, `question[${turnIndex}]`, turn).map((item, messageIndex) => {
      const where = `question[${turnIndex}][${messageIndex}]`;
      const message = dictAt(origin, where, item);
      const role = stringAt(origin, `${where}.role`, message.get("role"));
      if (!(ROLES as readonly string[]).includes(role))
        throw dataError(origin, `${where}.role must be one of ${ROLES.join(", ")}, found "${role}"`);
      return { role: role as Role, content: stringAt(origin, `${where}.content`, message.get("content")) };
    }),
  );
}

function readMissed(origin: Origin, value: PyValue | undefined, turns: number): Map<number, string[]> {
  const missed = new Map<number, string[]>();
  if (value === undefined) return missed;
  for (const [key, names] of dictAt(origin, "missed_function", value)) {
    const turn = Number(key);
    if (!(typeof key === "string" && /^\d+$/.test(key) && turn < turns))
      throw dataError(origin, `missed_function key "${String(key)}" is not a turn index below ${turns}`);
    missed.set(turn, stringListAt(origin, `missed_function["${key}"]`, names));
  }
  return new Map([...missed].sort(([a], [b]) => a - b));
}

function readEntry(category: BfclCategory, value: PyValue, origin: Origin): Omit<BfclEntry, "groundTruth"> {
  const record = dictAt(origin, "an entry", value);
  const id = stringAt(origin, "id", record.get("id"));
  const question = readQuestion(origin, record.get("question"));
  const initialConfig = record.has("initial_config")
    ? dictAt(origin, "initial_config", record.get("initial_config"))
    : new Map();
  const involvedClasses = stringListAt(origin, "involved_classes", record.get("involved_classes"));
  const path = record.has("path") ? stringListAt(origin, "path", record.get("path")) : [];
  const excludedFunctions = record.has("excluded_function")
    ? stringListAt(origin, "excluded_function", record.get("excluded_function"))
    : [];
  const missedFunctions = readMissed(origin, record.get("missed_function"), question.length);
  return {
    id,
    category,
    origin,
    question,
    initialConfig,
    involvedClasses,
    path,
    excludedFunctions,
    missedFunctions,
    longContext: category === "long_context",
  };
}

function readGroundTruth(value: PyValue, origin: Origin, expectedId: string, turns: number): GroundTruthCall[][] {
  const record = dictAt(origin, "a ground-truth entry", value);
  const id = stringAt(origin, "id", record.get("id"));
  if (id !== expectedId)
    throw dataError(
      origin,
      `ground truth for "${id}" where "${expectedId}" was expected (both files must list the same ids in the same order)`,
    );
  const turnsList = listAt(origin, "ground_truth", record.get("ground_truth"));
  if (turnsList.length !== turns)
    throw dataError(origin, `ground_truth of ${id} has ${turnsList.length} turns but the question has ${turns}`);
  return turnsList.map((turn, turnIndex) =>
    stringListAt(origin, `ground_truth[${turnIndex}]`, turn).map((text, callIndex) => {
      const verdict = parseCall(text);
      if (!verdict.valid)
        throw dataError(
          origin,
          `ground_truth[${turnIndex}][${callIndex}] of ${id} is not a call (${verdict.message} at ${verdict.position}): ${text}`,
        );
      return { text, call: verdict.call };
    }),
  );
}

/** Every entry of one category, with its ground truth, in file order. */
export function loadCategory(dataDir: string, category: BfclCategory): BfclEntry[] {
  const seen = new Set<string>();
  const entries = readJsonLinesFile(dataFile(dataDir, category)).map(({ value, origin }) => {
    const entry = readEntry(category, value, origin);
    if (seen.has(entry.id)) throw dataError(origin, `duplicate entry id "${entry.id}"`);
    seen.add(entry.id);
    return entry;
  });
  const answersPath = answerFile(dataDir, category);
  const answers = readJsonLinesFile(answersPath);
  if (answers.length !== entries.length) {
    const line = answers.length === 0 ? 1 : (answers[answers.length - 1] as { origin: Origin }).origin.line;
    throw dataError(
      { file: answersPath, line },
      `${answers.length} ground-truth entries for ${entries.length} questions in ${dataFile(dataDir, category)}`,
    );
  }
  return entries.map((entry, index) => {
    const answer = answers[index] as { value: PyValue; origin: Origin };
    return { ...entry, groundTruth: readGroundTruth(answer.value, answer.origin, entry.id, entry.question.length) };
  });
}

/** Every entry of the given categories, category by category, in file order. */
export function loadEntries(dataDir: string, categories: readonly BfclCategory[]): BfclEntry[] {
  return categories.flatMap((category) => loadCategory(dataDir, category));
}
