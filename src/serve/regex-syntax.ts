// Regular expressions in the ECMAScript dialect JSON Schema's `pattern` uses (ECMA-262 with the u flag, as Ajv
// compiles them; Annex B's lenient literals `{`, `}` and `]` accepted), parsed into the tree that
// regex-automaton.ts compiles to an automaton over code points. Pure; a construct that is not regular or not
// supported is a RegexProblem naming it and where it is, e.g. "a lookahead (?= at 3 is not supported".
//
// Supported: literals and escapes (\t \n \v \f \r \0 \cX \xHH \uHHHH, surrogate pairs, \u{H...}, identity escapes
// of punctuation), `.` (anything but \n \r U+2028 U+2029), classes [...] and [^...] with ranges, \d \D \w \W \s \S,
// \p{...} and \P{...} (Unicode properties, as JavaScript knows them), groups (...), (?:...), (?<name>...),
// alternation, the quantifiers * + ? {n} {n,} {n,m} (lazy ones too: the same language), and the anchors ^ and $.
// Lookaheads (?=...) and (?!...) are read; regex-automaton.ts compiles them at the start of an anchored pattern
// (pydantic's Decimal: ^(?!^[-+.]*$)...) and refuses them elsewhere. Refused here: backreferences (\1, \k<name>),
// lookbehinds ((?<= (?<!), word boundaries (\b \B), inline modifiers ((?i:...)), and counts above MAX_REPEAT.
import {
  ANY_CHAR,
  charSet,
  complement,
  EMPTY_SET,
  MAX_CODE_POINT,
  single,
  subtract,
  union,
  type CharSet,
} from "./char-set.js";

export type RegexNode =
  | { readonly t: "set"; readonly set: CharSet }
  | { readonly t: "seq"; readonly items: readonly RegexNode[] }
  | { readonly t: "alt"; readonly options: readonly RegexNode[] }
  | { readonly t: "repeat"; readonly node: RegexNode; readonly min: number; readonly max: number }
  | { readonly t: "assert"; readonly at: "start" | "end" }
  /** A lookahead, (?=...) or (?!...) (negate); compiled only at the start of an anchored pattern. */
  | { readonly t: "look"; readonly negate: boolean; readonly node: RegexNode };

/** The largest count of a quantifier {n,m}. */
export const MAX_REPEAT = 1000;

export class RegexProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegexProblem";
  }
}

export const DIGIT: CharSet = charSet([[0x30, 0x39]]);
export const WORD: CharSet = charSet([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
/** JavaScript's \s: WhiteSpace and LineTerminator. */
export const SPACE: CharSet = charSet([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: CharSet = charSet([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
export const DOT: CharSet = subtract(ANY_CHAR, LINE_TERMINATORS);

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
const SYNTAX = "^$\\.*+?()[]{}|/-,:;=!<>@#%&'\"`~ ";

const propertyCache = new Map<string, CharSet>();
/** The code points with a Unicode property (\p{L}, \p{Script=Greek}), as JavaScript's own RegExp knows them. */
function unicodeProperty(name: string): CharSet {
  let set = propertyCache.get(name);
  if (set !== undefined) return set;
  if (!/^[A-Za-z_]+(=[A-Za-z_]+)?$/.test(name)) throw new RegexProblem(`\\p{${name}} is not a Unicode property`);
  let test: RegExp;
  try {
    test = new RegExp(`^\\p{${name}}$`, "u");
  } catch {
    throw new RegexProblem(`\\p{${name}} is not a Unicode property JavaScript knows`);
  }
  const ranges: [number, number][] = [];
  let start = -1;
  for (let cp = 0; cp <= MAX_CODE_POINT + 1; cp++) {
    const member = cp <= MAX_CODE_POINT && (cp < 0xd800 || cp > 0xdfff) && test.test(String.fromCodePoint(cp));
    if (member && start < 0) start = cp;
    if (!member && start >= 0) {
      ranges.push([start, cp - 1]);
      start = -1;
    }
  }
  set = charSet(ranges);
  propertyCache.set(name, set);
  return set;
}

/** A recursive-descent parser over the pattern's code points. */
class Parser {
  private readonly chars: number[];
  private at = 0;
  constructor(private readonly source: string) {
    this.chars = Array.from(source, (ch) => ch.codePointAt(0)!);
  }

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.at < this.chars.length) throw this.problem(`an unmatched ")"`);
    return node;
  }

  private problem(what: string, at = this.at): RegexProblem {
    return new RegexProblem(`${what} at ${at} of ${JSON.stringify(this.source)} is not supported`);
  }

  private peek(offset = 0): number | undefined {
    return this.chars[this.at + offset];
  }

  private eat(cp: number): boolean {
    if (this.peek() !== cp) return false;
    this.at++;
    return true;
  }

  private lookingAt(text: string): boolean {
    return Array.from(text).every((ch, i) => this.peek(i) === ch.codePointAt(0));
  }

  private disjunction(): RegexNode {
    const options = [this.alternative()];
    while (this.eat(0x7c)) options.push(this.alternative());
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (this.at < this.chars.length && this.peek() !== 0x7c && this.peek() !== 0x29) {
      const atom = this.term();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private term(): RegexNode {
    const start = this.at;
    const cp = this.chars[this.at++]!;
    switch (cp) {
      case 0x5e:
        return { t: "assert", at: "start" };
      case 0x24:
        return { t: "assert", at: "end" };
      case 0x2e:
        return { t: "set", set: DOT };
      case 0x28:
        return this.group(start);
      case 0x5b:
        return { t: "set", set: this.charClass() };
      case 0x5c:
        return this.atomEscape(start);
      case 0x2a:
      case 0x2b:
      case 0x3f:
        throw this.problem("a quantifier with nothing to repeat", start);
      default:
        return { t: "set", set: single(cp) };
    }
  }

  private group(start: number): RegexNode {
    if (this.eat(0x3f)) {
      if (this.eat(0x3a)) return this.closeGroup(start);
      if (this.lookingAt("=") || this.lookingAt("!")) {
        const negate = this.chars[this.at++] === 0x21;
        return { t: "look", negate, node: this.closeGroup(start) };
      }
      if (this.lookingAt("<=") || this.lookingAt("<!")) throw this.problem("a lookbehind (?<", start);
      if (this.eat(0x3c)) {
        while (this.peek() !== undefined && this.peek() !== 0x3e) this.at++;
        if (!this.eat(0x3e)) throw this.problem("an unterminated group name", start);
        return this.closeGroup(start);
      }
      throw this.problem("an inline modifier (?", start);
    }
    return this.closeGroup(start);
  }

  private closeGroup(start: number): RegexNode {
    const inner = this.disjunction();
    if (!this.eat(0x29)) throw this.problem(`an unterminated group "("`, start);
    return inner;
  }

  /** A {n}, {n,} or {n,m} at the cursor (consumed), or undefined (nothing consumed: `{` is a literal). */
  private braces(): { min: number; max: number } | undefined {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.chars.slice(this.at, this.at + 24)));
    if (match === null) return undefined;
    this.at += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT))
      throw this.problem(`a count above ${MAX_REPEAT} in ${match[0]}`, this.at - match[0].length);
    if (max < min) throw new RegexProblem(`${match[0]} in ${JSON.stringify(this.source)}: the counts are out of order`);
    return { min, max };
  }

  private quantified(atom: RegexNode): RegexNode {
    const cp = this.peek();
    let bounds: { min: number; max: number } | undefined;
    if (cp === 0x2a) bounds = { min: 0, max: Infinity };
    else if (cp === 0x2b) bounds = { min: 1, max: Infinity };
    else if (cp === 0x3f) bounds = { min: 0, max: 1 };
    if (bounds !== undefined) this.at++;
    else if (cp === 0x7b) bounds = this.braces();
    if (bounds === undefined) return atom;
    if (atom.t === "assert" || atom.t === "look") throw this.problem("a quantified assertion", this.at - 1);
    this.eat(0x3f); // lazy: the same language
    const next = this.peek();
    const at = this.at;
    if (next === 0x2a || next === 0x2b || next === 0x3f || (next === 0x7b && this.braces() !== undefined))
      throw this.problem("a quantifier with nothing to repeat", at);
    return { t: "repeat", node: atom, ...bounds };
  }

  private atomEscape(start: number): RegexNode {
    const cp = this.peek();
    if (cp === undefined) throw this.problem("a pattern ending in a backslash", start);
    if (cp === 0x62 || cp === 0x42) throw this.problem(`a word boundary \\${String.fromCodePoint(cp)}`, start);
    if ((cp >= 0x31 && cp <= 0x39) || cp === 0x6b) throw this.problem("a backreference", start);
    return { t: "set", set: this.escapeSet(start, false) };
  }

  /** The set of one escape after its backslash (in a class: \b is backspace, \- a dash). */
  private escapeSet(start: number, inClass: boolean): CharSet {
    const cp = this.chars[this.at++]!;
    const letter = String.fromCodePoint(cp);
    switch (letter) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "p":
      case "P": {
        if (!this.eat(0x7b)) throw this.problem(`\\${letter} without {name}`, start);
        const from = this.at;
        while (this.peek() !== undefined && this.peek() !== 0x7d) this.at++;
        const name = String.fromCodePoint(...this.chars.slice(from, this.at));
        if (!this.eat(0x7d)) throw this.problem(`an unterminated \\${letter}{`, start);
        const set = unicodeProperty(name);
        return letter === "p" ? set : complement(set);
      }
      default:
        if (inClass && letter === "b") return single(0x08);
        return single(this.escapedChar(cp, start));
    }
  }

  private hex(count: number, start: number): number {
    const digits = String.fromCodePoint(...this.chars.slice(this.at, this.at + count));
    if (digits.length !== count || !/^[0-9A-Fa-f]+$/.test(digits)) throw this.problem("a malformed hex escape", start);
    this.at += count;
    return parseInt(digits, 16);
  }

  /** The code point of a character escape (its letter already read). */
  private escapedChar(cp: number, start: number): number {
    const letter = String.fromCodePoint(cp);
    const control = CONTROL_ESCAPES[letter];
    if (control !== undefined) return control;
    if (letter === "0" && !(this.peek() !== undefined && this.peek()! >= 0x30 && this.peek()! <= 0x39)) return 0;
    if (letter === "c") {
      const next = this.peek();
      if (next === undefined || !/[A-Za-z]/.test(String.fromCodePoint(next)))
        throw this.problem("a malformed \\c", start);
      this.at++;
      return next % 32;
    }
    if (letter === "x") return this.hex(2, start);
    if (letter === "u") return this.unicodeEscape(start);
    if (SYNTAX.includes(letter)) return cp;
    throw this.problem(`the escape \\${letter}`, start);
  }

  private unicodeEscape(start: number): number {
    if (this.eat(0x7b)) {
      const from = this.at;
      while (this.peek() !== undefined && this.peek() !== 0x7d) this.at++;
      const digits = String.fromCodePoint(...this.chars.slice(from, this.at));
      if (!this.eat(0x7d) || !/^[0-9A-Fa-f]{1,6}$/.test(digits) || parseInt(digits, 16) > MAX_CODE_POINT)
        throw this.problem("a malformed \\u{...}", start);
      return parseInt(digits, 16);
    }
    const high = this.hex(4, start);
    if (high >= 0xd800 && high <= 0xdbff && this.lookingAt("\\u")) {
      const saved = this.at;
      this.at += 2;
      const low = this.hex(4, start);
      if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
      this.at = saved;
    }
    return high;
  }

  /** A class after its "[" up to and with its "]". */
  private charClass(): CharSet {
    const start = this.at - 1;
    const negated = this.eat(0x5e);
    let set: CharSet = EMPTY_SET;
    for (;;) {
      const cp = this.peek();
      if (cp === undefined) throw this.problem(`an unterminated class "["`, start);
      if (cp === 0x5d) {
        this.at++;
        break;
      }
      const low = this.classAtom(start);
      if (this.peek() === 0x2d && this.peek(1) !== 0x5d && this.peek(1) !== undefined && low.single !== undefined) {
        this.at++;
        const high = this.classAtom(start);
        if (high.single === undefined) {
          set = union(union(set, low.set), union(single(0x2d), high.set));
          continue;
        }
        if (high.single < low.single) throw this.problem("a class range out of order", start);
        set = union(set, charSet([[low.single, high.single]]));
      } else set = union(set, low.set);
    }
    return negated ? complement(set) : set;
  }

  private classAtom(start: number): { set: CharSet; single: number | undefined } {
    const cp = this.chars[this.at++]!;
    if (cp !== 0x5c) return { set: single(cp), single: cp };
    if (this.peek() === undefined) throw this.problem(`an unterminated class "["`, start);
    const letter = String.fromCodePoint(this.peek()!);
    if ("dDwWsSpP".includes(letter)) return { set: this.escapeSet(start, true), single: undefined };
    if (letter === "b") {
      this.at++;
      return { set: single(0x08), single: 0x08 };
    }
    if (letter === "-") {
      this.at++;
      return { set: single(0x2d), single: 0x2d };
    }
    const value = this.escapedChar(this.chars[this.at++]!, start);
    return { set: single(value), single: value };
  }
}

/** The tree of a pattern, or a RegexProblem naming what is not supported. */
export function parseRegex(source: string): RegexNode {
  return new Parser(source).parse();
}
