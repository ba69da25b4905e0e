// Sets of Unicode code points as sorted, disjoint, non-adjacent ranges [lo0, hi0, lo1, hi1, ...] (inclusive), for
// the regular expressions and grammars of constrained decoding (regex-syntax.ts, ebnf-syntax.ts). Surrogates
// (U+D800..U+DFFF) are never members: a reply is UTF-8, where they cannot be written.
export type CharSet = readonly number[];

export const MAX_CODE_POINT = 0x10ffff;
const SURROGATES: CharSet = [0xd800, 0xdfff];

/** The ranges as a set (any order, overlapping or not); surrogates removed. */
export function charSet(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = ranges.filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of sorted) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return subtract(out, SURROGATES);
}

export const single = (codePoint: number): CharSet => charSet([[codePoint, codePoint]]);

/** Every code point (no surrogates). */
export const ANY_CHAR: CharSet = charSet([[0, MAX_CODE_POINT]]);
export const EMPTY_SET: CharSet = [];

export function union(a: CharSet, b: CharSet): CharSet {
  const pairs: [number, number][] = [];
  for (const set of [a, b]) for (let i = 0; i < set.length; i += 2) pairs.push([set[i]!, set[i + 1]!]);
  return charSet(pairs);
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

/** The code points of `a` not in `b`. */
export function subtract(a: CharSet, b: CharSet): CharSet {
  const out: number[] = [];
  for (let i = 0; i < a.length; i += 2) {
    let lo = a[i]!;
    const hi = a[i + 1]!;
    for (let j = 0; j < b.length && lo <= hi; j += 2) {
      if (b[j + 1]! < lo || b[j]! > hi) continue;
      if (b[j]! > lo) out.push(lo, b[j]! - 1);
      lo = b[j + 1]! + 1;
    }
    if (lo <= hi) out.push(lo, hi);
  }
  return out;
}

export function complement(set: CharSet): CharSet {
  return subtract(ANY_CHAR, set);
}

export function contains(set: CharSet, codePoint: number): boolean {
  let low = 0;
  let high = set.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (codePoint < set[2 * mid]!) high = mid - 1;
    else if (codePoint > set[2 * mid + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

/** True when some member lies in [lo, hi]. */
export function overlaps(set: CharSet, lo: number, hi: number): boolean {
  for (let i = 0; i < set.length; i += 2) if (set[i]! <= hi && set[i + 1]! >= lo) return true;
  return false;
}

export const isEmpty = (set: CharSet): boolean => set.length === 0;

/** The least member, or undefined. */
export const least = (set: CharSet): number | undefined => set[0];

/** The members within [lo, hi]. */
export function clip(set: CharSet, lo: number, hi: number): CharSet {
  return intersect(set, [lo, hi]);
}
