// A JSON string as constrained decoding writes it (json-constraint.ts), byte by byte after its opening quote:
// valid UTF-8 and JSON escapes, at least minLength and at most maxLength characters (an escape is one), and,
// when the schema gives a pattern or a format (schema-shape.ts), a value the pattern's automaton accepts
// (regex-dfa.ts) read character by character: a raw UTF-8 character, a short escape (\n, \", ...) or \uXXXX (no
// surrogates: a character beyond U+FFFF is written as UTF-8). While a character is half written (a lead byte, a
// backslash, some hex digits), the code points it can still become form a range [lo, hi], and a byte is allowed
// only when some code point of the range leads on to a state that can still finish within the length bounds.
// `stringRest` is the fewest bytes that finish the string (its closing quote included): exact without a pattern,
// and with one exact but where a pattern meets a maxLength (then a lower bound: the fewest bytes of a completion of
// at least the characters still due).
import type { LazyDfa } from "./regex-dfa.js";
import { utf8Range, utf8Start } from "./utf8-steps.js";

/** UTF-8 continuation bytes still due, and the range of the next one. */
export interface Utf8 {
  readonly pending: number;
  readonly lo: number;
  readonly hi: number;
}
export const UTF8_DONE: Utf8 = { pending: 0, lo: 0x80, hi: 0xbf };
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;
export const isHex = (b: number): boolean => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

export interface StringShape {
  readonly kind: "string";
  /** Characters (default 0 and Infinity). */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** The automaton of the pattern and format together (their intersection), and their text for messages. */
  readonly pattern?: LazyDfa;
  readonly patternText?: string;
}

export interface StringFrame {
  readonly t: "string";
  readonly shape: StringShape;
  /** Characters so far (a character counts from its first byte). */
  readonly count: number;
  /** The pattern's state (0 without one). */
  readonly state: number;
  /** 0 none, 1 after a backslash, 2..5 in \uXXXX with escape - 2 hex digits read. */
  readonly escape: number;
  readonly utf8: Utf8;
  /** The bits of the character written so far (a UTF-8 sequence's payload, or the hex digits' value). */
  readonly bits: number;
}

const SHORT_ESCAPES: ReadonlyMap<number, number> = new Map([
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x2f, 0x2f],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
]);

/** The UTF-8 state after byte b of a text (not a quote or backslash), or undefined when b is not allowed. */
export function textByte(state: Utf8, b: number): Utf8 | undefined {
  if (state.pending > 0)
    return b >= state.lo && b <= state.hi ? { pending: state.pending - 1, lo: 0x80, hi: 0xbf } : undefined;
  if (b < 0x20) return undefined;
  if (b < 0x80) return UTF8_DONE;
  const started = utf8Start(b);
  return started === undefined ? undefined : { pending: started.pending, lo: started.lo, hi: started.hi };
}

/** The code points a half-written character can still become. */
function partialRange(frame: StringFrame): readonly [number, number] {
  if (frame.escape === 1) return [0, 0xffff];
  if (frame.escape >= 2) {
    const left = 4 * (6 - frame.escape);
    return [frame.bits * 2 ** left, (frame.bits + 1) * 2 ** left - 1];
  }
  return utf8Range({ bits: frame.bits, ...frame.utf8 });
}

export function startString(shape: StringShape): StringFrame {
  return { t: "string", shape, count: 0, state: 0, escape: 0, utf8: UTF8_DONE, bits: 0 };
}

const need = (frame: StringFrame): number => Math.max(0, (frame.shape.minLength ?? 0) - frame.count);

/** True when the pattern's state can still finish within the length bounds, `count` characters written. */
function live(dfa: LazyDfa, state: number, shape: StringShape, count: number): boolean {
  const due = Math.max(0, (shape.minLength ?? 0) - count);
  return dfa.fewest(state, due) <= (shape.maxLength ?? Infinity) - count;
}

/** The frame with a half-written character, if some code point it can become leads on. */
function partial(frame: StringFrame): StringFrame | undefined {
  const dfa = frame.shape.pattern;
  if (dfa === undefined) return frame;
  const [lo, hi] = partialRange(frame);
  const leads = dfa.targetsIn(frame.state, lo, hi).some((to) => live(dfa, to, frame.shape, frame.count));
  return leads ? frame : undefined;
}

/** The frame once code point cp is whole (it was counted at its first byte). */
function whole(frame: StringFrame, cp: number): StringFrame | undefined {
  const done = { ...frame, escape: 0, utf8: UTF8_DONE, bits: 0 };
  const dfa = frame.shape.pattern;
  if (dfa === undefined) return done;
  const state = dfa.next(frame.state, cp);
  return state >= 0 && live(dfa, state, frame.shape, frame.count) ? { ...done, state } : undefined;
}

/** The string after byte b: a frame, "end" (b is the closing quote), or undefined (b cannot come next). */
export function stringStep(frame: StringFrame, b: number): StringFrame | "end" | undefined {
  const { shape } = frame;
  if (frame.escape === 1) {
    if (b === 0x75) return partial({ ...frame, escape: 2, bits: 0 });
    const cp = SHORT_ESCAPES.get(b);
    return cp === undefined ? undefined : whole(frame, cp);
  }
  if (frame.escape >= 2) {
    if (!isHex(b)) return undefined;
    const bits = frame.bits * 16 + parseInt(String.fromCharCode(b), 16);
    return frame.escape === 5 ? whole(frame, bits) : partial({ ...frame, escape: frame.escape + 1, bits });
  }
  if (frame.utf8.pending > 0) {
    const utf8 = textByte(frame.utf8, b);
    if (utf8 === undefined) return undefined;
    const bits = (frame.bits << 6) | (b & 0x3f);
    return utf8.pending === 0 ? whole(frame, bits) : partial({ ...frame, utf8, bits });
  }
  if (b === QUOTE) {
    const accepted = shape.pattern === undefined || shape.pattern.accepts(frame.state);
    return frame.count >= (shape.minLength ?? 0) && accepted ? "end" : undefined;
  }
  if (frame.count >= (shape.maxLength ?? Infinity)) return undefined;
  const counted = { ...frame, count: frame.count + 1 };
  if (b === BACKSLASH) return partial({ ...counted, escape: 1 });
  const utf8 = textByte(UTF8_DONE, b);
  if (utf8 === undefined) return undefined;
  if (utf8.pending === 0) return whole(counted, b);
  return partial({ ...counted, utf8, bits: utf8Start(b)!.bits });
}

/** The fewest bytes that finish the string, its closing quote included. */
export function stringRest(frame: StringFrame): number {
  const dfa = frame.shape.pattern;
  if (dfa === undefined)
    return (frame.escape === 1 ? 1 : frame.escape >= 2 ? 6 - frame.escape : 0) + frame.utf8.pending + need(frame) + 1;
  const after = (to: number): number => dfa.fewest(to, need(frame), "json");
  if (frame.escape === 0 && frame.utf8.pending === 0) return after(frame.state) + 1;
  const [lo, hi] = partialRange(frame);
  const viaRange = Math.min(...dfa.targetsIn(frame.state, lo, hi).map(after));
  if (frame.escape >= 2) return 6 - frame.escape + viaRange + 1;
  if (frame.escape === 0) return frame.utf8.pending + viaRange + 1;
  let best = 5 + viaRange;
  for (const cp of SHORT_ESCAPES.values()) {
    const to = dfa.next(frame.state, cp);
    if (to >= 0) best = Math.min(best, 1 + after(to));
  }
  return best + 1;
}
