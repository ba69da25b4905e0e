// Structured outputs read from a request: response_format (json_object, json_schema strict or not), vLLM's
// structured_outputs and guided_json / guided_choice / guided_regex / guided_grammar, and the 400s for what the
// decoder cannot write (a schema keyword, regex or grammar construct it cannot enforce, a json_schema without a
// schema, two asks at once), each naming the field, each with a code.
import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/serve/errors.js";
import { structuredOutput } from "../../src/serve/structured-output.js";

function refusal(raw: Record<string, unknown>): HttpError {
  try {
    structuredOutput(raw);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("accepted");
}

const schema = { type: "object", properties: { a: { type: "integer" } }, required: ["a"], additionalProperties: false };

describe("structured outputs", () => {
  it("reads every way of asking for one into the shape the decoder enforces", () => {
    expect(structuredOutput({})).toBeUndefined();
    expect(structuredOutput({ response_format: { type: "text" } })).toBeUndefined();
    expect(structuredOutput({ response_format: { type: "json_object" } })?.form).toMatchObject({
      kind: "json",
      shape: { kind: "object", additional: { kind: "any" } },
    });
    for (const strict of [true, false, null])
      expect(
        structuredOutput({ response_format: { type: "json_schema", json_schema: { name: "x", schema, strict } } }),
      ).toMatchObject({ field: "response_format", form: { shape: { kind: "object", required: new Set(["a"]) } } });
    expect(structuredOutput({ structured_outputs: { json: JSON.stringify(schema) } })).toMatchObject({
      field: "structured_outputs",
      form: { kind: "json", shape: { kind: "object" } },
    });
    expect(structuredOutput({ structured_outputs: { json_object: true } })?.form.kind).toBe("json");
    expect(structuredOutput({ guided_json: schema })?.field).toBe("guided_json");
    expect(structuredOutput({ guided_choice: ["yes", "no", "yes"] })?.form).toEqual({
      kind: "json",
      shape: { kind: "literals", texts: ["yes", "no"] },
    });
    expect(structuredOutput({ structured_outputs: { choice: ["a"] } })?.form).toEqual({
      kind: "json",
      shape: { kind: "literals", texts: ["a"] },
    });
    expect(structuredOutput({ guided_regex: "a+" })?.form.kind).toBe("regex");
    expect(structuredOutput({ structured_outputs: { regex: "[0-9]{3}" } })?.form.kind).toBe("regex");
    expect(structuredOutput({ guided_grammar: 'root ::= "a"+' })?.form.kind).toBe("grammar");
    expect(structuredOutput({ structured_outputs: { grammar: 'root ::= "b"' } })?.form.kind).toBe("grammar");
  });

  it("refuses what it cannot write with a 400 naming the field", () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ guided_regex: "a(?=a)b" }, "guided_regex", /a lookahead \(\?= is supported only at the start/],
      [{ guided_grammar: "root ::= x" }, "guided_grammar", /the rule x \(line 1\) is not defined/],
      [{ structured_outputs: { regex: "a\\1" } }, "structured_outputs.regex", /the escape \\1|a backreference/],
      [
        { response_format: { type: "json_schema", json_schema: { name: "x" } } },
        "response_format.json_schema.schema",
        /is required for type json_schema/,
      ],
      [{ response_format: { type: "structural_tag" } }, "response_format.type", /structural tags/],
      [{ response_format: { type: "xml" } }, "response_format.type", /expected "text", "json_object" or "json_schema"/],
      [
        { response_format: { type: "json_schema" } },
        "response_format.json_schema",
        /expected \{name, schema, strict\}/,
      ],
      [
        {
          response_format: {
            type: "json_schema",
            json_schema: { name: "x", schema: { type: "string", not: { pattern: "a+" } } },
          },
        },
        "response_format.json_schema.schema.not",
        /not is not supported by budgetrl serve's constrained decoding/,
      ],
      [
        { guided_json: { type: "object", properties: { n: { type: "integer", minimum: 5, maximum: 4 } } } },
        "guided_json.properties.n.minimum",
        /no integer is within these bounds/,
      ],
      [{ guided_json: "{not json" }, "guided_json", /expected a JSON Schema/],
      [{ guided_choice: [] }, "guided_choice", /non-empty array of strings/],
      [{ guided_choice: ["a", ""] }, "guided_choice[1]", /cannot be empty/],
      [{ guided_json: schema, response_format: { type: "json_object" } }, "guided_json", /and so does response_format/],
    ];
    for (const [raw, param, message] of cases) {
      const error = refusal(raw);
      expect(error.status, param).toBe(400);
      expect(error.param, param).toBe(param);
      expect(error.message, param).toMatch(message);
      expect(error.code, param).not.toBeNull();
    }
  });
});
