// Constrained decoding of one value of a shape (schema-shape.ts): before each token, the mask of the tokens whose
// bytes keep the text a prefix of a matching value AND leave room to finish it within the tokens left (the end
// token included), and the end tokens once the value is complete. So a reply sampled under the mask is always a
// complete matching value, never cut by max_tokens. This is what vLLM's grammar backends do for structured
// outputs (structured-output.ts) and for tool_choice "required" and a named function (tool-choice.ts); here with
// pure TypeScript, no eval. Tokens are read through the vocabulary (vocabulary.ts): the byte tokenizer's one byte
// each, an hf renderer's tokenizer's several; the room left is counted as if every byte were its own token (each
// byte is one in both), so a value always fits.
//
// The text is compact JSON: no whitespace between tokens. Strings are any JSON string (escapes included) of
// valid UTF-8 within their length bounds; object keys are the declared names (each at most once) or, where the
// shape allows other keys, strings without escapes; numbers are JSON numbers (integers: -?(0|[1-9][0-9]*)) within
// their bounds (schema-shape.ts). Literals (enum, const, guided_choice) are written byte for byte.
//
// The state is a set of parse stacks (a union or an ambiguous end, as "1" before "12", keeps several), each a
// list of frames (json-frames.ts); `minRest` is the exact fewest bytes that complete a stack, so that a byte is
// allowed only when a completion still fits.
import {
  ANY_OPTIONS,
  BACKSLASH,
  escaping,
  isDigit,
  isHex,
  members,
  minRest,
  minValue,
  QUOTE,
  sameBytes,
  startsWith,
  textByte,
  utf8Bytes,
  UTF8_DONE,
  type Frame,
  type NumberPhase,
  type Stack,
} from "./json-frames.js";
import type { Shape } from "./schema-shape.js";
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

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
      return b === QUOTE
        ? [
            {
              t: "string",
              escape: 0,
              utf8: UTF8_DONE,
              count: 0,
              min: shape.minLength ?? 0,
              max: shape.maxLength ?? Infinity,
            },
          ]
        : [];
    case "number": {
      if (b === 0x2d && shape.nonNegative !== true) return [{ t: "number", shape, phase: "minus", digits: 0 }];
      if (b === 0x30 && shape.positive !== true) return [{ t: "number", shape, phase: "zero", digits: 1 }];
      return isDigit(b) && b !== 0x30 ? [{ t: "number", shape, phase: "int", digits: 1 }] : [];
    }
    case "literals": {
      const texts = shape.texts.map(utf8Bytes).filter((text) => text[0] === b);
      return texts.length === 0 ? [] : [{ t: "literal", texts, at: 1 }];
    }
  }
}

type NumberFrame = Extract<Frame, { t: "number" }>;

/** The number frame after byte b, or undefined when b cannot come next. */
function numberStep(frame: NumberFrame, b: number): NumberFrame | undefined {
  const phase = numberPhase(frame, b);
  if (phase === undefined) return undefined;
  const counts = isDigit(b) && (phase === "int" || (frame.phase === "minus" && phase === "zero"));
  if (counts && frame.digits >= (frame.shape.maxDigits ?? Infinity)) return undefined;
  return { t: "number", shape: frame.shape, phase, digits: counts ? frame.digits + 1 : frame.digits };
}

function numberPhase(frame: NumberFrame, b: number): NumberPhase | undefined {
  const { shape } = frame;
  const exponent = !shape.integer && shape.maxDigits === undefined && (b === 0x65 || b === 0x45);
  const dot = !shape.integer && b === 0x2e;
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
  const starting = frame.utf8.pending === 0;
  if (starting && b === QUOTE) return frame.count >= frame.min ? [completed(below)] : [];
  if (starting && frame.count >= frame.max) return [];
  if (starting && b === BACKSLASH) return at({ ...frame, escape: 1, count: frame.count + 1 });
  const utf8 = textByte(frame.utf8, b);
  return utf8 === undefined ? [] : at({ ...frame, utf8, count: starting ? frame.count + 1 : frame.count });
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
      const next = numberStep(top, b);
      if (next !== undefined) out.push([...below, next]);
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

/** The stacks after a token's bytes (none: they cannot come next); duplicates dropped when `dedupe`. */
function walk(stacks: readonly Stack[], bytes: readonly number[], dedupe = false): Stack[] {
  let now: Stack[] = [...stacks];
  for (const b of bytes) {
    const next = now.flatMap((stack) => step(stack, b));
    now = dedupe ? distinct(next) : next;
    if (now.length === 0) break;
  }
  return now;
}

const BYTES = byteVocabulary(260);

export function createJsonConstraint(shape: Shape, vocabulary: Vocabulary = BYTES): JsonConstraint {
  let stacks: Stack[] = [[{ t: "value", shape }]];
  let ended = false;
  return {
    mask(remaining, vocab) {
      const mask = new Uint8Array(vocab);
      if (ended) return mask.fill(1);
      // A token's bytes, then the rest of the value (a token a byte at most), then the end token.
      const fits = (next: Stack): boolean => minRest(next) + 2 <= remaining;
      const byteFits = new Map<number, boolean>();
      for (let token = 0; token < vocab; token++) {
        const bytes = vocabulary.bytes(token);
        if (bytes.length === 0) continue;
        if (bytes.length > 1) {
          if (walk(stacks, bytes).some(fits)) mask[token] = 1;
          continue;
        }
        const b = bytes[0]!;
        let allowed = byteFits.get(b);
        if (allowed === undefined) byteFits.set(b, (allowed = stacks.some((stack) => step(stack, b).some(fits))));
        if (allowed) mask[token] = 1;
      }
      if (stacks.some(isComplete) || mask.every((allowed) => allowed === 0))
        for (const end of vocabulary.endTokens) if (end < vocab) mask[end] = 1;
      return mask;
    },
    advance(token) {
      const bytes = vocabulary.bytes(token);
      if (bytes.length === 0) {
        ended = true;
        return;
      }
      stacks = walk(stacks, bytes, true);
    },
  };
}
