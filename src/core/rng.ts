// Seeded random numbers. Every stochastic thing in budgetrl takes an Rng or a seed; the same seed gives
// bit-identical streams. Generator: sfc32 (Chris Doty-Humphrey's Small Fast Counting), 32-bit state words,
// seeded through splitmix32 so that nearby seeds give unrelated streams. Child seeds are derived by hashing
// (parent seed, labels), so adding a new consumer never shifts the stream of an existing one.
import { hash53 } from "./hash.js";

export interface Rng {
  /** Uniform float in [0, 1) with 32 bits of randomness. */
  next(): number;
  /** Uniform unsigned 32-bit integer. */
  nextUint32(): number;
  /** Uniform integer in [0, n); n must be a positive integer below 2^32. */
  int(n: number): number;
  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** Standard normal sample (Box-Muller). */
  normal(): number;
  /** The four state words, to save and restore a stream exactly. */
  snapshot(): readonly [number, number, number, number];
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A generator from a seed (any finite number; non-integers and large values are hashed first). */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new RangeError(`createRng: seed must be finite, got ${seed}`);
  const folded = Number.isSafeInteger(seed) && seed >= 0 && seed < 2 ** 32 ? seed : hash53(String(seed));
  const mix = splitmix32(folded >>> 0);
  const hi = Math.floor(folded / 2 ** 32) >>> 0;
  const rng = rngFromState([mix(), (mix() ^ hi) >>> 0, mix(), 1]);
  // Warm up so that low-entropy seeds are mixed through, as the sfc32 reference does.
  for (let i = 0; i < 12; i++) rng.nextUint32();
  return rng;
}

/** Restore a generator from `snapshot()` words. */
export function rngFromState(words: readonly [number, number, number, number]): Rng {
  let a = words[0] >>> 0;
  let b = words[1] >>> 0;
  let c = words[2] >>> 0;
  let d = words[3] >>> 0;
  const nextUint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  const next = (): number => nextUint32() / 4294967296;
  const int = (n: number): number => {
    if (!(n >= 1 && n <= 4294967296 && Number.isInteger(n))) throw new RangeError(`Rng.int: bad bound ${n}`);
    // Rejection sampling: unbiased for every n.
    const limit = 4294967296 - (4294967296 % n);
    let x = nextUint32();
    while (x >= limit) x = nextUint32();
    return x % n;
  };
  return {
    next,
    nextUint32,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError("Rng.pick: empty array");
      return items[int(items.length)]!;
    },
    normal: () => {
      const u1 = 1 - next();
      const u2 = next();
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    },
    snapshot: () => [a, b, c, d],
  };
}

/** A child seed in [0, 2^32) from a parent seed and labels: deterministic and order-sensitive. */
export function deriveSeed(seed: number, ...labels: readonly (string | number)[]): number {
  return hash53(`${seed}\u0000${labels.join("\u0000")}`) % 4294967296;
}

/** The indices 0..count-1 in a seeded random order (Fisher-Yates): minibatch and epoch orders. */
export function shuffledIndices(count: number, seed: number): number[] {
  const rng = createRng(seed);
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
