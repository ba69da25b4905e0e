// guided_grammar's text: the EBNF dialect xgrammar reads (the GBNF family of llama.cpp, with its extensions),
// parsed into one expression per rule (grammar.ts compiles them). Pure; what it does not support is a
// GrammarProblem naming the construct and its line and column.
//
//   name ::= expression          one rule per definition (a name first on its line); `root` is where a reply starts
//   "text"                       a literal: escapes \" \\ \/ \' \? \n \r \t \b \f \a \v \0 \e, \xHH... (any number
//                                of hex digits), \uXXXX and \UXXXXXXXX
//   [a-z0-9_] [^"\\] [^]          a character class (the same escapes, and \^ \$ \. \* \+ \( \) \[ \] \{ \} \| \-)
//   name                         a rule
//   a b | c                      sequence and alternatives; ( ) groups, () the empty text
//   x? x* x+ x{n} x{n,} x{n,m}   repetition
//   Regex("pattern")             a regular expression (regex-syntax.ts: `.` is JavaScript's, no line breaks)
//   # comment                    to the end of the line
// Refused with a GrammarProblem: rule options (name[max_tokens=...]), lookahead assertions (= ...), and the other
// macros (TagDispatch, Token, ExcludeToken, TokenTagDispatch, Substring, Regex with named arguments).
import { charSet, complement, EMPTY_SET, single, union, type CharSet } from "./char-set.js";
import { MAX_REPEAT, parseRegex, RegexProblem, type RegexNode } from "./regex-syntax.js";

export type Expr =
  | { readonly t: "set"; readonly set: CharSet }
  | { readonly t: "seq"; readonly items: readonly Expr[] }
  | { readonly t: "alt"; readonly options: readonly Expr[] }
  | { readonly t: "repeat"; readonly node: Expr; readonly min: number; readonly max: number }
  | { readonly t: "ref"; readonly name: string; readonly line: number };

export interface RuleText {
  readonly name: string;
  readonly body: Expr;
  readonly line: number;
}

export class GrammarProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GrammarProblem";
  }
}

const NAME = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  '"': 0x22,
  "\\": 0x5c,
  "/": 0x2f,
  "'": 0x27,
  "?": 0x3f,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  b: 0x08,
  f: 0x0c,
  a: 0x07,
  v: 0x0b,
  "0": 0x00,
  e: 0x1b,
};
const CLASS_PUNCTUATION = "^$\\.*+?()[]{}|/-";

class EbnfParser {
  private at = 0;
  constructor(private readonly text: string) {}

  private where(at = this.at): string {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    return `line ${line}, column ${at - before.lastIndexOf("\n")}`;
  }

  problem(what: string, at = this.at): GrammarProblem {
    return new GrammarProblem(`${what} at ${this.where(at)}`);
  }

  private lineOf(at: number): number {
    return this.text.slice(0, at).split("\n").length;
  }

  /** Skips spaces, line breaks and comments. */
  private skip(): void {
    for (;;) {
      const match = /(?:\s+|#[^\n]*)/y;
      match.lastIndex = this.at;
      if (!match.test(this.text)) return;
      this.at = match.lastIndex;
    }
  }

  private name(): string | undefined {
    NAME.lastIndex = this.at;
    const match = NAME.exec(this.text);
    if (match === null) return undefined;
    this.at = NAME.lastIndex;
    return match[0];
  }

  /** True when a rule definition (`name ::=` or `name[...] ::=`) starts at the cursor. */
  private atDefinition(): boolean {
    const match = /[A-Za-z_][A-Za-z0-9_.-]*\s*(\[[^\]\n]*\]\s*)?::=/y;
    match.lastIndex = this.at;
    return match.test(this.text);
  }

  rules(): RuleText[] {
    const rules: RuleText[] = [];
    this.skip();
    while (this.at < this.text.length) {
      const start = this.at;
      const name = this.name();
      if (name === undefined) throw this.problem("expected a rule name");
      this.skip();
      if (this.text[this.at] === "[")
        throw this.problem(`rule options (${name}[...]) are not supported by budgetrl serve`, this.at);
      if (!this.text.startsWith("::=", this.at)) throw this.problem(`expected "::=" after ${name}`);
      this.at += 3;
      rules.push({ name, body: this.alternatives(), line: this.lineOf(start) });
      this.skip();
    }
    return rules;
  }

  private alternatives(): Expr {
    const options = [this.sequence()];
    this.skip();
    while (this.text[this.at] === "|") {
      this.at++;
      options.push(this.sequence());
      this.skip();
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private sequence(): Expr {
    const items: Expr[] = [];
    for (;;) {
      this.skip();
      const ch = this.text[this.at];
      if (ch === undefined || ch === "|" || ch === ")" || this.atDefinition()) break;
      items.push(this.repeated(this.element()));
    }
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private element(): Expr {
    const start = this.at;
    const ch = this.text[this.at]!;
    if (ch === '"') return this.literal();
    if (ch === "[") return { t: "set", set: this.charClass() };
    if (ch === "(") {
      this.at++;
      this.skip();
      if (this.text[this.at] === "=") throw this.problem("a lookahead assertion (= ...) is not supported", start);
      if (this.text[this.at] === ")") {
        this.at++;
        return { t: "seq", items: [] };
      }
      const inner = this.alternatives();
      if (this.text[this.at] !== ")") throw this.problem('expected ")"');
      this.at++;
      return inner;
    }
    const name = this.name();
    if (name === undefined) throw this.problem(`unexpected ${JSON.stringify(ch)}`);
    if (this.text[this.at] === "(") return this.macro(name, start);
    return { t: "ref", name, line: this.lineOf(start) };
  }

  private macro(name: string, start: number): Expr {
    if (name !== "Regex") throw this.problem(`the macro ${name}(...) is not supported by budgetrl serve`, start);
    this.at++;
    this.skip();
    const pattern = this.literalText();
    this.skip();
    if (this.text[this.at] !== ")")
      throw this.problem("Regex(...) with named arguments is not supported by budgetrl serve", start);
    this.at++;
    try {
      return withoutAnchors(parseRegex(pattern));
    } catch (error) {
      if (error instanceof RegexProblem) throw this.problem(`Regex(...): ${error.message}`, start);
      throw error;
    }
  }

  private repeated(element: Expr): Expr {
    const ch = this.text[this.at];
    let bounds: { min: number; max: number } | undefined;
    if (ch === "?") bounds = { min: 0, max: 1 };
    else if (ch === "*") bounds = { min: 0, max: Infinity };
    else if (ch === "+") bounds = { min: 1, max: Infinity };
    if (bounds !== undefined) this.at++;
    else if (ch === "{") {
      const match = /\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/y;
      match.lastIndex = this.at;
      const found = match.exec(this.text);
      if (found === null) throw this.problem("a malformed repetition {n,m}");
      this.at = match.lastIndex;
      const min = Number(found[1]);
      const max = found[2] === undefined ? min : found[3] === "" ? Infinity : Number(found[3]);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT) || max < min)
        throw this.problem(
          `the repetition ${found[0]} (counts up to ${MAX_REPEAT}, in order)`,
          this.at - found[0].length,
        );
      bounds = { min, max };
    }
    if (bounds === undefined) return element;
    const after = this.text[this.at];
    if (after !== undefined && "?*+{".includes(after))
      throw this.problem("two repetition operators on one element (wrap it in parentheses)");
    return { t: "repeat", node: element, ...bounds };
  }

  /** The code point of an escape after its backslash (the backslash consumed). */
  private escape(inClass: boolean): number {
    const ch = this.text[this.at];
    if (ch === undefined) throw this.problem("a text ending in a backslash");
    this.at++;
    const simple = SIMPLE_ESCAPES[ch];
    if (simple !== undefined) return simple;
    const hex = (digits: RegExp): number => {
      digits.lastIndex = this.at;
      const found = digits.exec(this.text);
      if (found === null) throw this.problem(`a malformed \\${ch} escape`);
      this.at = digits.lastIndex;
      const value = parseInt(found[0], 16);
      if (value > 0x10ffff) throw this.problem(`\\${ch}${found[0]} is beyond Unicode`);
      return value;
    };
    if (ch === "x") return hex(/[0-9A-Fa-f]+/y);
    if (ch === "u") return hex(/[0-9A-Fa-f]{4}/y);
    if (ch === "U") return hex(/[0-9A-Fa-f]{8}/y);
    if (inClass && CLASS_PUNCTUATION.includes(ch)) return ch.codePointAt(0)!;
    throw this.problem(`the escape \\${ch} is not supported`, this.at - 2);
  }

  /** The text of a literal "..." at the cursor. */
  private literalText(): string {
    if (this.text[this.at] !== '"') throw this.problem("expected a string literal");
    const start = this.at++;
    const chars: number[] = [];
    for (;;) {
      const cp = this.text.codePointAt(this.at);
      if (cp === undefined) throw this.problem("an unterminated string literal", start);
      if (cp === 0x0a) throw this.problem("a line break inside a string literal (write \\n)");
      this.at += cp > 0xffff ? 2 : 1;
      if (cp === 0x22) return String.fromCodePoint(...chars);
      chars.push(cp === 0x5c ? this.escape(false) : cp);
    }
  }

  private literal(): Expr {
    const text = this.literalText();
    return { t: "seq", items: Array.from(text, (ch) => ({ t: "set", set: single(ch.codePointAt(0)!) }) as Expr) };
  }

  private charClass(): CharSet {
    const start = this.at++;
    const negated = this.text[this.at] === "^";
    if (negated) this.at++;
    let set: CharSet = EMPTY_SET;
    const atom = (): number => {
      const cp = this.text.codePointAt(this.at);
      if (cp === undefined) throw this.problem('an unterminated class "["', start);
      if (cp === 0x0a) throw this.problem("a line break inside a class (write [\\n])");
      this.at += cp > 0xffff ? 2 : 1;
      return cp === 0x5c ? this.escape(true) : cp;
    };
    while (this.text[this.at] !== "]") {
      const low = atom();
      if (this.text[this.at] === "-" && this.text[this.at + 1] !== "]") {
        this.at++;
        const high = atom();
        if (high < low) throw this.problem("a class range out of order", start);
        set = union(set, charSet([[low, high]]));
      } else set = union(set, single(low));
    }
    this.at++;
    return negated ? complement(set) : set;
  }
}

/** A regex of Regex(...), which has no anchors (it matches its part of the text whole). */
function withoutAnchors(node: RegexNode): Expr {
  switch (node.t) {
    case "set":
      return node;
    case "assert":
      throw new RegexProblem(`the anchor ${node.at === "start" ? "^" : "$"} inside Regex(...)`);
    case "look":
      throw new RegexProblem("a lookahead inside Regex(...)");
    case "seq":
      return { t: "seq", items: node.items.map(withoutAnchors) };
    case "alt":
      return { t: "alt", options: node.options.map(withoutAnchors) };
    case "repeat":
      return { ...node, node: withoutAnchors(node.node) };
  }
}

/** The rules of a grammar's text, or a GrammarProblem. */
export function parseEbnf(text: string): RuleText[] {
  return new EbnfParser(text).rules();
}
