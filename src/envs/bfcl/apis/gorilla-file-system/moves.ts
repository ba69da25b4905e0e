// GorillaFileSystem commands that restructure the current directory: mv, cp, rm, rmdir. Both source and
// destination are names in the current directory; an existing directory as destination receives the item.
// Moving or copying a directory creates a new Directory object whose contents is the old contents dict
// (mv) or a shallow copy of it (cp), exactly as upstream does, including the aliasing that follows.
import { dictHas, pyContains } from "../../py/containers.js";
import { pyStr } from "../../py/format.js";
import { pyDictOf, pyTruthy, type PyValue } from "../../py/value.js";
import { argument, errorResult } from "../backend-support.js";
import { currentOf, inCurrent, type FsMethod } from "./instance.js";
import { addDirectory, addFile, getItem, isDirectory, isFile, type FsDirectory, type FsNode } from "./tree.js";

/** Put a new File or Directory named `name` into `target`, carrying the source's content or contents. */
function place(target: FsDirectory, name: PyValue, item: FsNode, copyContents: boolean): void {
  if (isFile(item)) {
    addFile(target, name, item.content);
    return;
  }
  const directory = addDirectory(target, name);
  directory.contents = copyContents ? new Map(item.contents) : item.contents;
}

/** Remove a name from the current directory's contents (the caller has checked that it is there). */
function pop(directory: FsDirectory, name: PyValue): void {
  directory.contents.delete(typeof name === "string" ? name : String(name));
}

const mv: FsMethod = {
  params: [{ name: "source" }, { name: "destination" }],
  run(instance, args) {
    const source = argument(args, "source");
    const destination = argument(args, "destination");
    const current = currentOf(instance);
    if (!inCurrent(instance, source))
      return errorResult(`mv: cannot move '${pyStr(source)}': No such file or directory`);
    const item = getItem(current, source);
    if (!isFile(item) && !isDirectory(item))
      return errorResult(`mv: cannot move '${pyStr(source)}': Not a file or directory`);
    if (pyContains(destination, "/"))
      return errorResult("mv: path not allowed in destination. Provide only a file or directory name.");
    if (inCurrent(instance, destination)) {
      const target = getItem(current, destination);
      if (!isDirectory(target))
        return errorResult(`mv: cannot move '${pyStr(source)}' to '${pyStr(destination)}': Not a directory`);
      if (dictHas(target.contents, source)) {
        return errorResult(
          `mv: cannot move '${pyStr(source)}' to '${pyStr(destination)}/${pyStr(source)}': File exists`,
        );
      }
      pop(current, source);
      place(target, source, item, false);
      return pyDictOf({ result: `'${pyStr(source)}' moved to '${pyStr(destination)}/${pyStr(source)}'` });
    }
    pop(current, source);
    place(current, destination, item, false);
    return pyDictOf({ result: `'${pyStr(source)}' moved to '${pyStr(destination)}'` });
  },
};

const cp: FsMethod = {
  params: [{ name: "source" }, { name: "destination" }],
  run(instance, args) {
    const source = argument(args, "source");
    const destination = argument(args, "destination");
    const current = currentOf(instance);
    if (!inCurrent(instance, source))
      return errorResult(`cp: cannot copy '${pyStr(source)}': No such file or directory`);
    const item = getItem(current, source);
    if (!isFile(item) && !isDirectory(item))
      return errorResult(`cp: cannot copy '${pyStr(source)}': Not a file or directory`);
    if (pyContains(destination, "/"))
      return errorResult("cp: path not allowed in destination. Provide only a file or directory name.");
    if (inCurrent(instance, destination)) {
      const target = getItem(current, destination);
      if (!isDirectory(target))
        return errorResult(`cp: cannot copy '${pyStr(source)}' to '${pyStr(destination)}': Not a directory`);
      // Upstream checks for a key "destination/source", which never exists; a clash surfaces from _add_file.
      if (dictHas(target.contents, `${pyStr(destination)}/${pyStr(source)}`)) {
        return errorResult(
          `cp: cannot copy '${pyStr(source)}' to '${pyStr(destination)}/${pyStr(source)}': File exists`,
        );
      }
      place(target, source, item, true);
      return pyDictOf({ result: `'${pyStr(source)}' copied to '${pyStr(destination)}/${pyStr(source)}'` });
    }
    place(current, destination, item, true);
    return pyDictOf({ result: `'${pyStr(source)}' copied to '${pyStr(destination)}'` });
  },
};

const rm: FsMethod = {
  params: [{ name: "file_name" }],
  run(instance, args) {
    const name = argument(args, "file_name");
    if (!inCurrent(instance, name)) return errorResult(`rm: cannot remove '${pyStr(name)}': No such file or directory`);
    const current = currentOf(instance);
    const item = getItem(current, name);
    if (!isFile(item) && !isDirectory(item))
      return errorResult(`rm: cannot remove '${pyStr(name)}': Not a file or directory`);
    pop(current, name);
    return pyDictOf({ result: `'${pyStr(name)}' removed` });
  },
};

const rmdir: FsMethod = {
  params: [{ name: "dir_name" }],
  run(instance, args) {
    const name = argument(args, "dir_name");
    if (!inCurrent(instance, name))
      return errorResult(`rmdir: cannot remove '${pyStr(name)}': No such file or directory`);
    const current = currentOf(instance);
    const item = getItem(current, name);
    if (!isDirectory(item)) return errorResult(`rmdir: cannot remove '${pyStr(name)}': Not a directory`);
    if (pyTruthy(item.contents)) return errorResult(`rmdir: cannot remove '${pyStr(name)}': Directory not empty`);
    pop(current, name);
    return pyDictOf({ result: `'${pyStr(name)}' removed` });
  },
};

export const moveMethods = { mv, cp, rm, rmdir };
