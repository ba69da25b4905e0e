// Constrained decoding of one value of a shape (schema-shape.ts) as a byte machine (byte-machine.ts): before each
// token, the tokens whose bytes keep the text a prefix of a matching value, those that leave room to finish it
// within the tokens left preferred, and the end tokens once the value is complete. This is what vLLM's grammar
// backends do for structured outputs (structured-output.ts) and for tool_choice "required" and a named function
// (tool-choice.ts); here with pure TypeScript, no eval. When max_tokens is too small for the shortest value, the
// reply is cut (finish_reason "length"), as in vLLM.
//
// The text is compact JSON: no whitespace between tokens. Strings are JSON strings (escapes included) of valid
// UTF-8 within their length bounds and pattern (json-string.ts); object keys are the declared names (each at most
// once) or, where the shape allows other keys, strings without escapes (each at most once), as many as
// minProperties and maxProperties allow; arrays hold their prefixItems then items; numbers are written as
// number-text.ts says (within their bounds, always finite). Literals (enum, const, guided_choice) are written byte
// for byte.
//
// The state is a set of parse stacks (a union or an ambiguous end, as "1" before "12", keeps several), each a
// list of frames (json-frames.ts); `minRest` is the fewest bytes that complete a stack.
import { machineConstraint, shortestText, type ByteMachine } from "./byte-machine.js";
import {
  ANY_OPTIONS,
  eligible,
  escaping,
  latin1,
  members,
  minRest,
  optionalRoom,
  sameBytes,
  startsWith,
  utf8Bytes,
  type Frame,
  type ObjectFrame,
  type Stack,
} from "./json-frames.js";
import { BACKSLASH, QUOTE, startString, stringStep, textByte, UTF8_DONE } from "./json-string.js";
import { fewestMore, numberStep } from "./number-text.js";
import { itemAt, type Shape } from "./schema-shape.js";
import type { TokenConstraint } from "./token-masks.js";
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

// ---- transitions ------------------------------------------------------------------------------------------

/** A frame that may end without a closing byte (a number, a literal) and may end now. */
function canEnd(frame: Frame): boolean {
  if (frame.t === "number") return fewestMore(frame.shape, frame.text) === 0;
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
      return b === 0x7b
        ? [{ t: "object", shape, phase: "open", seen: [], extras: [], key: [], free: true, utf8: UTF8_DONE }]
        : [];
    case "array":
      return b === 0x5b ? [{ t: "array", shape, phase: "first", count: 0 }] : [];
    case "string":
      return b === QUOTE ? [startString(shape)] : [];
    case "number": {
      const text = numberStep(shape, "", b);
      return text === undefined ? [] : [{ t: "number", shape, text }];
    }
    case "literals": {
      const texts = shape.texts.map(utf8Bytes).filter((text) => text[0] === b);
      return texts.length === 0 ? [] : [{ t: "literal", texts, at: 1 }];
    }
    case "never":
      return [];
  }
}

const keysWritten = (frame: ObjectFrame) => ({
  seen: frame.seen,
  extras: frame.extras,
  count: frame.seen.length + frame.extras.length,
});

/** The object after the closing quote of its key, or undefined when that key cannot be written now. */
function keyDone(frame: ObjectFrame): ObjectFrame | undefined {
  const { shape, key } = frame;
  const written = keysWritten(frame);
  const member = members(shape).find((candidate) => sameBytes(candidate.bytes, key));
  if (member !== undefined)
    return eligible(shape, written, member)
      ? { ...frame, phase: "colon", seen: [...frame.seen, member.name], chosen: member.shape }
      : undefined;
  const text = latin1(key);
  if (shape.additional === undefined || !frame.free || frame.utf8.pending > 0) return undefined;
  if (frame.extras.includes(text) || !optionalRoom(shape, written)) return undefined;
  return { ...frame, phase: "colon", extras: [...frame.extras, text], chosen: shape.additional };
}

function keyStep(frame: ObjectFrame, b: number): ObjectFrame | undefined {
  const { shape, key } = frame;
  if (b === QUOTE && !escaping(key)) return keyDone(frame);
  const longer = [...key, b];
  const written = keysWritten(frame);
  const declared = members(shape).some(
    (member) => eligible(shape, written, member) && startsWith(member.bytes, longer),
  );
  const utf8 = frame.free && b !== BACKSLASH ? textByte(frame.utf8, b) : undefined;
  const free = shape.additional !== undefined && utf8 !== undefined && optionalRoom(shape, written);
  return declared || free ? { ...frame, key: longer, free, utf8: utf8 ?? UTF8_DONE } : undefined;
}

/** True when another key can still be written. */
function moreKeys(frame: ObjectFrame): boolean {
  const { shape } = frame;
  const written = keysWritten(frame);
  if (shape.additional !== undefined && optionalRoom(shape, written)) return true;
  return members(shape).some((member) => eligible(shape, written, member));
}

function closable(frame: ObjectFrame): boolean {
  const { shape } = frame;
  const all = members(shape).every((member) => !shape.required.has(member.name) || frame.seen.includes(member.name));
  return all && frame.seen.length + frame.extras.length >= shape.minProperties;
}

function objectStep(frame: ObjectFrame, below: Stack, b: number): Stack[] {
  const at = (next: Frame | undefined): Stack[] => (next === undefined ? [] : [[...below, next]]);
  const openKey = (): Frame => ({ ...frame, phase: "key", key: [], free: true, utf8: UTF8_DONE });
  switch (frame.phase) {
    case "open":
      if (b === QUOTE && moreKeys(frame)) return at(openKey());
      return b === 0x7d && closable(frame) ? [completed(below)] : [];
    case "next":
      return b === QUOTE ? at(openKey()) : [];
    case "after":
      if (b === 0x2c && moreKeys(frame)) return at({ ...frame, phase: "next" });
      return b === 0x7d && closable(frame) ? [completed(below)] : [];
    case "colon":
      return b === 0x3a ? [[...below, { ...frame, phase: "value" }, { t: "value", shape: frame.chosen! }]] : [];
    case "value":
      return [];
    case "key":
      return at(keyStep(frame, b));
  }
}

function arrayStep(frame: Extract<Frame, { t: "array" }>, below: Stack, b: number): Stack[] {
  const { shape } = frame;
  switch (frame.phase) {
    case "first":
    case "next": {
      const closing = frame.phase === "first" && b === 0x5d && shape.minItems === 0 ? [completed(below)] : [];
      const item = itemAt(shape, frame.count);
      if (frame.count >= shape.maxItems || item === undefined) return closing;
      const inside: Frame = { ...frame, phase: "item" };
      return [...closing, ...starts(item, b).map((start): Stack => [...below, inside, start])];
    }
    case "after":
      if (b === 0x2c && frame.count < shape.maxItems && itemAt(shape, frame.count) !== undefined)
        return [[...below, { ...frame, phase: "next" }]];
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
    case "string": {
      const next = stringStep(top, b);
      if (next === "end") out.push(completed(below));
      else if (next !== undefined) out.push([...below, next]);
      break;
    }
    case "number": {
      const text = numberStep(top.shape, top.text, b);
      if (text !== undefined) out.push([...below, { ...top, text }]);
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

/** The JSON values of a shape as a byte machine. */
export function jsonMachine(shape: Shape): ByteMachine<Stack> {
  return {
    initial: [[{ t: "value", shape }]],
    step,
    complete: isComplete,
    rest: (stack) => (isComplete(stack) ? 0 : minRest(stack)),
    distinct(stacks) {
      const seen = new Map<string, Stack>();
      for (const stack of stacks) seen.set(stackKey(stack), stack);
      return [...seen.values()];
    },
  };
}

/** The fewest tokens of a reply of the shape: its fewest bytes and the end token. */
export function shortestReply(shape: Shape): number {
  return shortestText(jsonMachine(shape));
}

const BYTES = byteVocabulary(260);

export function createJsonConstraint(shape: Shape, vocabulary: Vocabulary = BYTES): TokenConstraint {
  return machineConstraint(jsonMachine(shape), vocabulary);
}
