// The parse state of constrained decoding (json-constraint.ts) and its sizes: the frames of a partial JSON value of
// a shape (schema-shape.ts), the UTF-8 rules of its strings, and `minRest`, the exact fewest bytes that complete a
// stack of frames, which the constraint compares with the tokens left so that a value always fits.
import { ANY, type ArrayShape, type NumberShape, type ObjectShape, type Shape } from "./schema-shape.js";

export type NumberPhase = "minus" | "zero" | "int" | "dot" | "frac" | "exp" | "expSign" | "expDigits";
export type ObjectPhase = "open" | "key" | "colon" | "value" | "after" | "next";
export type ArrayPhase = "first" | "item" | "after" | "next";

/** UTF-8 continuation bytes still due, and the range of the next one. */
export interface Utf8 {
  readonly pending: number;
  readonly lo: number;
  readonly hi: number;
}
export const UTF8_DONE: Utf8 = { pending: 0, lo: 0x80, hi: 0xbf };

export type Frame =
  | { readonly t: "value"; readonly shape: Shape }
  | {
      readonly t: "object";
      readonly shape: ObjectShape;
      readonly phase: ObjectPhase;
      readonly seen: readonly string[];
      /** phase key: the key's bytes so far, whether they can still be another key (no escape, valid UTF-8 so far), its UTF-8 state. */
      readonly key: readonly number[];
      readonly free: boolean;
      readonly utf8: Utf8;
      /** phase colon: the value's shape. */
      readonly chosen?: Shape;
    }
  | { readonly t: "array"; readonly shape: ArrayShape; readonly phase: ArrayPhase; readonly count: number }
  /** escape: 0 none, 1 after a backslash, 2..5 in \uXXXX with escape - 2 hex digits read; count: characters so far
   * (a character counts from its first byte), min and max its length bounds. */
  | {
      readonly t: "string";
      readonly escape: number;
      readonly utf8: Utf8;
      readonly count: number;
      readonly min: number;
      readonly max: number;
    }
  /** digits: how many before the point so far. */
  | { readonly t: "number"; readonly shape: NumberShape; readonly phase: NumberPhase; readonly digits: number }
  | { readonly t: "literal"; readonly texts: readonly (readonly number[])[]; readonly at: number }
  | { readonly t: "end" };

export type Stack = readonly Frame[];

export const utf8Bytes = (text: string): number[] => Array.from(new TextEncoder().encode(text));
const ANY_OBJECT: ObjectShape = { kind: "object", properties: new Map(), required: new Set(), additional: ANY };
const ANY_ARRAY: ArrayShape = { kind: "array", items: ANY, minItems: 0, maxItems: Infinity };
export const ANY_OPTIONS: readonly Shape[] = [
  ANY_OBJECT,
  ANY_ARRAY,
  { kind: "string" },
  { kind: "number", integer: false },
  { kind: "literals", texts: ["true", "false", "null"] },
];
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;
export const isHex = (b: number): boolean => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/** The UTF-8 state after a lead byte (>= 0x80), or undefined when it cannot start a character. */
function utf8Lead(b: number): Utf8 | undefined {
  if (b >= 0xc2 && b <= 0xdf) return { pending: 1, lo: 0x80, hi: 0xbf };
  if (b === 0xe0) return { pending: 2, lo: 0xa0, hi: 0xbf };
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return { pending: 2, lo: 0x80, hi: 0xbf };
  if (b === 0xed) return { pending: 2, lo: 0x80, hi: 0x9f };
  if (b === 0xf0) return { pending: 3, lo: 0x90, hi: 0xbf };
  if (b >= 0xf1 && b <= 0xf3) return { pending: 3, lo: 0x80, hi: 0xbf };
  if (b === 0xf4) return { pending: 3, lo: 0x80, hi: 0x8f };
  return undefined;
}

/** The UTF-8 state after byte b of a string's text (not a quote or backslash), or undefined when b is not allowed. */
export function textByte(state: Utf8, b: number): Utf8 | undefined {
  if (state.pending > 0)
    return b >= state.lo && b <= state.hi ? { pending: state.pending - 1, lo: 0x80, hi: 0xbf } : undefined;
  if (b < 0x20) return undefined;
  if (b < 0x80) return UTF8_DONE;
  return utf8Lead(b);
}

// ---- sizes: the fewest bytes ------------------------------------------------------------------------------

export interface Member {
  readonly name: string;
  /** The key as written between its quotes (JSON-escaped), as bytes. */
  readonly bytes: readonly number[];
  readonly shape: Shape;
}

const membersCache = new WeakMap<ObjectShape, readonly Member[]>();
export function members(shape: ObjectShape): readonly Member[] {
  let found = membersCache.get(shape);
  if (found === undefined) {
    found = [...shape.properties].map(([name, value]) => ({
      name,
      bytes: utf8Bytes(JSON.stringify(name).slice(1, -1)),
      shape: value,
    }));
    membersCache.set(shape, found);
  }
  return found;
}

const minValueCache = new WeakMap<object, number>();
/** The fewest bytes of a value of the shape. */
export function minValue(shape: Shape): number {
  const cached = minValueCache.get(shape);
  if (cached !== undefined) return cached;
  let size: number;
  switch (shape.kind) {
    case "any":
      size = 1; // 0
      break;
    case "object":
      size = 1 + openCost(shape);
      break;
    case "array":
      size = 1 + firstCost(shape);
      break;
    case "string":
      size = 2 + (shape.minLength ?? 0);
      break;
    case "number":
      size = 1;
      break;
    case "literals":
      size = Math.min(...shape.texts.map((text) => utf8Bytes(text).length));
      break;
    case "union":
      size = Math.min(...shape.options.map(minValue));
      break;
  }
  minValueCache.set(shape, size);
  return size;
}

/** Bytes of a member written in full after a comma would be: ,"key":value. */
const memberCost = (member: Member): number => 1 + member.bytes.length + 2 + 1 + minValue(member.shape);

/** Fewest bytes that close an object after a member (or after `{` less one comma): the missing required members, then `}`. */
function restAfter(shape: ObjectShape, seen: readonly string[]): number {
  let cost = 1;
  for (const member of members(shape))
    if (shape.required.has(member.name) && !seen.includes(member.name)) cost += memberCost(member);
  return cost;
}

function openCost(shape: ObjectShape): number {
  const rest = restAfter(shape, []);
  return rest === 1 ? 1 : rest - 1; // the first member has no comma
}

/** Fewest bytes of a whole member from its opening quote on, then the rest of the object. */
function nextCost(shape: ObjectShape, seen: readonly string[]): number {
  let best = Infinity;
  for (const member of members(shape))
    if (!seen.includes(member.name))
      best = Math.min(best, memberCost(member) - 1 + restAfter(shape, [...seen, member.name]));
  if (shape.additional !== undefined) {
    const emptyTaken = shape.properties.has("");
    best = Math.min(best, (emptyTaken ? 3 : 2) + 1 + minValue(shape.additional) + restAfter(shape, seen));
  }
  return best;
}

function keyCost(frame: Extract<Frame, { t: "object" }>): number {
  const { shape, seen, key } = frame;
  let best = Infinity;
  for (const member of members(shape)) {
    if (seen.includes(member.name) || !startsWith(member.bytes, key)) continue;
    best = Math.min(
      best,
      member.bytes.length - key.length + 2 + minValue(member.shape) + restAfter(shape, [...seen, member.name]),
    );
  }
  if (shape.additional !== undefined && frame.free) {
    // Close now, or (a character still open, or the key is a declared name already given) write bytes first.
    const declared = members(shape).some((member) => sameBytes(member.bytes, key));
    const extra = frame.utf8.pending > 0 ? frame.utf8.pending : declared ? 1 : 0;
    best = Math.min(best, extra + 2 + minValue(shape.additional) + restAfter(shape, seen));
  }
  return best;
}

function firstCost(shape: ArrayShape): number {
  return shape.minItems === 0 ? 1 : shape.minItems * minValue(shape.items) + shape.minItems;
}

function restArray(shape: ArrayShape, count: number): number {
  return Math.max(0, shape.minItems - count) * (1 + minValue(shape.items)) + 1;
}

function frameCost(frame: Frame): number {
  switch (frame.t) {
    case "end":
      return 0;
    case "value":
      return minValue(frame.shape);
    case "string":
      return (
        (frame.escape === 1 ? 1 : frame.escape >= 2 ? 6 - frame.escape : 0) +
        frame.utf8.pending +
        Math.max(0, frame.min - frame.count) +
        1
      );
    case "number":
      return frame.phase === "minus" || frame.phase === "dot" || frame.phase === "exp" || frame.phase === "expSign"
        ? 1
        : 0;
    case "literal":
      return Math.min(...frame.texts.map((text) => text.length - frame.at));
    case "array":
      if (frame.phase === "first") return firstCost(frame.shape);
      if (frame.phase === "item") return restArray(frame.shape, frame.count + 1);
      if (frame.phase === "after") return restArray(frame.shape, frame.count);
      return minValue(frame.shape.items) + restArray(frame.shape, frame.count + 1);
    case "object":
      switch (frame.phase) {
        case "open":
          return openCost(frame.shape);
        case "key":
          return keyCost(frame);
        case "colon":
          return 1 + minValue(frame.chosen!) + restAfter(frame.shape, frame.seen);
        case "value":
        case "after":
          return restAfter(frame.shape, frame.seen);
        case "next":
          return nextCost(frame.shape, frame.seen);
      }
  }
}

/** The fewest bytes that complete a stack. */
export function minRest(stack: Stack): number {
  return stack.reduce((sum, frame) => sum + frameCost(frame), 0);
}

/** True when a key's bytes end inside an escape (an odd run of backslashes): a quote then is text, not the key's end. */
export function escaping(key: readonly number[]): boolean {
  let run = 0;
  while (run < key.length && key[key.length - 1 - run] === BACKSLASH) run++;
  return run % 2 === 1;
}

export function startsWith(bytes: readonly number[], prefix: readonly number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((b, i) => bytes[i] === b);
}

export function sameBytes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && startsWith(a, b);
}
