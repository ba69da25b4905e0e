// Every keyword constrained decoding enforces, checked by Ajv (draft 2020-12, ajv-formats' full mode) over replies
// drawn under the masks: pattern, each format, number and integer bounds (exclusive ones, multipleOf), allOf,
// prefixItems, minProperties / maxProperties and recursive $refs. Every reply must end within its budget and be
// valid; numbers must be finite.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { createJsonConstraint, shortestReply } from "../../src/serve/json-constraint.js";
import { schemaShape } from "../../src/serve/schema-shape.js";
import { walkConstraint } from "./walk.js";

const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);

function finite(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value !== null && typeof value === "object") return Object.values(value).every(finite);
  return true;
}

/** Draws replies under the schema and checks each with Ajv; returns them. */
function replies(schema: object, runs = 25, slack = 60, ascii = 0.85): unknown[] {
  const validate = ajv.compile(schema);
  const shape = schemaShape(schema);
  return Array.from({ length: runs }, (_, seed) => {
    const rng = createRng(seed);
    const budget = shortestReply(shape) + rng.int(slack);
    const walked = walkConstraint(createJsonConstraint(shape), budget, rng, ascii);
    expect(walked.ended, walked.text).toBe(true);
    const value = JSON.parse(walked.text) as unknown;
    expect(validate(value), `${walked.text}: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(finite(value), walked.text).toBe(true);
    return value;
  });
}

describe("schema keywords against Ajv", () => {
  it("pattern: searched, as JSON Schema says, or anchored", () => {
    replies({ type: "string", pattern: "^[A-Z]{3}-\\d{2}$" });
    replies({ type: "string", pattern: "ab+c" });
    replies({ type: "string", pattern: "^\\S+$", minLength: 2, maxLength: 5 });
    replies({ type: "string", pattern: "^[\\u00e0-\\u00ff]+$" }, 10, 30, 0.3);
  });

  for (const format of ["email", "uuid", "date-time", "date", "time", "uri", "ipv4", "ipv6"])
    it(`format ${format}`, () => {
      replies({ type: "string", format }, 15, 80);
    });

  it("number and integer bounds, exclusive ones and multipleOf", () => {
    replies({ type: "number", minimum: 0, maximum: 1 });
    replies({ type: "number", exclusiveMinimum: 0 });
    replies({ type: "number", exclusiveMinimum: -0.5, exclusiveMaximum: 0.1 });
    replies({ type: "number", minimum: 1e-7, maximum: 2.5e-7 });
    replies({ type: "integer", minimum: 1, maximum: 5 });
    replies({ type: "integer", minimum: -37, exclusiveMaximum: 12, multipleOf: 5 });
    replies({ type: "integer", minimum: 9_007_199_254_740_000 });
    replies({ type: "number", multipleOf: 3, maximum: 100 });
    const values = replies({ type: "number" }, 40) as number[];
    expect(values.every(Number.isFinite)).toBe(true);
  });

  it("allOf: properties, bounds and patterns of every branch", () => {
    replies({
      allOf: [
        { type: "object", properties: { a: { type: "integer", minimum: 0 } }, required: ["a"] },
        { properties: { a: { maximum: 9 }, b: { type: "string", pattern: "^x" } }, required: ["b"] },
      ],
    });
    replies({ allOf: [{ type: "string", pattern: "a" }, { pattern: "b" }, { maxLength: 6 }] });
    replies({ allOf: [{ type: ["integer", "string"] }, { type: "number", minimum: 3 }] });
  });

  it("prefixItems, items after them, and tuples", () => {
    replies({
      type: "array",
      prefixItems: [
        { type: "string", maxLength: 3 },
        { type: "integer", minimum: 0, maximum: 9 },
      ],
      items: { type: "boolean" },
      maxItems: 4,
    });
    replies({ type: "array", prefixItems: [{ const: "x" }, { type: "null" }], items: false, minItems: 2 });
  });

  it("minProperties and maxProperties, with declared and other keys", () => {
    const values = replies({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "boolean" } },
      additionalProperties: { type: "integer", maximum: 9 },
      minProperties: 3,
      maxProperties: 4,
    }) as Record<string, unknown>[];
    for (const value of values) expect(Object.keys(value).length).toBeGreaterThanOrEqual(3);
    replies({
      type: "object",
      properties: { a: { type: "null" } },
      required: ["a"],
      additionalProperties: true,
      maxProperties: 1,
    });
  });

  it("recursive $refs (a tree), within the depth limit", () => {
    replies(
      {
        $defs: {
          node: {
            type: "object",
            properties: {
              name: { type: "string", maxLength: 3 },
              children: { type: "array", items: { $ref: "#/$defs/node" }, maxItems: 2 },
            },
            required: ["name", "children"],
            additionalProperties: false,
          },
        },
        $ref: "#/$defs/node",
      },
      20,
      300,
    );
  });
});
