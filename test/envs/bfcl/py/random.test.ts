// Expected values printed by CPython 3.11's random.Random with the same seeds.
import { describe, expect, it } from "vitest";
import { createPyRandom } from "../../../../src/envs/bfcl/py/random.js";

describe("createPyRandom (CPython MT19937)", () => {
  it("reproduces randint, random, uniform, choice and getrandbits for seed 141053", () => {
    const r = createPyRandom(141053);
    expect([r.randint(100000, 999999), r.randint(100000, 999999), r.randint(100000, 999999)]).toEqual([
      251675, 966117, 376965,
    ]);
    expect(r.randint(100000000000, 999999999999)).toBe(307751534385);
    expect(r.random()).toBe(0.3436302888563939);
    expect(r.uniform(-10.0, 40.0)).toBe(13.059873392645109);
    expect(r.choice([...Array(1000).keys()])).toBe(663);
    expect(r.getrandbits(40)).toBe(432834246302);
  });

  it("seeds from the absolute value, including seeds above 32 bits", () => {
    expect(createPyRandom(0).random()).toBe(0.8444218515250481);
    expect(createPyRandom(2 ** 40 + 5).random()).toBe(0.5043802970418443);
    expect(createPyRandom(-7).random()).toBe(createPyRandom(7).random());
  });

  it("gives generators of the same seed independent, identical streams (seeding is cached)", () => {
    const a = createPyRandom(141053);
    const first = [a.random(), a.random()];
    const b = createPyRandom(141053);
    expect([b.random(), b.random()]).toEqual(first);
    expect(b.randint(100000, 999999)).toBe(a.randint(100000, 999999));
    expect(createPyRandom(141053).randint(100000, 999999)).toBe(251675);
  });

  it("refuses empty ranges and sequences as Python does", () => {
    const r = createPyRandom(1);
    expect(() => r.randint(5, 4)).toThrow(/empty range/);
    expect(() => r.choice([])).toThrow(/empty sequence/);
  });
});
