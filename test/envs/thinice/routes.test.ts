import { describe, expect, it } from "vitest";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import { hasTradeoff, routeLengths } from "../../../src/envs/thinice/routes.js";
import { compileIce } from "../../../src/envs/thinice/rules.js";

const lengths = (rows: readonly string[]) => routeLengths(compileIce(mapFromRows(rows, "test")));

describe("thinice routes", () => {
  it("measures the short route over thin ice and the safe one around it", () => {
    expect(lengths(["S~G", "..."])).toEqual({ short: 2, safe: 4 });
    expect(lengths(["S.~~.G", "..##..", "......"])).toEqual({ short: 5, safe: 9 });
    expect(lengths(["S.G"])).toEqual({ short: 2, safe: 2 });
    expect(lengths(["S~G"])).toEqual({ short: 2, safe: Infinity });
    expect(lengths(["S#G"])).toEqual({ short: Infinity, safe: Infinity });
  });

  it("wants safe / short within [1.6, 2.5], exactly", () => {
    expect(hasTradeoff({ short: 5, safe: 7 })).toBe(false);
    expect(hasTradeoff({ short: 5, safe: 8 })).toBe(true);
    expect(hasTradeoff({ short: 10, safe: 16 })).toBe(true);
    expect(hasTradeoff({ short: 2, safe: 5 })).toBe(true);
    expect(hasTradeoff({ short: 2, safe: 6 })).toBe(false);
    expect(hasTradeoff({ short: 2, safe: 2 })).toBe(false);
    expect(hasTradeoff({ short: 2, safe: Infinity })).toBe(false);
    expect(hasTradeoff({ short: Infinity, safe: Infinity })).toBe(false);
  });
});
