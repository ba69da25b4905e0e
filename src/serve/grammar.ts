// A guided_grammar (ebnf-syntax.ts) compiled to plain BNF for the Earley recognizer (grammar-constraint.ts): each
// rule a list of alternatives, each a sequence of symbols (a character class or a rule). Groups and repetitions
// become rules of their own: x* is R ::= "" | R x (left recursion, which Earley reads in constant time a step),
// x+ is R ::= x | R x, x{n,m} is n copies of x then nested optionals. Rules that derive no text are dropped
// (a reply could never finish in them), and what is left knows which rules derive the empty text.
import { isEmpty, type CharSet } from "./char-set.js";
import { GrammarProblem, parseEbnf, type Expr } from "./ebnf-syntax.js";

export type GrammarSymbol = { readonly chars: CharSet } | { readonly rule: number };

export interface Grammar {
  /** Rule names (a group or repetition is "rule#k"). */
  readonly names: readonly string[];
  /** Per rule, its alternatives. */
  readonly rules: readonly (readonly (readonly GrammarSymbol[])[])[];
  /** The start rule, S ::= root. */
  readonly start: number;
  /** Per rule, whether it derives the empty text. */
  readonly nullable: readonly boolean[];
  /** Per rule, per alternative, per dot: the fewest bytes of the symbols from the dot on (UTF-8). */
  readonly suffix: readonly (readonly (readonly number[])[])[];
}

/** The most symbols a compiled grammar may have. */
export const MAX_GRAMMAR_SYMBOLS = 200_000;

class Builder {
  readonly names: string[] = [];
  readonly rules: GrammarSymbol[][][] = [];
  private readonly ids = new Map<string, number>();
  private symbols = 0;

  defined(name: string): number {
    const id = this.rules.length;
    this.ids.set(name, id);
    this.names.push(name);
    this.rules.push([]);
    return id;
  }

  private aux(owner: string, alternatives: GrammarSymbol[][]): GrammarSymbol {
    const id = this.rules.length;
    this.names.push(`${owner}#${id}`);
    this.rules.push(alternatives);
    return { rule: id };
  }

  private count(n: number): void {
    this.symbols += n;
    if (this.symbols > MAX_GRAMMAR_SYMBOLS)
      throw new GrammarProblem(
        `the grammar needs more than ${MAX_GRAMMAR_SYMBOLS} symbols once its repetitions are unrolled`,
      );
  }

  /** The expression as one symbol (a class, a rule, or a rule of its own). */
  symbol(expr: Expr, owner: string): GrammarSymbol {
    if (expr.t === "set") return { chars: expr.set };
    if (expr.t === "ref") {
      const id = this.ids.get(expr.name);
      if (id === undefined) throw new GrammarProblem(`the rule ${expr.name} (line ${expr.line}) is not defined`);
      return { rule: id };
    }
    return this.aux(owner, this.alternatives(expr, owner));
  }

  alternatives(expr: Expr, owner: string): GrammarSymbol[][] {
    switch (expr.t) {
      case "alt":
        return expr.options.flatMap((option) => this.alternatives(option, owner));
      case "seq": {
        const sequence = expr.items.map((item) => this.symbol(item, owner));
        this.count(sequence.length);
        return [sequence];
      }
      case "repeat":
        return this.repeat(expr, owner);
      default:
        this.count(1);
        return [[this.symbol(expr, owner)]];
    }
  }

  private repeat(expr: Extract<Expr, { t: "repeat" }>, owner: string): GrammarSymbol[][] {
    const item = this.symbol(expr.node, owner);
    const required = Array.from({ length: expr.min }, () => item);
    this.count(expr.min + 2);
    if (expr.max === Infinity) {
      const star = this.aux(owner, []);
      const id = (star as { rule: number }).rule;
      this.rules[id] = [[], [star, item]];
      return [[...required, star]];
    }
    let optional: GrammarSymbol | undefined;
    for (let k = expr.min; k < expr.max; k++) {
      this.count(2);
      optional = this.aux(owner, [[], optional === undefined ? [item] : [item, optional]]);
    }
    return [optional === undefined ? required : [...required, optional]];
  }
}

/** Which rules derive some text (a fixed point), and which derive the empty text. */
function derives(rules: readonly (readonly (readonly GrammarSymbol[])[])[], empty: boolean): boolean[] {
  const known = rules.map(() => false);
  const holds = (symbol: GrammarSymbol): boolean =>
    "rule" in symbol ? known[symbol.rule]! : !empty && !isEmpty(symbol.chars);
  for (let changed = true; changed;) {
    changed = false;
    rules.forEach((alternatives, id) => {
      if (!known[id] && alternatives.some((sequence) => sequence.every(holds))) known[id] = changed = true;
    });
  }
  return known;
}

/** The grammar of a guided_grammar text, or a GrammarProblem. */
export function compileGrammar(text: string): Grammar {
  const parsed = parseEbnf(text);
  const builder = new Builder();
  const seen = new Map<string, number>();
  for (const rule of parsed) {
    if (seen.has(rule.name))
      throw new GrammarProblem(
        `the rule ${rule.name} is defined twice (lines ${seen.get(rule.name)} and ${rule.line})`,
      );
    seen.set(rule.name, rule.line);
    builder.defined(rule.name);
  }
  if (!seen.has("root")) throw new GrammarProblem("the grammar has no rule named root (where a reply starts)");
  parsed.forEach((rule, id) => (builder.rules[id] = builder.alternatives(rule.body, rule.name)));
  const start = builder.defined("<start>");
  builder.rules[start] = [[{ rule: parsed.findIndex((rule) => rule.name === "root") }]];
  const productive = derives(builder.rules, false);
  if (!productive[start]) throw new GrammarProblem("the grammar's root derives no finite text");
  const keep = (symbol: GrammarSymbol): boolean => !("rule" in symbol) || productive[symbol.rule]!;
  const rules = builder.rules.map((alternatives) =>
    alternatives.filter((sequence) =>
      sequence.every((symbol) => keep(symbol) && ("rule" in symbol || !isEmpty(symbol.chars))),
    ),
  );
  return { names: builder.names, rules, start, nullable: derives(rules, true), suffix: suffixBytes(rules) };
}

const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** The fewest bytes of every rule (a fixed point), then of every alternative's symbols from each dot on. */
function suffixBytes(rules: readonly (readonly (readonly GrammarSymbol[])[])[]): number[][][] {
  const fewest = rules.map(() => Infinity);
  const cost = (symbol: GrammarSymbol): number =>
    "rule" in symbol ? fewest[symbol.rule]! : utf8Length(symbol.chars[0]!);
  for (let changed = true; changed;) {
    changed = false;
    rules.forEach((alternatives, id) => {
      for (const sequence of alternatives) {
        const total = sequence.reduce((sum, symbol) => sum + cost(symbol), 0);
        if (total < fewest[id]!) {
          fewest[id] = total;
          changed = true;
        }
      }
    });
  }
  return rules.map((alternatives) =>
    alternatives.map((sequence) => {
      const out = new Array<number>(sequence.length + 1).fill(0);
      for (let dot = sequence.length - 1; dot >= 0; dot--) out[dot] = out[dot + 1]! + cost(sequence[dot]!);
      return out;
    }),
  );
}
