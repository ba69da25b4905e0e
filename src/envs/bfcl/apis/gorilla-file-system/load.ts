// GorillaFileSystem._load_scenario: builds the tree from the scenario's nested dicts
// ({"root": {"<root name>": {"type": "directory", "contents": {...}}}}; entries {"type": "file", "content": ...}).
// With long_context, every file not listed in FILES_TAIL_USED gets FILE_CONTENT_EXTENSION appended, and every
// directory without subdirectories is filled with the empty files named in POPULATE_FILE_EXTENSION.
import { requireDict } from "../../py/container-methods.js";
import { pyContains, pyIterate } from "../../py/containers.js";
import { pyRaise } from "../../py/errors.js";
import { pyBinary } from "../../py/operators.js";
import { pyGetItem } from "../../py/subscript.js";
import { pyEquals, type PyDict, type PyValue } from "../../py/value.js";
import type { BfclConstants } from "../backend-class.js";
import { longContextConstant } from "../backend-support.js";
import type { GorillaFileSystemInstance } from "./instance.js";
import { addFile, createDirectory, createFile, type FsDirectory } from "./tree.js";

interface LongContextData {
  readonly enabled: boolean;
  readonly fileContentExtension: PyValue;
  readonly filesTailUsed: PyValue;
  readonly populateNames: readonly PyValue[];
}

function longContextData(constants: BfclConstants, enabled: boolean): LongContextData {
  const constant = (name: string): PyValue => longContextConstant(constants, name);
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
    const type = pyGetItem(requireDict(entry, "__getitem__"), "type");
    if (pyEquals(type, "directory")) {
      bottommost = false;
      const child = createDirectory(name, parent);
      loadDirectory(pyGetItem(requireDict(entry, "__getitem__"), "contents"), child, data);
      parent.contents.set(name, child);
    } else if (pyEquals(type, "file")) {
      let content = pyGetItem(requireDict(entry, "__getitem__"), "content");
      if (data.enabled && !pyContains(data.filesTailUsed, name))
        content = pyBinary("+", content, data.fileContentExtension);
      parent.contents.set(name, createFile(name, content));
    }
  }
  if (bottommost && data.enabled) for (const name of data.populateNames) addFile(parent, name);
  return parent;
}

/** Upstream _load_scenario(scenario, long_context). */
export function loadFileSystem(
  instance: GorillaFileSystemInstance,
  constants: BfclConstants,
  scenario: PyDict,
  longContext: boolean,
): void {
  const data = longContextData(constants, longContext);
  instance.vars.set("long_context", longContext);
  let root = createDirectory("/", null);
  const rootEntry = scenario.get("root");
  if (rootEntry !== undefined) {
    const named = requireDict(rootEntry, "keys");
    const first = [...named.keys()][0];
    if (first === undefined) pyRaise("IndexError", "list index out of range");
    if (typeof first !== "string") pyRaise("TypeError", "budgetrl's file system supports only str names");
    const contents = pyGetItem(requireDict(pyGetItem(named, first), "__getitem__"), "contents");
    root = loadDirectory(contents, createDirectory(first, null), data);
  }
  instance.vars.set("root", root);
  instance.currentDir = root;
}
