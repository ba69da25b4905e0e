// Python str operations on text; expected values printed by CPython 3.11.
import { describe, expect, it } from "vitest";
import {
  compareStr,
  pyRstrip,
  pySplitlines,
  pySplitWhitespace,
  pyStrip,
  pyStrLen,
  pyZfill,
  utf8Length,
} from "../../../../src/envs/bfcl/py/text.js";

describe("str methods on text", () => {
  it("splitlines() breaks on every Python line boundary, \\r\\n once, and drops one trailing break", () => {
    expect(pySplitlines("a\nb\r\nc\rd\x0be\x0cf\x1cg\x1dh\x1ei\x85j\u2028k\u2029l")).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
      "i",
      "j",
      "k",
      "l",
    ]);
    expect(pySplitlines("a\n\nb\n")).toEqual(["a", "", "b"]);
    expect(pySplitlines("")).toEqual([]);
  });

  it("split() splits on runs of Python whitespace (including U+3000, NBSP and \\x1f)", () => {
    expect(pySplitWhitespace(" a\u3000b\xa0c\x1fd  ")).toEqual(["a", "b", "c", "d"]);
    expect(pySplitWhitespace("   ")).toEqual([]);
  });

  it("strip/rstrip remove a character set; zfill pads after the sign", () => {
    expect(pyRstrip("x//", "/")).toBe("x");
    expect(pyStrip("//x/y//", "/")).toBe("x/y");
    expect(pyZfill("-5", 4)).toBe("-005");
    expect(pyZfill("7", 3)).toBe("007");
    expect(pyZfill("1234", 3)).toBe("1234");
  });

  it("counts code points and UTF-8 bytes; orders by code point, unlike JavaScript's UTF-16 sort", () => {
    expect(pyStrLen("😀a")).toBe(2);
    expect(utf8Length("é😀")).toBe(6);
    expect(["😀", "\uffff", "a"].sort(compareStr)).toEqual(["a", "\uffff", "😀"]);
    expect(["😀", "\uffff", "a"].sort()).toEqual(["a", "😀", "\uffff"]);
  });
});
