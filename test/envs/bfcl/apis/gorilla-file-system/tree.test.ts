// File and Directory objects: upstream's __repr__ and __eq__ (CPython's output for the same objects), and the
// guards that keep a cyclic tree (a directory copied into itself) from overflowing the JavaScript stack.
import { describe, expect, it } from "vitest";
import {
  addDirectory,
  addFile,
  createDirectory,
  createFile,
  getItem,
} from "../../../../../src/envs/bfcl/apis/gorilla-file-system/tree.js";
import { PyException } from "../../../../../src/envs/bfcl/py/errors.js";
import { pyEquals } from "../../../../../src/envs/bfcl/py/value.js";

describe("file tree", () => {
  it("prints as upstream's __repr__", () => {
    const root = createDirectory("/", null);
    addFile(root, "a.txt", "hi");
    addDirectory(root, "sub");
    expect(root.pyRepr()).toBe(
      "<Directory: /, Parent: None, Contents: {'a.txt': <<File: a.txt, Content: hi>>, 'sub': <Directory: sub, Parent: /, Contents: {}>}>",
    );
    expect(createFile("n", 5).pyRepr()).toBe("<<File: n, Content: 5>>");
  });

  it("compares by name and content/contents, ignoring parents", () => {
    const one = createDirectory("d", null);
    const two = createDirectory("d", createDirectory("elsewhere", null));
    addFile(one, "f", "x");
    addFile(two, "f", "x");
    expect(pyEquals(one, two)).toBe(true);
    addFile(two, "g");
    expect(pyEquals(one, two)).toBe(false);
    expect(pyEquals(createFile("f", "x"), createFile("f", "y"))).toBe(false);
  });

  it("refuses duplicate names with upstream's ValueError texts; '.' is the directory itself", () => {
    const root = createDirectory("r", null);
    addFile(root, "f");
    expect(() => addFile(root, "f")).toThrow("File 'f' already exists in directory 'r'.");
    expect(() => addDirectory(root, "f")).toThrow("Directory 'f' already exists in directory 'r'.");
    expect(getItem(root, ".")).toBe(root);
    expect(getItem(root, 5)).toBeUndefined();
  });

  it("prints a cycle as Python does ({...}) and raises RecursionError when comparing two distinct cycles", () => {
    const cyclic = (): ReturnType<typeof createDirectory> => {
      const root = createDirectory("/", null);
      const a = addDirectory(root, "a");
      const inner = addDirectory(a, "a");
      inner.contents = new Map(a.contents); // what cp(source='a', destination='a') builds upstream
      return root;
    };
    expect(cyclic().pyRepr()).toBe(
      "<Directory: /, Parent: None, Contents: {'a': <Directory: a, Parent: /, Contents: {'a': <Directory: a, Parent: a, Contents: {'a': <Directory: a, Parent: a, Contents: {...}>}>}>}>",
    );
    let caught: unknown;
    try {
      pyEquals(cyclic(), cyclic());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PyException);
    expect((caught as PyException).text).toBe("maximum recursion depth exceeded in comparison");
  });
});
