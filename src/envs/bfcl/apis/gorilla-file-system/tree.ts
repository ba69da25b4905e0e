// The in-memory file tree of GorillaFileSystem: upstream's File and Directory objects, with their public
// attributes, __repr__ and __eq__ (name and content / name and contents; the parent is not compared).
// Objects are shared by reference exactly where upstream shares them: a moved directory keeps its children
// (whose parent still points at the old directory object), a copied directory gets a shallow copy of the
// contents dict (the same child objects), so later edits show up where they show up upstream.
import { setDictItem } from "../../py/container-methods.js";
import { pyRaise } from "../../py/errors.js";
import { pyRepr, pyStr } from "../../py/format.js";
import { isPyObject, pyEquals, pyTypeName, type PyDict, type PyObject, type PyValue } from "../../py/value.js";

export interface FsFile extends PyObject {
  readonly pyClass: "File";
  name: string;
  content: PyValue;
}

export interface FsDirectory extends PyObject {
  readonly pyClass: "Directory";
  name: string;
  parent: FsDirectory | null;
  contents: PyDict;
}

export type FsNode = FsFile | FsDirectory;

export function isFile(value: PyValue | undefined): value is FsFile {
  return isPyObject(value) && value.pyClass === "File";
}

export function isDirectory(value: PyValue | undefined): value is FsDirectory {
  return isPyObject(value) && value.pyClass === "Directory";
}

/** Upstream File (vars() also holds a private _last_modified, a wall-clock time upstream never reads back). */
class FileObject implements FsFile {
  readonly kind = "object";
  readonly pyClass = "File";
  constructor(
    public name: string,
    public content: PyValue,
  ) {}
  pyAttributes(): readonly (readonly [string, PyValue])[] {
    return [
      ["name", this.name],
      ["content", this.content],
    ];
  }
  pyRepr(): string {
    return `<<File: ${this.name}, Content: ${pyStr(this.content)}>>`;
  }
  pyEquals(other: PyValue): boolean {
    return isFile(other) && other.name === this.name && pyEquals(this.content, other.content);
  }
}

export function createFile(name: string, content: PyValue = ""): FsFile {
  return new FileObject(name, content);
}

/** Contents dicts whose repr is in progress: Python prints a dict met again inside itself as "{...}". */
const reprInProgress = new Set<PyDict>();

function contentsRepr(contents: PyDict): string {
  if (reprInProgress.has(contents)) return "{...}";
  reprInProgress.add(contents);
  try {
    return pyRepr(contents);
  } finally {
    reprInProgress.delete(contents);
  }
}

/** Nesting of Directory comparisons in progress: two distinct cyclic trees end in Python's RecursionError. */
let comparisonDepth = 0;
const COMPARISON_LIMIT = 900;

function contentsEqual(a: PyDict, b: PyDict): boolean {
  if (comparisonDepth >= COMPARISON_LIMIT) pyRaise("RecursionError", "maximum recursion depth exceeded in comparison");
  comparisonDepth++;
  try {
    return pyEquals(a, b);
  } finally {
    comparisonDepth--;
  }
}

/** Upstream Directory. */
class DirectoryObject implements FsDirectory {
  readonly kind = "object";
  readonly pyClass = "Directory";
  contents: PyDict = new Map();
  constructor(
    public name: string,
    public parent: FsDirectory | null,
  ) {}
  // `parent` is a public attribute upstream too; it is left out here because it points back up the tree (a
  // recursive dump would never end) and upstream's __eq__ ignores it.
  pyAttributes(): readonly (readonly [string, PyValue])[] {
    return [
      ["name", this.name],
      ["contents", this.contents],
    ];
  }
  pyRepr(): string {
    return `<Directory: ${this.name}, Parent: ${this.parent === null ? "None" : this.parent.name}, Contents: ${contentsRepr(this.contents)}>`;
  }
  pyEquals(other: PyValue): boolean {
    return isDirectory(other) && other.name === this.name && contentsEqual(this.contents, other.contents);
  }
}

export function createDirectory(name: string, parent: FsDirectory | null): FsDirectory {
  return new DirectoryObject(name, parent);
}

/** A name that can become a contents key (upstream accepts any hashable; only str names are supported here). */
function nameOf(name: PyValue): string {
  return typeof name === "string"
    ? name
    : pyRaise("TypeError", `budgetrl's file system supports only str names, not '${pyTypeName(name)}'`);
}

/** Directory._add_file. */
export function addFile(directory: FsDirectory, fileName: PyValue, content: PyValue = ""): FsFile {
  const name = nameOf(fileName);
  if (directory.contents.has(name))
    pyRaise("ValueError", `File '${name}' already exists in directory '${directory.name}'.`);
  const file = createFile(name, content);
  setDictItem(directory.contents, name, file);
  return file;
}

/** Directory._add_directory. */
export function addDirectory(directory: FsDirectory, dirName: PyValue): FsDirectory {
  const name = nameOf(dirName);
  if (directory.contents.has(name))
    pyRaise("ValueError", `Directory '${name}' already exists in directory '${directory.name}'.`);
  const child = createDirectory(name, directory);
  setDictItem(directory.contents, name, child);
  return child;
}

/** Directory._get_item: "." is the directory itself, otherwise contents.get(name). */
export function getItem(directory: FsDirectory, itemName: PyValue): PyValue | undefined {
  if (itemName === ".") return directory;
  return typeof itemName === "string" ? directory.contents.get(itemName) : undefined;
}
