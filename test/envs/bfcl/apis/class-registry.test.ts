// The class registry: class names to classes and doc files, bare method names resolved as upstream does.
import { describe, expect, it } from "vitest";
import { bfclClassRegistry, methodOf } from "../../../../src/envs/bfcl/apis/class-registry.js";
import { counterClass, FAKE_CLASSES, notesClass } from "../fixtures.js";
import { methodSpec } from "./harness.js";

describe("bfclClassRegistry", () => {
  it("maps class names to classes and doc files (upstream's names, else <module>.json)", () => {
    const registry = bfclClassRegistry(FAKE_CLASSES);
    expect([...registry.classes.keys()]).toEqual(["Counter", "Notes"]);
    expect(registry.funcDocFiles["Counter"]).toBe("counter.json");
    expect(registry.funcDocFiles["TwitterAPI"]).toBe("posting_api.json");
    expect(registry.resolve(["Notes", "Counter"], "e")).toEqual([notesClass, counterClass]);
    expect(() => registry.resolve(["Counter", "GorillaFileSystem", "MathAPI"], "entry 7")).toThrow(
      /entry 7: backend classes GorillaFileSystem, MathAPI are not available\nHINT: available classes: Counter, Notes/,
    );
    expect(() => bfclClassRegistry([counterClass, counterClass])).toThrow(/Counter is listed twice/);
  });

  it("resolves a bare method name to the last class that has it, as upstream", () => {
    const read = methodSpec(notesClass, "read");
    expect(methodOf(FAKE_CLASSES, "read")).toBe(read);
    expect(methodOf(FAKE_CLASSES, "toString")).toBeUndefined();
    const shadow = { ...notesClass, className: "Shadow", methods: { add: read } };
    expect(methodOf([counterClass, shadow], "add")).toBe(read);
  });
});
