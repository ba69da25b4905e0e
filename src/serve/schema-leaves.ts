// The leaves of a schema's shape (schema-shape.ts): strings (length bounds, and patterns and formats compiled to one
// automaton, regex-automaton.ts) and numbers (bounds and multipleOf, number-text.ts). Pure; a SchemaProblem names
// what cannot be enforced or leaves no value.
import type { StringShape } from "./json-string.js";
import { boundOf, fewestMore, SAFE_INTEGER, type Bound, type NumberRange, type NumberShape } from "./number-text.js";
import { compileRegex, intersectNfa, type Nfa } from "./regex-automaton.js";
import { LazyDfa } from "./regex-dfa.js";
import { parseRegex, RegexProblem } from "./regex-syntax.js";
import type { Schema } from "./schema-merge.js";
import { SchemaProblem } from "./schema-problem.js";
import { formatPattern } from "./string-formats.js";

export const join = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`);

export function count(schema: Schema, key: string, fallback: number): number {
  const value = schema[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** A pair of count bounds (minLength and maxLength, minItems and maxItems), defaults 0 and Infinity; a SchemaProblem
 * when the maximum is below the minimum (no `what` matches). */
export function countRange(schema: Schema, path: string, min: string, max: string, what: string): [number, number] {
  const low = count(schema, min, 0);
  const high = count(schema, max, Infinity);
  if (high < low) throw new SchemaProblem(join(path, max), `${max} ${high} is below ${min} ${low}: no ${what} matches`);
  return [low, high];
}

const list = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const automata = new Map<string, LazyDfa>();
/** The automaton of a string's patterns and formats together (cached: schemas repeat across requests). */
function patternAutomaton(patterns: readonly string[], path: string): LazyDfa {
  const key = JSON.stringify(patterns);
  let dfa = automata.get(key);
  if (dfa !== undefined) return dfa;
  let nfa: Nfa | undefined;
  try {
    for (const pattern of patterns) {
      const one = compileRegex(parseRegex(pattern), true);
      nfa = nfa === undefined ? one : intersectNfa(nfa, one);
    }
  } catch (error) {
    if (error instanceof RegexProblem) throw new SchemaProblem(join(path, "pattern"), error.message);
    throw error;
  }
  dfa = new LazyDfa(nfa!);
  if (automata.size >= 256) automata.delete(automata.keys().next().value!);
  automata.set(key, dfa);
  return dfa;
}

export function stringShape(schema: Schema, path: string): StringShape {
  const [minLength, maxLength] = countRange(schema, path, "minLength", "maxLength", "string");
  const patterns = list(schema["pattern"]).map((pattern) => {
    if (typeof pattern !== "string") throw new SchemaProblem(join(path, "pattern"), "expected a string");
    return pattern;
  });
  for (const format of list(schema["format"])) {
    const pattern = typeof format === "string" ? formatPattern(format) : undefined;
    if (pattern !== undefined) patterns.push(pattern);
  }
  const shape: StringShape = {
    kind: "string",
    ...(minLength === 0 ? {} : { minLength }),
    ...(maxLength === Infinity ? {} : { maxLength }),
    ...(patterns.length === 0
      ? {}
      : { pattern: patternAutomaton(patterns, path), patternText: patterns.map((p) => `/${p}/`).join(" and ") }),
  };
  if (shape.pattern !== undefined && shape.pattern.fewest(0, minLength) > maxLength)
    throw new SchemaProblem(join(path, "pattern"), `no string of ${shape.patternText} is within the length bounds`);
  return shape;
}

function numberValue(schema: Schema, key: string, path: string): number | undefined {
  const value = schema[key];
  if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value)))
    throw new SchemaProblem(join(path, key), `${key} must be a number`);
  return value as number | undefined;
}

/** The tighter of an inclusive and an exclusive bound on one side. */
function tighter(inclusive: number | undefined, exclusive: number | undefined, low: boolean): Bound | undefined {
  if (inclusive === undefined) return exclusive === undefined ? undefined : boundOf(exclusive, true);
  if (exclusive === undefined) return boundOf(inclusive, false);
  const exclusiveWins = low ? exclusive >= inclusive : exclusive <= inclusive;
  return exclusiveWins ? boundOf(exclusive, true) : boundOf(inclusive, false);
}

export function numberShape(schema: Schema, path: string, integer: boolean): NumberShape {
  const [min, max, xmin, xmax, multiple] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
    .map((key) => numberValue(schema, key, path))
    .concat([numberValue(schema, "multipleOf", path)]);
  if (multiple !== undefined && (!Number.isSafeInteger(multiple) || multiple <= 0))
    throw new SchemaProblem(
      join(path, "multipleOf"),
      `multipleOf ${multiple} is not supported by budgetrl serve's constrained decoding (a positive integer is)`,
    );
  const whole = integer || multiple !== undefined;
  const safe = (num: bigint): Bound => ({ num, scale: 0, exclusive: false });
  let low = tighter(min, xmin, true);
  let high = tighter(max, xmax, false);
  if (whole) {
    low ??= safe(-SAFE_INTEGER);
    high ??= safe(SAFE_INTEGER);
  }
  const range: NumberRange | undefined =
    low === undefined && high === undefined && !whole
      ? undefined
      : {
          ...(low === undefined ? {} : { low }),
          ...(high === undefined ? {} : { high }),
          ...(multiple === undefined ? {} : { multipleOf: BigInt(multiple) }),
        };
  const shape: NumberShape = { kind: "number", integer: whole, ...(range === undefined ? {} : { range }) };
  if (fewestMore(shape, "") === Infinity) {
    const key = ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"].find((k) => k in schema);
    throw new SchemaProblem(join(path, key ?? "type"), `no ${whole ? "integer" : "number"} is within these bounds`);
  }
  return shape;
}
