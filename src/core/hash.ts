// Stable, fast, non-cryptographic hashing for state keys, seeds and task ids (53-bit cyrb53 variant).
// Equal inputs give equal outputs on every machine and Node version.

/** 53-bit hash of a string as a non-negative safe integer. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The 53-bit hash as 14 lowercase hex digits: the canonical form of a state key. */
export function hashHex(text: string): string {
  return hash53(text).toString(16).padStart(14, "0");
}
