// deleteOldest: a Map's first-inserted entry goes first, re-inserting does not move a key, an empty Map stays empty.
import { describe, expect, it } from "vitest";
import { deleteOldest } from "../../src/core/oldest-key.js";

describe("deleteOldest", () => {
  it("deletes the first-inserted key", () => {
    const map = new Map([
      ["b", 1],
      ["a", 2],
      ["c", 3],
    ]);
    map.set("b", 4);
    deleteOldest(map);
    expect([...map.keys()]).toEqual(["a", "c"]);
  });

  it("leaves an empty map empty", () => {
    const map = new Map<number, string>();
    deleteOldest(map);
    expect(map.size).toBe(0);
  });
});
