// GorillaFileSystem commands that move around or look at the tree as a whole: pwd, ls, cd, find, du, and the
// shared path resolution (upstream _navigate_to_directory). pwd walks parent links up to a directory with no
// parent; since upstream compares names against the root object (never equal), the root's own name is part of
// the path ("/workspace/documents", or "//" for the default root named "/").
import { pyContains } from "../../py/containers.js";
import { pyRaise } from "../../py/errors.js";
import { formatFixed } from "../../py/format-spec.js";
import { pyStr } from "../../py/format.js";
import { strReceiver } from "../../py/str-methods.js";
import { pyRstrip, pyStrip, utf8Length } from "../../py/text.js";
import { pyDictOf, pyEquals, pyTruthy, type PyDict, type PyValue } from "../../py/value.js";
import { argument, errorResult } from "../backend-support.js";
import { currentOf, rootOf, type FsMethod, type GorillaFileSystemInstance } from "./instance.js";
import { getItem, isDirectory, isFile, type FsDirectory } from "./tree.js";

/** Upstream _navigate_to_directory: the target directory, or the "cd: '<path>': No such file or directory" dict. */
export function navigate(instance: GorillaFileSystemInstance, path: PyValue): FsDirectory | PyDict {
  if (path === null || pyEquals(path, ".")) return currentOf(instance);
  if (pyEquals(path, "/")) return rootOf(instance);
  const text = strReceiver(path, "strip");
  let directory = text.startsWith("/") ? rootOf(instance) : currentOf(instance);
  for (const name of pyStrip(text, "/").split("/")) {
    const next = getItem(directory, name);
    if (!isDirectory(next)) return errorResult(`cd: '${text}': No such file or directory`);
    directory = next;
  }
  return directory;
}

const pwd: FsMethod = {
  params: [],
  run(instance) {
    const names: string[] = [];
    for (let directory: FsDirectory | null = currentOf(instance); directory !== null; directory = directory.parent)
      names.push(directory.name);
    return pyDictOf({ current_working_directory: `/${names.reverse().join("/")}` });
  },
};

const ls: FsMethod = {
  params: [{ name: "a", default: false }],
  run(instance, args) {
    let names = [...currentOf(instance).contents.keys()].map(String);
    if (!pyTruthy(argument(args, "a"))) names = names.filter((name) => !name.startsWith("."));
    return pyDictOf({ current_directory_content: names });
  },
};

const cd: FsMethod = {
  params: [{ name: "folder" }],
  run(instance, args) {
    let folder = pyRstrip(strReceiver(argument(args, "folder"), "rstrip"), "/");
    if (folder === "") folder = "/";
    if (![".", "..", "/"].includes(folder) && folder.includes("/")) {
      return errorResult(`cd: ${folder}: Unsupported path. Only one folder level at a time is supported.`);
    }
    if (folder === "..") {
      const current = currentOf(instance);
      if (current.parent !== null) instance.currentDir = current.parent;
      else if (pyEquals(rootOf(instance), current))
        return errorResult("Current directory is already the root. Cannot go back.");
      else return errorResult("cd: ..: No such directory");
      return new Map();
    }
    const target = navigate(instance, folder);
    if (target instanceof Map) return target;
    instance.currentDir = target;
    return pyDictOf({ current_working_directory: target.name });
  },
};

/** Python's default recursion limit, as the depth at which find/du give up on a cyclic tree. */
const RECURSION_LIMIT = 990;

/** CPython's RecursionError text: find recurses through a Python call, du through sum() over a generator. */
function recursionError(viaCall: boolean): never {
  return pyRaise(
    "RecursionError",
    `maximum recursion depth exceeded${viaCall ? " while calling a Python object" : ""}`,
  );
}

const find: FsMethod = {
  params: [
    { name: "path", default: "." },
    { name: "name", default: null },
  ],
  run(instance, args) {
    const path = argument(args, "path");
    const name = argument(args, "name");
    const target = navigate(instance, path);
    if (target instanceof Map) {
      const message = target.get("error");
      if (typeof message === "string" && message.startsWith("cd:")) return errorResult(message.replace("cd:", "find:"));
      return target;
    }
    const matches: string[] = [];
    const search = (directory: FsDirectory, base: string, depth: number): void => {
      if (depth > RECURSION_LIMIT) recursionError(true);
      for (const [itemName, item] of directory.contents) {
        const itemPath = `${base}/${pyStr(itemName)}`;
        if (name === null || pyContains(itemName, name)) matches.push(itemPath);
        if (isDirectory(item)) search(item, itemPath, depth + 1);
      }
    };
    search(target, pyRstrip(strReceiver(path, "rstrip"), "/"), 0);
    return pyDictOf({ matches });
  },
};

function diskSize(item: PyValue, depth: number): number {
  if (depth > RECURSION_LIMIT) recursionError(false);
  if (isFile(item)) return utf8Length(strReceiver(item.content, "encode"));
  if (isDirectory(item))
    return [...item.contents.values()].reduce((total: number, child) => total + diskSize(child, depth + 1), 0);
  return 0;
}

const du: FsMethod = {
  params: [{ name: "human_readable", default: false }],
  run(instance, args) {
    const target = navigate(instance, null);
    if (target instanceof Map) return target;
    let size = diskSize(target, 0);
    if (!pyTruthy(argument(args, "human_readable"))) return pyDictOf({ disk_usage: `${size} bytes` });
    for (const unit of ["B", "KB", "MB", "GB", "TB"]) {
      if (size < 1024) return pyDictOf({ disk_usage: `${formatFixed(size, 2)} ${unit}` });
      size /= 1024;
    }
    return pyDictOf({ disk_usage: `${formatFixed(size, 2)} PB` });
  },
};

export const navigationMethods = { pwd, ls, cd, find, du };
