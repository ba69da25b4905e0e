// GorillaFileSystem._load_scenario: builds the tree from the scenario's nested dicts
// ({"root": {"<root name>": {"type": "directory", "contents": {...}}}}; entries {"type": "file", "content": ...}).
// With long_context, every file not listed in FILES_TAIL_USED gets FILE_CONTENT_EXTENSION appended, and every
// directory without subdirectories is filled with the empty files named in POPULATE_FILE_EXTENSION.
import type { BfclConstants } from "../../api.js";
import { pyDictItem, pyIn, pyIterate, requireDict } from "../../py/containers.js";
import { pyRaise } from "../../py/errors.js";
import { pyPlus } from "../../py/operators.js";
import { dictGet, pyEquals, type PyDict, type PyValue } from "../../py/value.js";
import type { GorillaFileSystemInstance } from "./instance.js";
import { addFile, createDirectory, createFile, type FsDirectory } from "./tree.js";

interface LongContextData {
  readonly enabled: boolean;
  readonly fileContentExtension: PyValue;
  readonly filesTailUsed: PyValue;
  readonly populateNames: readonly PyValue[];
}

function longContextData(constants: BfclConstants, enabled: boolean): LongContextData {
  const constant = (name: string): PyValue => {
    const value = dictGet(constants.longContext, name);
    if (value === undefined) throw new Error(`BFCL constants: long_context.json has no ${name}; hint: pass the data dir's long_context.json`);
    return value;
  };
  if (!enabled) return { enabled, fileContentExtension: "", filesTailUsed: [], populateNames: [] };
  return {
    enabled,
    fileContentExtension: constant("FILE_CONTENT_EXTENSION"),
    filesTailUsed: constant("FILES_TAIL_USED"),
    populateNames: pyIterate(constant("POPULATE_FILE_EXTENSION")),
  };
}

function loadDirectory(entries: PyValue, parent: FsDirectory, data: LongContextData): FsDirectory {
  let bottommost = true;
  for (const [name, entry] of requireDict(entries, "items")) {
    if (typeof name !== "string") pyRaise("TypeError", "budgetrl's file system supports only str names");
    const type = pyDictItem(requireDict(entry, "__getitem__"), "type");
    if (pyEquals(type, "directory")) {
      bottommost = false;
      const child = createDirectory(name, parent);
      loadDirectory(pyDictItem(requireDict(entry, "__getitem__"), "contents"), child, data);
      parent.contents.set(name, child);
    } else if (pyEquals(type, "file")) {
      let content = pyDictItem(requireDict(entry, "__getitem__"), "content");
      if (data.enabled && !pyIn(name, data.filesTailUsed)) content = pyPlus(content, data.fileContentExtension);
      parent.contents.set(name, createFile(name, content));
    }
  }
  if (bottommost && data.enabled) for (const name of data.populateNames) addFile(parent, name);
  return parent;
}

/** Upstream _load_scenario(scenario, long_context). */
export function loadFileSystem(instance: GorillaFileSystemInstance, constants: BfclConstants, scenario: PyDict, longContext: boolean): void {
  const data = longContextData(constants, longContext);
  instance.vars.set("long_context", longContext);
  let root = createDirectory("/", null);
  const rootEntry = dictGet(scenario, "root");
  if (rootEntry !== undefined) {
    const named = requireDict(rootEntry, "keys");
    const first = [...named.keys()][0];
    if (first === undefined) pyRaise("IndexError", "list index out of range");
    if (typeof first !== "string") pyRaise("TypeError", "budgetrl's file system supports only str names");
    const contents = pyDictItem(requireDict(pyDictItem(named, first), "__getitem__"), "contents");
    root = loadDirectory(contents, createDirectory(first, null), data);
  }
  instance.vars.set("root", root);
  instance.currentDir = root;
}
