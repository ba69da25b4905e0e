import { describe, expect, it } from "vitest";
import {
  aliasTable,
  extractAnswer,
  MAX_ANSWER_LENGTH,
  normalizeAnswer,
  parseChoice,
} from "../../../src/envs/shared/answer.js";

describe("extractAnswer", () => {
  it("returns a bare reply whole", () => {
    expect(extractAnswer("Up")).toBe("Up");
  });

  it("takes the content of the last <answer> tag, in any case, up to its closing tag or the end", () => {
    expect(extractAnswer("I go <answer>Left</answer>")).toBe("Left");
    expect(extractAnswer("<answer>Up</answer> then <ANSWER>Down</Answer> done")).toBe("Down");
    expect(extractAnswer("<answer>Up</answer><answer>Right")).toBe("Right");
    expect(extractAnswer("<answer><answer>Up</answer></answer>")).toBe("Up");
    expect(extractAnswer("<answer>")).toBe("");
  });
});

describe("normalizeAnswer", () => {
  it("strips decorations and case, collapses inner whitespace", () => {
    expect(normalizeAnswer("  **Up.**  ")).toBe("up");
    expect(normalizeAnswer("`move   LEFT`")).toBe("move left");
    expect(normalizeAnswer('<answer> "Right"! </answer>')).toBe("right");
  });

  it("refuses empty and overlong answers", () => {
    expect(normalizeAnswer("")).toBeNull();
    expect(normalizeAnswer("<answer> ... </answer>")).toBeNull();
    expect(normalizeAnswer("u".repeat(MAX_ANSWER_LENGTH + 1))).toBeNull();
    expect(normalizeAnswer(`${"x".repeat(5_000_000)}<answer>up</answer>`)).toBe("up");
  });
});

describe("parseChoice", () => {
  const table = aliasTable({ Up: ["u", "north"], Down: ["d"] });

  it("maps canonical texts, aliases and their decorated forms to the canonical text", () => {
    expect(parseChoice("Up", table)).toBe("Up");
    expect(parseChoice("NORTH", table)).toBe("Up");
    expect(parseChoice("<answer>d</answer>", table)).toBe("Down");
  });

  it("returns null for anything else", () => {
    expect(parseChoice("Upwards", table)).toBeNull();
    expect(parseChoice("constructor", table)).toBeNull();
    expect(parseChoice("__proto__", table)).toBeNull();
  });
});
