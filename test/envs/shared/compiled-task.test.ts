import { describe, expect, it } from "vitest";
import { hashHex } from "../../../src/core/hash.js";
import { compiledTask, slotKey, slotView } from "../../../src/envs/shared/compiled-task.js";

describe("compiledTask", () => {
  it("keys a slot as hashHex('<task id>:<label>'), the label defaulting to the slot", () => {
    const compiled = compiledTask("lake-1", 4, 4);
    expect(slotKey(compiled, 2)).toBe(hashHex("lake-1:2"));
    expect(slotKey(compiled, 3, "fallen")).toBe(hashHex("lake-1:fallen"));
    expect(compiled.keys[3]).toBe(hashHex("lake-1:fallen"));
  });

  it("computes a slot's key and view once, and grows tables made without a size", () => {
    const compiled = compiledTask("vault-x");
    expect(slotKey(compiled, 40, "first")).toBe(hashHex("vault-x:first"));
    expect(slotKey(compiled, 40, "second")).toBe(hashHex("vault-x:first"));
    let renders = 0;
    const render = () => `grid ${++renders}`;
    expect(slotView(compiled, 7, render)).toBe("grid 1");
    expect(slotView(compiled, 7, render)).toBe("grid 1");
    expect(slotView(compiled, 8, render)).toBe("grid 2");
    expect(renders).toBe(2);
  });
});
