// guided_grammar: replies drawn under an EBNF grammar's masks are texts of the grammar (checked by an independent
// matcher: a JavaScript RegExp of the same language where the grammar is regular, a recursive checker where it is
// not); left recursion, empty rules, multi-byte characters and Regex(...) work; unsupported constructs are named.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { machineConstraint } from "../../src/serve/byte-machine.js";
import { GrammarProblem } from "../../src/serve/ebnf-syntax.js";
import { grammarMachine } from "../../src/serve/grammar-constraint.js";
import { compileGrammar } from "../../src/serve/grammar.js";
import { byteVocabulary } from "../../src/serve/vocabulary.js";
import { walkConstraint } from "./walk.js";

const vocabulary = byteVocabulary(260);

function texts(grammar: string, budget: number, runs = 20, ascii = 0.9): string[] {
  const compiled = compileGrammar(grammar);
  return Array.from({ length: runs }, (_, seed) => {
    const walked = walkConstraint(
      machineConstraint(grammarMachine(compiled), vocabulary),
      budget,
      createRng(seed),
      ascii,
    );
    expect(walked.ended, walked.text).toBe(true);
    return walked.text;
  });
}

/** Balanced parentheses and brackets, checked with a stack. */
function balanced(text: string): boolean {
  const open: string[] = [];
  for (const ch of text) {
    if (ch === "(" || ch === "[") open.push(ch);
    else if (ch === ")" && open.pop() !== "(") return false;
    else if (ch === "]" && open.pop() !== "[") return false;
  }
  return open.length === 0;
}

describe("guided_grammar", () => {
  it("writes texts of a regular grammar (xgrammar's arithmetic example)", () => {
    const grammar = String.raw`
      root ::= expr ("=" expr)*    # an equation chain
      expr ::= term ([-+*/] term)*
      term ::= num | "(" expr ")"
      num  ::= [0-9]+
    `;
    for (const text of texts(grammar, 60)) {
      expect(balanced(text), text).toBe(true);
      expect(text.replace(/[()]/g, ""), text).toMatch(/^[0-9]+([-+*/=][0-9]+)*$/);
    }
  });

  it("reads left recursion, empty alternatives, repetition counts and escapes", () => {
    for (const text of texts('root ::= root "a" | "b"', 12)) expect(text).toMatch(/^ba*$/);
    for (const text of texts('root ::= "x"{2,3} ("" | "-" [\\x41-\\x43]) "\\n"?', 12))
      expect(text).toMatch(/^x{2,3}(-[A-C])?\n?$/);
    for (const text of texts('root ::= ("[" root "]" | "(" root ")")*', 20)) expect(balanced(text), text).toBe(true);
  });

  it("writes multi-byte characters of a class and Regex(...) inside a grammar", () => {
    for (const text of texts('root ::= [\\u00e0-\\u00ff日本]{1,3} "!"', 16, 20, 0.1))
      expect(text).toMatch(/^[\u00e0-\u00ff日本]{1,3}!$/u);
    for (const text of texts('root ::= "id-" Regex("[0-9]{3}")', 10)) expect(text).toMatch(/^id-[0-9]{3}$/);
  });

  it("names what it does not support, and a rule that is missing", () => {
    const cases: [string, RegExp][] = [
      ["root ::= a", /the rule a \(line 1\) is not defined/],
      ['a ::= "x"', /no rule named root/],
      [
        'root[max_tokens=4] ::= "x"',
        /rule options \(root\[\.\.\.\]\) are not supported by budgetrl serve at line 1, column 5/,
      ],
      ['root ::= "a" (= "b")', /a lookahead assertion/],
      ['root ::= TagDispatch(("<t>", x))', /the macro TagDispatch\(\.\.\.\) is not supported/],
      ['root ::= "a"++', /two repetition operators/],
      ["root ::= root", /derives no finite text/],
      ['root ::= "a"\nroot ::= "b"', /defined twice \(lines 1 and 2\)/],
      ['root ::= "x" [\\d]', /the escape \\d is not supported/],
    ];
    for (const [grammar, message] of cases) {
      expect(() => compileGrammar(grammar), grammar).toThrow(GrammarProblem);
      expect(() => compileGrammar(grammar), grammar).toThrow(message);
    }
  });
});
