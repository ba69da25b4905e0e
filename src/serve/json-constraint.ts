// Constrained decoding of one JSON value of a shape (schema-shape.ts) by a byte-level model: before each token,
// the mask of the bytes that keep the text a prefix of a matching value AND leave room to finish it within the
// tokens left (the end token included), and the end token once the value is complete. So a reply sampled under
// the mask is always a complete matching value, never cut by max_tokens. This is what vLLM's grammar backends
// do for tool_choice "required" and a named function (tool-choice.ts); here with pure TypeScript, no eval.
//
// The text is compact JSON: no whitespace between tokens. Strings are any JSON string (escapes included) of
// valid UTF-8; object keys are the declared names (each at most once) or, where the shape allows other keys,
// strings without escapes; numbers are JSON numbers (integers: -?(0|[1-9][0-9]*)).
//
// The state is a set of parse stacks (a union or an ambiguous end, as "1" before "12", keeps several), each a
// list of frames; `minRest` is the exact fewest bytes that complete a stack, so that a byte is allowed only when
// a completion still fits.
import { END } from "../nn/tokenizer.js";
import { ANY, type ArrayShape, type ObjectShape, type Shape } from "./schema-shape.js";

type NumberPhase = "minus" | "zero" | "int" | "dot" | "frac" | "exp" | "expSign" | "expDigits";
type ObjectPhase = "open" | "key" | "colon" | "value" | "after" | "next";
type ArrayPhase = "first" | "item" | "after" | "next";

/** UTF-8 continuation bytes still due, and the range of the next one. */
interface Utf8 {
  readonly pending: number;
  readonly lo: number;
  readonly hi: number;
}
const UTF8_DONE: Utf8 = { pending: 0, lo: 0x80, hi: 0xbf };

type Frame =
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
  /** escape: 0 none, 1 after a backslash, 2..5 in \uXXXX with escape - 2 hex digits read. */
  | { readonly t: "string"; readonly escape: number; readonly utf8: Utf8 }
  | { readonly t: "number"; readonly integer: boolean; readonly phase: NumberPhase }
  | { readonly t: "literal"; readonly texts: readonly (readonly number[])[]; readonly at: number }
  | { readonly t: "end" };

type Stack = readonly Frame[];

const utf8Bytes = (text: string): number[] => Array.from(new TextEncoder().encode(text));
const ANY_OBJECT: ObjectShape = { kind: "object", properties: new Map(), required: new Set(), additional: ANY };
const ANY_ARRAY: ArrayShape = { kind: "array", items: ANY, minItems: 0, maxItems: Infinity };
const ANY_OPTIONS: readonly Shape[] = [
  ANY_OBJECT,
  ANY_ARRAY,
  { kind: "string" },
  { kind: "number", integer: false },
  { kind: "literals", texts: ["true", "false", "null"] },
];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;
const isHex = (b: number): boolean => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

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
function textByte(state: Utf8, b: number): Utf8 | undefined {
  if (state.pending > 0)
    return b >= state.lo && b <= state.hi ? { pending: state.pending - 1, lo: 0x80, hi: 0xbf } : undefined;
  if (b < 0x20) return undefined;
  if (b < 0x80) return UTF8_DONE;
  return utf8Lead(b);
}

// ---- sizes: the fewest bytes ------------------------------------------------------------------------------

interface Member {
  readonly name: string;
  /** The key as written between its quotes (JSON-escaped), as bytes. */
  readonly bytes: readonly number[];
  readonly shape: Shape;
}

const membersCache = new WeakMap<ObjectShape, readonly Member[]>();
function members(shape: ObjectShape): readonly Member[] {
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
      size = 2;
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
      return (frame.escape === 1 ? 1 : frame.escape >= 2 ? 6 - frame.escape : 0) + frame.utf8.pending + 1;
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
function escaping(key: readonly number[]): boolean {
  let run = 0;
  while (run < key.length && key[key.length - 1 - run] === BACKSLASH) run++;
  return run % 2 === 1;
}

function startsWith(bytes: readonly number[], prefix: readonly number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((b, i) => bytes[i] === b);
}

function sameBytes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

// ---- transitions ------------------------------------------------------------------------------------------

/** A frame that may end without a closing byte (a number, a literal) and may end now. */
function canEnd(frame: Frame): boolean {
  if (frame.t === "number")
    return frame.phase === "zero" || frame.phase === "int" || frame.phase === "frac" || frame.phase === "expDigits";
  if (frame.t === "literal") return frame.texts.some((text) => text.length === frame.at);
  return false;
}

/** The stack once its top value is complete (popped): its parent goes on after it. */
function completed(below: Stack): Stack {
  if (below.length === 0) return [{ t: "end" }];
  const parent = below[below.length - 1]!;
  const rest = below.slice(0, -1);
  if (parent.t === "object" && parent.phase === "value") return [...rest, { ...parent, phase: "after" }];
  if (parent.t === "array" && parent.phase === "item")
    return [...rest, { ...parent, phase: "after", count: parent.count + 1 }];
  throw new Error(`json-constraint: a value completed under a ${parent.t} frame`);
}

/** The frames a value of the shape can start as with byte b. */
function starts(shape: Shape, b: number): Frame[] {
  switch (shape.kind) {
    case "any":
      return ANY_OPTIONS.flatMap((option) => starts(option, b));
    case "union":
      return shape.options.flatMap((option) => starts(option, b));
    case "object":
      return b === 0x7b ? [{ t: "object", shape, phase: "open", seen: [], key: [], free: true, utf8: UTF8_DONE }] : [];
    case "array":
      return b === 0x5b ? [{ t: "array", shape, phase: "first", count: 0 }] : [];
    case "string":
      return b === QUOTE ? [{ t: "string", escape: 0, utf8: UTF8_DONE }] : [];
    case "number":
      if (b === 0x2d) return [{ t: "number", integer: shape.integer, phase: "minus" }];
      if (b === 0x30) return [{ t: "number", integer: shape.integer, phase: "zero" }];
      return isDigit(b) ? [{ t: "number", integer: shape.integer, phase: "int" }] : [];
    case "literals": {
      const texts = shape.texts.map(utf8Bytes).filter((text) => text[0] === b);
      return texts.length === 0 ? [] : [{ t: "literal", texts, at: 1 }];
    }
  }
}

function numberStep(frame: Extract<Frame, { t: "number" }>, b: number): NumberPhase | undefined {
  const exponent = !frame.integer && (b === 0x65 || b === 0x45);
  const dot = !frame.integer && b === 0x2e;
  switch (frame.phase) {
    case "minus":
      return b === 0x30 ? "zero" : isDigit(b) ? "int" : undefined;
    case "zero":
      return dot ? "dot" : exponent ? "exp" : undefined;
    case "int":
      return isDigit(b) ? "int" : dot ? "dot" : exponent ? "exp" : undefined;
    case "dot":
      return isDigit(b) ? "frac" : undefined;
    case "frac":
      return isDigit(b) ? "frac" : exponent ? "exp" : undefined;
    case "exp":
      return b === 0x2b || b === 0x2d ? "expSign" : isDigit(b) ? "expDigits" : undefined;
    case "expSign":
    case "expDigits":
      return isDigit(b) ? "expDigits" : undefined;
  }
}

function stringStep(frame: Extract<Frame, { t: "string" }>, below: Stack, b: number): Stack[] {
  const at = (next: Frame): Stack[] => [[...below, next]];
  if (frame.escape === 1) {
    if (b === 0x75) return at({ ...frame, escape: 2 });
    return [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(b) ? at({ ...frame, escape: 0 }) : [];
  }
  if (frame.escape >= 2) return isHex(b) ? at({ ...frame, escape: frame.escape === 5 ? 0 : frame.escape + 1 }) : [];
  if (frame.utf8.pending === 0 && b === QUOTE) return [completed(below)];
  if (frame.utf8.pending === 0 && b === BACKSLASH) return at({ ...frame, escape: 1 });
  const utf8 = textByte(frame.utf8, b);
  return utf8 === undefined ? [] : at({ ...frame, utf8 });
}

function objectStep(frame: Extract<Frame, { t: "object" }>, below: Stack, b: number): Stack[] {
  const { shape, seen } = frame;
  const at = (next: Frame): Stack[] => [[...below, next]];
  const moreKeys = shape.additional !== undefined || members(shape).some((member) => !seen.includes(member.name));
  const closable = members(shape).every((member) => !shape.required.has(member.name) || seen.includes(member.name));
  switch (frame.phase) {
    case "open":
      if (b === QUOTE && moreKeys) return at({ ...frame, phase: "key", key: [], free: true, utf8: UTF8_DONE });
      return b === 0x7d && closable ? [completed(below)] : [];
    case "next":
      return b === QUOTE ? at({ ...frame, phase: "key", key: [], free: true, utf8: UTF8_DONE }) : [];
    case "after":
      if (b === 0x2c && moreKeys) return at({ ...frame, phase: "next" });
      return b === 0x7d && closable ? [completed(below)] : [];
    case "colon":
      return b === 0x3a ? [[...below, { ...frame, phase: "value" }, { t: "value", shape: frame.chosen! }]] : [];
    case "value":
      return [];
    case "key": {
      const key = frame.key;
      if (b === QUOTE && !escaping(key)) {
        const member = members(shape).find((candidate) => sameBytes(candidate.bytes, key));
        if (member !== undefined)
          return seen.includes(member.name)
            ? []
            : at({ ...frame, phase: "colon", seen: [...seen, member.name], chosen: member.shape });
        if (shape.additional === undefined || !frame.free || frame.utf8.pending > 0) return [];
        return at({ ...frame, phase: "colon", chosen: shape.additional });
      }
      const longer = [...key, b];
      const declared = members(shape).some((member) => !seen.includes(member.name) && startsWith(member.bytes, longer));
      const utf8 = frame.free && b !== BACKSLASH ? textByte(frame.utf8, b) : undefined;
      const free = shape.additional !== undefined && utf8 !== undefined;
      return declared || free ? at({ ...frame, key: longer, free, utf8: utf8 ?? UTF8_DONE }) : [];
    }
  }
}

function arrayStep(frame: Extract<Frame, { t: "array" }>, below: Stack, b: number): Stack[] {
  const { shape } = frame;
  switch (frame.phase) {
    case "first":
    case "next": {
      const closing = frame.phase === "first" && b === 0x5d && shape.minItems === 0 ? [completed(below)] : [];
      if (frame.count >= shape.maxItems) return closing;
      const item: Frame = { ...frame, phase: "item" };
      return [...closing, ...starts(shape.items, b).map((start): Stack => [...below, item, start])];
    }
    case "after":
      if (b === 0x2c && frame.count < shape.maxItems) return [[...below, { ...frame, phase: "next" }]];
      return b === 0x5d && frame.count >= shape.minItems ? [completed(below)] : [];
    case "item":
      return [];
  }
}

/** The stacks after byte b (none: b is not allowed). */
export function step(stack: Stack, b: number): Stack[] {
  const top = stack[stack.length - 1]!;
  const below = stack.slice(0, -1);
  const out: Stack[] = [];
  switch (top.t) {
    case "end":
      break;
    case "value":
      for (const frame of starts(top.shape, b)) out.push([...below, frame]);
      break;
    case "string":
      out.push(...stringStep(top, below, b));
      break;
    case "number": {
      const phase = numberStep(top, b);
      if (phase !== undefined) out.push([...below, { ...top, phase }]);
      break;
    }
    case "literal": {
      const texts = top.texts.filter((text) => text[top.at] === b);
      if (texts.length > 0) out.push([...below, { ...top, texts, at: top.at + 1 }]);
      break;
    }
    case "object":
      out.push(...objectStep(top, below, b));
      break;
    case "array":
      out.push(...arrayStep(top, below, b));
      break;
  }
  if (canEnd(top)) out.push(...step(completed(below), b));
  return out;
}

/** True when the stack holds a complete value (its top, a number or a literal, may end here). */
export function isComplete(stack: Stack): boolean {
  const top = stack[stack.length - 1]!;
  if (top.t === "end") return true;
  return canEnd(top) && isComplete(completed(stack.slice(0, -1)));
}

// ---- the constraint ---------------------------------------------------------------------------------------

const shapeIds = new WeakMap<object, number>();
let nextShapeId = 0;
function shapeId(shape: object): number {
  let id = shapeIds.get(shape);
  if (id === undefined) shapeIds.set(shape, (id = nextShapeId++));
  return id;
}

/** A stack as text, to drop duplicates (shapes by identity). */
function stackKey(stack: Stack): string {
  return JSON.stringify(stack, (key, value: unknown) =>
    key === "shape" || key === "chosen" ? shapeId(value as object) : value,
  );
}

function distinct(stacks: readonly Stack[]): Stack[] {
  const seen = new Map<string, Stack>();
  for (const stack of stacks) seen.set(stackKey(stack), stack);
  return [...seen.values()];
}

/** One reply's constraint: masks token by token, and the tokens sampled under them. */
export interface JsonConstraint {
  /** The tokens the next one may be, `remaining` tokens left (this one and the end token included). */
  mask(remaining: number, vocab: number): Uint8Array;
  /** The token sampled. */
  advance(token: number): void;
}

/** The fewest tokens of a reply of the shape: its fewest bytes and the end token. */
export function shortestReply(shape: Shape): number {
  return minValue(shape) + 1;
}

export function createJsonConstraint(shape: Shape): JsonConstraint {
  let stacks: Stack[] = [[{ t: "value", shape }]];
  let ended = false;
  return {
    mask(remaining, vocab) {
      const mask = new Uint8Array(vocab);
      if (ended) return mask.fill(1);
      for (let b = 0; b < 256; b++) {
        // The byte, then the rest of the value, then the end token.
        if (stacks.some((stack) => step(stack, b).some((next) => minRest(next) + 2 <= remaining))) mask[b] = 1;
      }
      if (stacks.some(isComplete) || mask.every((allowed) => allowed === 0)) mask[END] = 1;
      return mask;
    },
    advance(token) {
      if (token >= 256) {
        ended = true;
        return;
      }
      stacks = distinct(stacks.flatMap((stack) => step(stack, token)));
    },
  };
}
