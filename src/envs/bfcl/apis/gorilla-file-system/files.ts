// GorillaFileSystem commands on single files and directories of the current directory: mkdir, touch, echo,
// cat, wc, sort, grep, tail, diff. File content is whatever was written (echo can store a non-str), and the
// text commands then fail the way Python's str methods fail on it.
import { pyLen } from "../../py/container-methods.js";
import { pyContains } from "../../py/containers.js";
import { pyRaise } from "../../py/errors.js";
import { pyStr } from "../../py/format.js";
import { pyCompare } from "../../py/operators.js";
import { sortedStrings } from "../../py/reductions.js";
import { strReceiver } from "../../py/str-methods.js";
import { pySplitlines, pySplitWhitespace } from "../../py/text.js";
import { isFloat, pyDictOf, pyEquals, pyTruthy, type PyValue } from "../../py/value.js";
import { argument, errorResult } from "../backend-support.js";
import { currentOf, inCurrent, validName, type FsMethod, type GorillaFileSystemInstance } from "./instance.js";
import { addDirectory, addFile, getItem, isFile, type FsFile } from "./tree.js";

/** The File called `name` in the current directory, if there is one (`name in contents` and isinstance File). */
function localFile(instance: GorillaFileSystemInstance, name: PyValue): FsFile | undefined {
  if (!inCurrent(instance, name)) return undefined;
  const item = getItem(currentOf(instance), name);
  return isFile(item) ? item : undefined;
}

const lines = (file: FsFile): string[] => pySplitlines(strReceiver(file.content, "splitlines"));

const mkdir: FsMethod = {
  params: [{ name: "dir_name" }],
  run(instance, args) {
    const name = argument(args, "dir_name");
    if (!validName(name)) return errorResult(`mkdir: cannot create directory '${pyStr(name)}': Invalid character`);
    if (inCurrent(instance, name)) return errorResult(`mkdir: cannot create directory '${pyStr(name)}': File exists`);
    addDirectory(currentOf(instance), name);
    return null;
  },
};

const touch: FsMethod = {
  params: [{ name: "file_name" }],
  run(instance, args) {
    const name = argument(args, "file_name");
    if (!validName(name)) return errorResult(`touch: cannot touch '${pyStr(name)}': Invalid character`);
    if (inCurrent(instance, name)) return errorResult(`touch: cannot touch '${pyStr(name)}': File exists`);
    addFile(currentOf(instance), name);
    return null;
  },
};

const echo: FsMethod = {
  params: [{ name: "content" }, { name: "file_name", default: null }],
  run(instance, args) {
    const content = argument(args, "content");
    const name = argument(args, "file_name");
    if (name === null) return pyDictOf({ terminal_output: content });
    if (!validName(name)) return errorResult(`echo: cannot write to '${pyStr(name)}': Invalid character`);
    if (!pyTruthy(name)) return pyDictOf({ terminal_output: content });
    if (!inCurrent(instance, name)) return errorResult(`echo: cannot write to '${pyStr(name)}': No such file`);
    const item = getItem(currentOf(instance), name);
    if (!isFile(item)) return pyRaise("AttributeError", "'Directory' object has no attribute '_write'");
    item.content = content;
    return null;
  },
};

const cat: FsMethod = {
  params: [{ name: "file_name" }],
  run(instance, args) {
    const name = argument(args, "file_name");
    if (!validName(name)) return errorResult(`cat: '${pyStr(name)}': Invalid character`);
    if (!inCurrent(instance, name)) return errorResult(`cat: '${pyStr(name)}': No such file or directory`);
    const item = getItem(currentOf(instance), name);
    if (isFile(item)) return pyDictOf({ file_content: item.content });
    return errorResult(`cat: '${pyStr(name)}': Is a directory`);
  },
};

const wc: FsMethod = {
  params: [{ name: "file_name" }, { name: "mode", default: "l" }],
  run(instance, args) {
    const name = argument(args, "file_name");
    const mode = argument(args, "mode");
    if (!pyContains(["l", "w", "c"], mode)) return errorResult(`wc: invalid mode '${pyStr(mode)}'`);
    const file = localFile(instance, name);
    if (file !== undefined) {
      if (pyEquals(mode, "l")) return pyDictOf({ count: lines(file).length, type: "lines" });
      if (pyEquals(mode, "w"))
        return pyDictOf({ count: pySplitWhitespace(strReceiver(file.content, "split")).length, type: "words" });
      return pyDictOf({ count: pyLen(file.content), type: "characters" });
    }
    return errorResult(`wc: ${pyStr(name)}: No such file or directory`);
  },
};

const sort: FsMethod = {
  params: [{ name: "file_name" }],
  run(instance, args) {
    const name = argument(args, "file_name");
    const file = localFile(instance, name);
    if (file !== undefined) return pyDictOf({ sorted_content: sortedStrings(lines(file)).join("\n") });
    return errorResult(`sort: ${pyStr(name)}: No such file or directory`);
  },
};

const grep: FsMethod = {
  params: [{ name: "file_name" }, { name: "pattern" }],
  run(instance, args) {
    const name = argument(args, "file_name");
    const pattern = argument(args, "pattern");
    const file = localFile(instance, name);
    if (file !== undefined)
      return pyDictOf({ matching_lines: lines(file).filter((line) => pyContains(line, pattern)) });
    return errorResult(`grep: ${pyStr(name)}: No such file or directory`);
  },
};

/** content[-lines:] with Python's slice rules (the count must be an int or bool). */
function lastLines(content: readonly string[], count: PyValue): string[] {
  if (isFloat(count) || typeof count === "string" || count === null || typeof count === "object") {
    return pyRaise("TypeError", "slice indices must be integers or None or have an __index__ method");
  }
  const start = -Number(count);
  const from = start < 0 ? Math.max(start + content.length, 0) : Math.min(start, content.length);
  return content.slice(from);
}

const tail: FsMethod = {
  params: [{ name: "file_name" }, { name: "lines", default: 10 }],
  run(instance, args) {
    const name = argument(args, "file_name");
    let count = argument(args, "lines");
    const file = localFile(instance, name);
    if (file !== undefined) {
      const content = lines(file);
      if (pyCompare(">", count, content.length)) count = content.length;
      return pyDictOf({ last_lines: lastLines(content, count).join("\n") });
    }
    return errorResult(`tail: ${pyStr(name)}: No such file or directory`);
  },
};

const diff: FsMethod = {
  params: [{ name: "file_name1" }, { name: "file_name2" }],
  run(instance, args) {
    const first = argument(args, "file_name1");
    const second = argument(args, "file_name2");
    if (inCurrent(instance, first) && inCurrent(instance, second)) {
      const a = getItem(currentOf(instance), first);
      const b = getItem(currentOf(instance), second);
      if (isFile(a) && isFile(b)) {
        const left = lines(a);
        const right = lines(b);
        const changed: string[] = [];
        for (let i = 0; i < Math.min(left.length, right.length); i++) {
          if (left[i] !== right[i]) changed.push(`- ${left[i]}\n+ ${right[i]}`);
        }
        return pyDictOf({ diff_lines: changed.join("\n") });
      }
    }
    return errorResult(`diff: ${pyStr(first)} or ${pyStr(second)}: No such file or directory`);
  },
};

export const fileMethods = { mkdir, touch, echo, cat, wc, sort, grep, tail, diff };
