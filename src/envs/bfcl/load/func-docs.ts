// Function docs: which functions the model is offered at each user turn, and in what form.
//
// As upstream (bfcl_eval/utils.py populate_test_cases_with_predefined_functions, add_language_specific_hint_to_
// function_doc; model_handler/utils.py convert_to_tool): an entry's functions are the docs of its involved
// classes, in class order; miss_func's held-out functions are taken out (first doc of that name) and appended
// again, in turn order, when their turn comes; every doc that was in the list at load time gets the Python
// language hint appended to its description (held-out docs were already out, so they come back without it).
// Our addition: excluded_function names are never offered (upstream's code at the pinned commit ignores the
// field; its data commit says those functions are held out to keep one canonical path per entry).
import { join } from "node:path";
import type { JsonObject } from "../../../core/json.js";
import type { ToolSpec } from "../../../core/message.js";
import { BFCL_FUNC_DOC_FILES } from "../apis/class-registry.js";
import { pyToJson } from "../py/to-json.js";
import { isDict, type PyDict, type PyValue } from "../py/value.js";
import type { BfclEntry } from "./entries.js";
import { dataError, dictAt, readJsonLinesFile, stringAt } from "./json-files.js";

/** Appended to every offered description (upstream _get_language_specific_hint for Python categories). */
export const LANGUAGE_HINT = " Note that the provided function is in Python 3 syntax.";

/** One function doc line: {name, description, parameters, response}, kept as loaded (key order matters). */
export interface FuncDoc {
  readonly name: string;
  readonly className: string;
  readonly doc: PyDict;
}

/** Read the docs of `classNames` from `<dataDir>/func_doc/`; `files` maps a class name to its file name. */
export function loadFuncDocs(
  dataDir: string,
  classNames: Iterable<string>,
  files: Readonly<Record<string, string>> = BFCL_FUNC_DOC_FILES,
): Map<string, FuncDoc[]> {
  const out = new Map<string, FuncDoc[]>();
  for (const className of classNames) {
    if (out.has(className)) continue;
    const fileName = files[className];
    if (fileName === undefined)
      throw dataError(
        { file: join(dataDir, "func_doc"), line: 0 },
        `no function doc file is known for class "${className}"`,
      );
    const docs = readJsonLinesFile(join(dataDir, "func_doc", fileName)).map(({ value, origin }) => {
      const doc = dictAt(origin, "a function doc", value);
      const name = stringAt(origin, "name", doc.get("name"));
      stringAt(origin, `description of ${name}`, doc.get("description"));
      const parameters = dictAt(origin, `parameters of ${name}`, doc.get("parameters"));
      dictAt(origin, `parameters.properties of ${name}`, parameters.get("properties"));
      return { name, className, doc };
    });
    out.set(className, docs);
  }
  return out;
}

function withHint(doc: FuncDoc): FuncDoc {
  const copy: PyDict = new Map(doc.doc);
  copy.set("description", `${String(doc.doc.get("description"))}${LANGUAGE_HINT}`);
  return { ...doc, doc: copy };
}

/** The offered functions of an entry: the initial list and what each miss_func turn adds. */
export interface EntryFunctions {
  /** Offered from turn 0 (language hint included). */
  readonly initial: readonly FuncDoc[];
  /** Turn index -> docs appended at that turn (no hint, as upstream). */
  readonly added: ReadonlyMap<number, readonly FuncDoc[]>;
  /** Every function name of the involved classes, excluded ones included. */
  readonly allNames: ReadonlySet<string>;
}

export function entryFunctions(entry: BfclEntry, docs: ReadonlyMap<string, readonly FuncDoc[]>): EntryFunctions {
  const list: FuncDoc[] = entry.involvedClasses.flatMap((className) => {
    const classDocs = docs.get(className);
    if (classDocs === undefined)
      throw dataError(entry.origin, `${entry.id}: no function docs loaded for class "${className}"`);
    return classDocs;
  });
  const allNames = new Set(list.map((doc) => doc.name));
  const added = new Map<number, FuncDoc[]>();
  for (const [turn, names] of entry.missedFunctions) {
    const heldOut: FuncDoc[] = [];
    for (const name of names) {
      const index = list.findIndex((doc) => doc.name === name);
      if (index >= 0) heldOut.push(...list.splice(index, 1));
    }
    added.set(turn, heldOut);
  }
  const excluded = new Set(entry.excludedFunctions);
  const keep = (doc: FuncDoc): boolean => !excluded.has(doc.name);
  return {
    initial: list.filter(keep).map(withHint),
    added: new Map([...added].map(([turn, heldOut]) => [turn, heldOut.filter(keep)])),
    allNames,
  };
}

/** Docs offered at `turn` (what the model sees in that turn), in upstream's order. */
export function offeredAt(functions: EntryFunctions, turn: number): FuncDoc[] {
  const out = [...functions.initial];
  for (const [addedTurn, docs] of functions.added) if (addedTurn <= turn) out.push(...docs);
  return out;
}

// GORILLA_TO_OPENAPI (bfcl_eval/constants/type_mappings.py), the types that occur in multi-turn docs and more.
const OPENAPI_TYPES: Readonly<Record<string, string>> = {
  integer: "integer",
  number: "number",
  float: "number",
  string: "string",
  boolean: "boolean",
  bool: "boolean",
  array: "array",
  list: "array",
  dict: "object",
  object: "object",
  tuple: "array",
  any: "string",
  byte: "integer",
  short: "integer",
  long: "integer",
  double: "number",
  char: "string",
  ArrayList: "array",
  Array: "array",
  HashMap: "object",
  Hashtable: "object",
  Queue: "array",
  Stack: "array",
  Any: "string",
  String: "string",
  Bigint: "integer",
};

function openApiType(type: PyValue | undefined): string {
  return typeof type === "string" ? (OPENAPI_TYPES[type] ?? "string") : "string";
}

function castItems(items: PyDict): PyDict {
  const out: PyDict = new Map(items);
  out.set("type", openApiType(items.get("type")));
  const inner = items.get("items");
  if (out.get("type") === "array" && isDict(inner)) out.set("items", castItems(inner));
  const properties = items.get("properties");
  if (out.get("type") === "object" && isDict(properties)) out.set("properties", castProperties(properties));
  return out;
}

/** upstream _cast_to_openai_type: Gorilla types to OpenAPI ones; floats get format "float" and a note. */
function castProperties(properties: PyDict): PyDict {
  const out: PyDict = new Map();
  for (const [key, value] of properties) {
    if (!isDict(value)) {
      out.set(key, value);
      continue;
    }
    const property: PyDict = new Map(value);
    const type = value.get("type");
    if (type === "float") {
      property.set("format", "float");
      property.set("description", `${String(value.get("description") ?? "")} This is a float type value.`);
    }
    property.set("type", type === undefined ? "string" : openApiType(type));
    const nested = property.get("properties");
    const items = property.get("items");
    if (property.get("type") === "array" || property.get("type") === "object") {
      if (isDict(nested)) property.set("properties", castProperties(nested));
      else if (isDict(items)) property.set("items", castItems(items));
    }
    out.set(key, property);
  }
  return out;
}

/** An offered doc as an OpenAI tool (upstream convert_to_tool for OpenAI chat completions). */
export function toolSpec(doc: FuncDoc): ToolSpec {
  const parameters: PyDict = new Map(dictAt({ file: doc.className, line: 0 }, "parameters", doc.doc.get("parameters")));
  parameters.set("type", "object");
  const properties = parameters.get("properties");
  if (isDict(properties)) parameters.set("properties", castProperties(properties));
  return {
    name: doc.name,
    description: String(doc.doc.get("description") ?? ""),
    parameters: pyToJson(parameters) as JsonObject,
  };
}
