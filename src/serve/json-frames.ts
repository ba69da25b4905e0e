// The parse state of constrained decoding (json-constraint.ts) and its sizes: the frames of a partial JSON value of
// a shape (schema-shape.ts), and `minRest`, the fewest bytes that complete a stack of frames (exact, but where a
// string's pattern meets its maxLength or an object needs keys of its own to reach minProperties: then a lower
// bound), which the constraint compares with the tokens left so that a value fits where it can.
import { fewestMore } from "./number-text.js";
import { BACKSLASH, stringRest, UTF8_DONE, type StringFrame, type Utf8 } from "./json-string.js";
import { ANY, itemAt, type ArrayShape, type NumberShape, type ObjectShape, type Shape } from "./schema-shape.js";

export type ObjectPhase = "open" | "key" | "colon" | "value" | "after" | "next";
export type ArrayPhase = "first" | "item" | "after" | "next";

export type Frame =
  | { readonly t: "value"; readonly shape: Shape }
  | ObjectFrame
  | { readonly t: "array"; readonly shape: ArrayShape; readonly phase: ArrayPhase; readonly count: number }
  | StringFrame
  /** text: the number's bytes so far. */
  | { readonly t: "number"; readonly shape: NumberShape; readonly text: string }
  | { readonly t: "literal"; readonly texts: readonly (readonly number[])[]; readonly at: number }
  | { readonly t: "end" };

export interface ObjectFrame {
  readonly t: "object";
  readonly shape: ObjectShape;
  readonly phase: ObjectPhase;
  /** The declared keys written, and the other keys written (their bytes as latin1 text). */
  readonly seen: readonly string[];
  readonly extras: readonly string[];
  /** phase key: the key's bytes so far, whether they can still be another key (no escape, valid UTF-8 so far), its UTF-8 state. */
  readonly key: readonly number[];
  readonly free: boolean;
  readonly utf8: Utf8;
  /** phase colon: the value's shape. */
  readonly chosen?: Shape;
}

export type Stack = readonly Frame[];

export const utf8Bytes = (text: string): number[] => Array.from(new TextEncoder().encode(text));
const ANY_OBJECT: ObjectShape = {
  kind: "object",
  properties: new Map(),
  required: new Set(),
  additional: ANY,
  minProperties: 0,
  maxProperties: Infinity,
};
const ANY_ARRAY: ArrayShape = { kind: "array", prefix: [], items: ANY, minItems: 0, maxItems: Infinity };
export const ANY_OPTIONS: readonly Shape[] = [
  ANY_OBJECT,
  ANY_ARRAY,
  { kind: "string" },
  { kind: "number", integer: false },
  { kind: "literals", texts: ["true", "false", "null"] },
];
export { UTF8_DONE };

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
      size = 1 + stringRest({ t: "string", shape, count: 0, state: 0, escape: 0, utf8: UTF8_DONE, bits: 0 });
      break;
    case "number":
      size = fewestMore(shape, "");
      break;
    case "literals":
      size = Math.min(...shape.texts.map((text) => utf8Bytes(text).length));
      break;
    case "union":
      size = Math.min(...shape.options.map(minValue));
      break;
    case "never":
      size = Infinity;
      break;
  }
  minValueCache.set(shape, size);
  return size;
}

/** Bytes of a member written in full after a comma would be: ,"key":value. */
const memberCost = (member: Member): number => 1 + member.bytes.length + 2 + 1 + minValue(member.shape);

/** What decides which keys an object may still take: the declared ones written and the keys written in all. */
interface Written {
  readonly seen: readonly string[];
  readonly count: number;
  /** The other keys written (the empty key among them or not). */
  readonly extras: readonly string[];
}

const missingRequired = (shape: ObjectShape, seen: readonly string[]): Member[] =>
  members(shape).filter((member) => shape.required.has(member.name) && !seen.includes(member.name));

/** True when a key that is not required may still be written: it leaves room for the required ones. */
export function optionalRoom(shape: ObjectShape, written: Written): boolean {
  return written.count + 1 + missingRequired(shape, written.seen).length <= shape.maxProperties;
}

/** True when the key may be written now (declared: not yet written, and required or with room). */
export function eligible(shape: ObjectShape, written: Written, member: Member): boolean {
  if (written.seen.includes(member.name) || member.shape.kind === "never") return false;
  return shape.required.has(member.name) || optionalRoom(shape, written);
}

/** The fewest bytes of another key of its own (its quotes included) and the cheapest value after its colon. */
function freeMemberCost(shape: ObjectShape, written: Written): number {
  const emptyTaken = shape.properties.has("") || written.extras.includes("");
  return (emptyTaken ? 3 : 2) + 1 + minValue(shape.additional!);
}

/** Fewest bytes that close an object after a member (or after `{` less one comma): the missing required members,
 * members enough for minProperties (the cheapest ones; keys of its own at one character at least, a lower bound),
 * then `}`. */
function restAfter(shape: ObjectShape, written: Written): number {
  const missing = missingRequired(shape, written.seen);
  let cost = 1 + missing.reduce((sum, member) => sum + memberCost(member), 0);
  const more = shape.minProperties - written.count - missing.length;
  if (more <= 0) return cost;
  const optional = members(shape)
    .filter((member) => !shape.required.has(member.name) && !written.seen.includes(member.name))
    .map(memberCost);
  if (shape.additional !== undefined) {
    const first = 1 + freeMemberCost(shape, written);
    const next = 1 + 3 + 1 + minValue(shape.additional);
    for (let i = 0; i < more; i++) optional.push(i === 0 ? first : next);
  }
  optional.sort((a, b) => a - b);
  return more > optional.length ? Infinity : cost + optional.slice(0, more).reduce((sum, one) => sum + one, 0);
}

const written = (frame: ObjectFrame): Written => ({
  seen: frame.seen,
  extras: frame.extras,
  count: frame.seen.length + frame.extras.length,
});
const NOTHING: Written = { seen: [], extras: [], count: 0 };
const withKey = (before: Written, name: string | undefined): Written => ({
  seen: name === undefined ? before.seen : [...before.seen, name],
  extras: before.extras,
  count: before.count + 1,
});

function openCost(shape: ObjectShape): number {
  const rest = restAfter(shape, NOTHING);
  return rest === 1 ? 1 : rest - 1; // the first member has no comma
}

/** Fewest bytes of a whole member from its opening quote on, then the rest of the object. */
function nextCost(shape: ObjectShape, before: Written): number {
  let best = Infinity;
  for (const member of members(shape))
    if (eligible(shape, before, member))
      best = Math.min(best, memberCost(member) - 1 + restAfter(shape, withKey(before, member.name)));
  if (shape.additional !== undefined && optionalRoom(shape, before))
    best = Math.min(best, freeMemberCost(shape, before) + restAfter(shape, withKey(before, undefined)));
  return best;
}

function keyCost(frame: ObjectFrame): number {
  const { shape, key } = frame;
  const before = written(frame);
  let best = Infinity;
  for (const member of members(shape)) {
    if (!eligible(shape, before, member) || !startsWith(member.bytes, key)) continue;
    best = Math.min(
      best,
      member.bytes.length - key.length + 2 + minValue(member.shape) + restAfter(shape, withKey(before, member.name)),
    );
  }
  if (shape.additional !== undefined && frame.free && optionalRoom(shape, before)) {
    // Close now, or (a character still open, or the key is one already taken) write bytes first.
    const text = latin1(key);
    const taken = members(shape).some((member) => sameBytes(member.bytes, key)) || frame.extras.includes(text);
    const extra = frame.utf8.pending > 0 ? frame.utf8.pending : taken ? 1 : 0;
    best = Math.min(best, extra + 2 + minValue(shape.additional) + restAfter(shape, withKey(before, undefined)));
  }
  return best;
}

export const latin1 = (bytes: readonly number[]): string => String.fromCharCode(...bytes);

function firstCost(shape: ArrayShape): number {
  return shape.minItems === 0 ? 1 : restFrom(shape, 0);
}

const restFromCache = new WeakMap<ArrayShape, number[]>();
/** Fewest bytes after item `count - 1` (or after `[` less one comma): the items still due, each after a comma, then `]`. */
function restFrom(shape: ArrayShape, count: number): number {
  let sums = restFromCache.get(shape);
  if (sums === undefined) {
    sums = [];
    let sum = 1;
    for (let i = shape.minItems; i >= 0; i--) {
      sums[i] = sum;
      if (i > 0) sum += 1 + minValue(itemAt(shape, i - 1)!);
    }
    restFromCache.set(shape, sums);
  }
  if (count >= shape.minItems) return 1;
  return count === 0 ? sums[0]! - 1 : sums[count]!;
}

function frameCost(frame: Frame): number {
  switch (frame.t) {
    case "end":
      return 0;
    case "value":
      return minValue(frame.shape);
    case "string":
      return stringRest(frame);
    case "number":
      return fewestMore(frame.shape, frame.text);
    case "literal":
      return Math.min(...frame.texts.map((text) => text.length - frame.at));
    case "array":
      if (frame.phase === "first") return firstCost(frame.shape);
      if (frame.phase === "item") return restFrom(frame.shape, frame.count + 1);
      if (frame.phase === "after") return restFrom(frame.shape, frame.count);
      return minValue(itemAt(frame.shape, frame.count)!) + restFrom(frame.shape, frame.count + 1);
    case "object":
      switch (frame.phase) {
        case "open":
          return openCost(frame.shape);
        case "key":
          return keyCost(frame);
        case "colon":
          return 1 + minValue(frame.chosen!) + restAfter(frame.shape, written(frame));
        case "value":
        case "after":
          return restAfter(frame.shape, written(frame));
        case "next":
          return nextCost(frame.shape, written(frame));
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
