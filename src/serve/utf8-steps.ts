// UTF-8 read byte by byte, for the recognizers of constrained decoding (json-string.ts, regex-constraint.ts,
// grammar-constraint.ts): a lead byte starts a character with its payload bits, the continuation bytes still due and
// the range of the next one (no overlong forms, no surrogates, nothing past U+10FFFF), and a half-written character's
// code points still possible form one range [lo, hi].

/** A character being written: its payload so far, the bytes still due, and the range of the next byte. */
export interface Utf8Partial {
  readonly bits: number;
  readonly pending: number;
  readonly lo: number;
  readonly hi: number;
}

/** The character a lead byte (>= 0x80) starts, or undefined when it cannot start one. */
export function utf8Start(b: number): Utf8Partial | undefined {
  if (b >= 0xc2 && b <= 0xdf) return { bits: b & 0x1f, pending: 1, lo: 0x80, hi: 0xbf };
  if (b >= 0xe0 && b <= 0xef)
    return { bits: b & 0x0f, pending: 2, lo: b === 0xe0 ? 0xa0 : 0x80, hi: b === 0xed ? 0x9f : 0xbf };
  if (b >= 0xf0 && b <= 0xf4)
    return { bits: b & 0x07, pending: 3, lo: b === 0xf0 ? 0x90 : 0x80, hi: b === 0xf4 ? 0x8f : 0xbf };
  return undefined;
}

/** After continuation byte b: the code point when whole, the partial character, or undefined when b cannot come. */
export function utf8Next(partial: Utf8Partial, b: number): number | Utf8Partial | undefined {
  if (b < partial.lo || b > partial.hi) return undefined;
  const bits = (partial.bits << 6) | (b & 0x3f);
  return partial.pending === 1 ? bits : { bits, pending: partial.pending - 1, lo: 0x80, hi: 0xbf };
}

/** The code points a half-written character can still become. */
export function utf8Range(partial: Utf8Partial): readonly [number, number] {
  const rest = 6 * (partial.pending - 1);
  return [
    ((partial.bits << 6) | (partial.lo & 0x3f)) * 2 ** rest,
    ((partial.bits << 6) | (partial.hi & 0x3f)) * 2 ** rest + 2 ** rest - 1,
  ];
}
