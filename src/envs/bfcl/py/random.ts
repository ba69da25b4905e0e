// Python's random.Random, bit for bit: the MT19937 Mersenne Twister seeded by init_by_array from the absolute
// value of an int seed (as CPython's random_seed does), random() with 53-bit precision, getrandbits,
// randrange/randint via rejection sampling on getrandbits(k), choice and uniform. BFCL backends seed their
// own Random(seed) and draw ids, timestamps and temperatures from it; reproducing it gives upstream's ids.

const N = 624;
const M = 397;

/** The generator state right after seeding, per seed (a pure function of the seed, so sharing it is safe). */
const SEEDED = new Map<number, Uint32Array>();
const MAX_SEEDED = 256;

export interface PyRandom {
  random(): number;
  getrandbits(k: number): number;
  randbelow(n: number): number;
  randrange(start: number, stop: number): number;
  randint(a: number, b: number): number;
  uniform(a: number, b: number): number;
  choice<T>(items: readonly T[]): T;
}

function initGenrand(mt: Uint32Array, s: number): void {
  mt[0] = s >>> 0;
  for (let i = 1; i < N; i++) {
    const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
    mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
  }
}

function initByArray(mt: Uint32Array, key: readonly number[]): void {
  initGenrand(mt, 19650218);
  let i = 1;
  let j = 0;
  for (let k = Math.max(N, key.length); k > 0; k--) {
    const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
    mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1664525)) + (key[j] as number) + j) >>> 0;
    i++;
    j++;
    if (i >= N) {
      mt[0] = mt[N - 1] as number;
      i = 1;
    }
    if (j >= key.length) j = 0;
  }
  for (let k = N - 1; k > 0; k--) {
    const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
    mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1566083941)) - i) >>> 0;
    i++;
    if (i >= N) {
      mt[0] = mt[N - 1] as number;
      i = 1;
    }
  }
  mt[0] = 0x80000000;
}

function twist(mt: Uint32Array): void {
  for (let k = 0; k < N; k++) {
    const y = ((mt[k] as number) & 0x80000000) | ((mt[(k + 1) % N] as number) & 0x7fffffff);
    mt[k] = ((mt[(k + M) % N] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
  }
}

/** The state of random.Random(seed) right after seeding. */
function seededState(seed: number): Uint32Array {
  let state = SEEDED.get(seed);
  if (state === undefined) {
    // CPython: the key is the absolute value of the seed split into 32-bit words, least significant first.
    const magnitude = Math.abs(seed);
    const key = magnitude < 2 ** 32 ? [magnitude] : [magnitude % 2 ** 32, Math.floor(magnitude / 2 ** 32)];
    state = new Uint32Array(N);
    initByArray(state, key);
    // Seeding costs two passes over the 624 words; backends seed with a few fixed seeds, so keep the result.
    if (SEEDED.size >= MAX_SEEDED) SEEDED.clear();
    SEEDED.set(seed, state);
  }
  return state;
}

/** A stateful emulation of random.Random (methods on a prototype: creating one allocates no closures). */
class MersenneTwister implements PyRandom {
  private readonly mt: Uint32Array;
  private index = N;

  constructor(seed: number) {
    this.mt = seededState(seed).slice();
  }

  private genrand(): number {
    if (this.index >= N) {
      twist(this.mt);
      this.index = 0;
    }
    let y = this.mt[this.index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  getrandbits(k: number): number {
    if (!(Number.isInteger(k) && k >= 0 && k <= 53))
      throw new RangeError(`getrandbits: k must be in [0, 53], got ${k}`);
    if (k === 0) return 0;
    if (k <= 32) return this.genrand() >>> (32 - k);
    const low = this.genrand();
    const high = this.genrand() >>> (64 - k);
    return high * 2 ** 32 + low;
  }

  randbelow(n: number): number {
    if (n <= 0) throw new RangeError("randbelow: n must be positive");
    const bits = Math.floor(Math.log2(n)) + 1;
    // log2 can be off by one near powers of two; fix the bit length exactly.
    const k = 2 ** (bits - 1) > n ? bits - 1 : 2 ** bits <= n ? bits + 1 : bits;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  random(): number {
    const a = this.genrand() >>> 5;
    const b = this.genrand() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  randrange(start: number, stop: number): number {
    const width = stop - start;
    if (width <= 0) throw new RangeError(`empty range in randrange(${start}, ${stop})`);
    return start + this.randbelow(width);
  }

  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }

  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Cannot choose from an empty sequence");
    return items[this.randbelow(items.length)] as T;
  }
}

export function createPyRandom(seed: number): PyRandom {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`PyRandom: seed must be a safe integer, got ${seed}`);
  return new MersenneTwister(seed);
}
