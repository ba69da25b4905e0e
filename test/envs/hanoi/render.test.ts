import { describe, expect, it } from "vitest";
import { hanoiSystemPrompt, illegalFeedback, invalidFeedback, renderPegs } from "../../../src/envs/hanoi/render.js";

describe("hanoi rendering", () => {
  it("lists each peg's disks bottom to top", () => {
    expect(renderPegs([0, 0, 0])).toBe("A: 3 2 1\nB:\nC:");
    expect(renderPegs([2, 1, 0, 2])).toBe("A: 3\nB: 2\nC: 4 1");
  });

  it("explains the format and lists valid moves", () => {
    expect(hanoiSystemPrompt(1)).toContain("1 disk on");
    expect(hanoiSystemPrompt(3)).toContain("<answer>A->C</answer>");
    expect(invalidFeedback(["A->B", "A->C"])).toContain("Valid moves now: A->B, A->C.");
    expect(illegalFeedback("A->B", "peg A is empty", ["C->A"])).toBe(
      "Illegal move A->B: peg A is empty. Valid moves now: C->A.",
    );
  });
});
