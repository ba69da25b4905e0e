// Expected texts printed by upstream's own templates (bfcl_eval/constants/default_prompts.py, formatted as
// formulate_system_prompt and format_execution_results_prompting do) with Python 3: prompts.expected.json.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FuncDoc } from "../../../../src/envs/bfcl/load/func-docs.js";
import {
  additionalFunctionsPrompt,
  executionResultsPrompt,
  systemPrompt,
  withSystemPrompt,
} from "../../../../src/envs/bfcl/play/prompts.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";

const expected = JSON.parse(readFileSync(new URL("./prompts.expected.json", import.meta.url), "utf8")) as {
  systemPrompt: string;
  additional: string;
  results: string;
};

function doc(json: string): FuncDoc {
  const value = parsePyJson(json) as PyDict;
  return { name: String(value.get("name")), className: "Counter", doc: value };
}

const hint = " Note that the provided function is in Python 3 syntax.";
const add = doc(
  `{"name": "add", "description": "Add to the counter.${hint}", "parameters": {"type": "dict", "properties": {"amount": {"type": "integer", "description": "How much to add.", "default": 1}}, "required": []}, "response": {"type": "dict", "properties": {"count": {"type": "integer", "description": "New count."}}}}`,
);
const get = doc(
  `{"name": "get", "description": "Read the counter \\u00e9.${hint}", "parameters": {"type": "dict", "properties": {}, "required": []}, "response": {"type": "integer"}}`,
);
const read = doc(
  `{"name": "read", "description": "Read a note.", "parameters": {"type": "dict", "properties": {"title": {"type": "string", "description": "Title."}}, "required": ["title"]}}`,
);

describe("upstream prompts", () => {
  it("builds the default system prompt byte for byte (json.dumps indent=4, ensure_ascii)", () => {
    expect(systemPrompt([add, get])).toBe(expected.systemPrompt);
  });

  it("inserts the system prompt, or prepends it to an existing system message", () => {
    expect(withSystemPrompt([{ role: "user", content: "hi" }], [add])).toEqual([
      { role: "system", content: systemPrompt([add]) },
      { role: "user", content: "hi" },
    ]);
    const merged = withSystemPrompt(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      [add],
    );
    expect(merged[0]?.content).toBe(`${systemPrompt([add])}\n\nBe brief.`);
    expect(merged).toHaveLength(2);
  });

  it("writes the miss_func message and the execution results as upstream", () => {
    expect(additionalFunctionsPrompt([read])).toBe(expected.additional);
    expect(
      executionResultsPrompt([
        { call: "add(amount=2)", result: '{"count": 3}' },
        { call: "read(title='it\\'s')", result: "Error during execution: 'x'" },
      ]),
    ).toBe(expected.results);
  });
});
