// The chunks a minibatch is cut into: consecutive, in order, each within the token budget unless one sequence alone
// is longer, and nothing left out.
import { describe, expect, it } from "vitest";
import { tokenChunks } from "../../../src/rl/backends/token-chunks.js";

const sequence = (length: number, id: number) => ({ id, tokens: Array.from({ length }, () => id) });

describe("tokenChunks", () => {
  it("cuts consecutive runs of at most the budget's tokens, a longer sequence alone", () => {
    const items = [sequence(3, 0), sequence(4, 1), sequence(2, 2), sequence(9, 3), sequence(1, 4)];
    const chunks = tokenChunks(items, 8);
    expect(chunks.map((chunk) => chunk.map((item) => item.id))).toEqual([[0, 1], [2], [3], [4]]);
    expect(chunks.flat()).toEqual(items);
  });

  it("fills a chunk exactly to the budget and returns none for no items", () => {
    expect(tokenChunks([sequence(4, 0), sequence(4, 1), sequence(4, 2)], 8).map((chunk) => chunk.length)).toEqual([
      2, 1,
    ]);
    expect(tokenChunks([], 8)).toEqual([]);
  });
});
