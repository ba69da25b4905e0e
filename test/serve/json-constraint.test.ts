// Constrained decoding: any walk through the masks ends, within its token budget, in a complete JSON value of
// the schema (random walks of seeded draws, and the tightest budgets); what the schema enforces and refuses.
import { describe, expect, it } from "vitest";
import { createRng, type Rng } from "../../src/core/rng.js";
import { END } from "../../src/nn/tokenizer.js";
import { createJsonConstraint, shortestReply } from "../../src/serve/json-constraint.js";
import { MAX_REF_DEPTH, schemaShape, SchemaProblem } from "../../src/serve/schema-shape.js";
import { walkConstraint } from "./walk.js";

/** A reply drawn under the masks, its text; it must end within the budget. */
function walk(schema: unknown, budget: number, rng: Rng): { text: string; tokens: number } {
  const walked = walkConstraint(createJsonConstraint(schemaShape(schema)), budget, rng);
  if (!walked.ended) throw new Error(`no end token within ${budget} tokens: ${walked.text}`);
  return walked;
}

const weather = {
  type: "object",
  properties: {
    city: { type: "string" },
    unit: { enum: ["celsius", "fahrenheit"] },
    days: { type: "integer" },
    at: { type: ["number", "null"] },
    tags: { type: "array", items: { type: "boolean" }, minItems: 1, maxItems: 2 },
    'say "hi"': { const: 1 },
  },
  required: ["city", "unit"],
};

describe("JSON constraint", () => {
  it("ends every walk in a complete value of the schema within its budget", () => {
    for (let seed = 0; seed < 40; seed++) {
      const rng = createRng(seed);
      const budget = shortestReply(schemaShape(weather)) + rng.int(40);
      const { text, tokens } = walk(weather, budget, rng);
      expect(tokens).toBeLessThanOrEqual(budget);
      const value = JSON.parse(text) as Record<string, unknown>;
      expect(typeof value["city"]).toBe("string");
      expect(["celsius", "fahrenheit"]).toContain(value["unit"]);
      for (const key of Object.keys(value)) expect(Object.keys(weather.properties)).toContain(key);
      if ("days" in value) expect(Number.isInteger(value["days"])).toBe(true);
      if ("at" in value) expect(value["at"] === null || typeof value["at"] === "number").toBe(true);
      if ("tags" in value) expect((value["tags"] as boolean[]).length).toBeGreaterThanOrEqual(1);
      if ("tags" in value) expect((value["tags"] as boolean[]).length).toBeLessThanOrEqual(2);
      if ('say "hi"' in value) expect(value['say "hi"']).toBe(1);
      expect(text).not.toMatch(/\s(?=(?:[^"]*"[^"]*")*[^"]*$)/); // compact: no whitespace outside strings
    }
  });

  it("fits the tightest budget: the shortest reply exactly", () => {
    const shortest = shortestReply(schemaShape(weather));
    expect(shortest).toBe('{"city":"","unit":"celsius"}'.length + 1);
    for (let seed = 0; seed < 10; seed++) expect(walk(weather, shortest, createRng(seed)).tokens).toBe(shortest);
  });

  it("keeps vLLM's shape for tool_choice required: an array of calls, each a tool's name and its parameters", () => {
    const required = {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        anyOf: [
          {
            properties: {
              name: { type: "string", enum: ["f"] },
              parameters: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] },
            },
            required: ["name", "parameters"],
          },
          {
            properties: {
              name: { type: "string", enum: ["g"] },
              parameters: { type: "object", additionalProperties: true },
            },
            required: ["name", "parameters"],
          },
        ],
      },
    };
    const names = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const calls = JSON.parse(walk(required, 90, createRng(seed)).text) as {
        name: string;
        parameters: Record<string, unknown>;
      }[];
      expect(calls.length).toBeGreaterThanOrEqual(1);
      for (const call of calls) {
        names.add(call.name);
        expect(Object.keys(call).sort()).toEqual(["name", "parameters"]);
        if (call.name === "f") expect(Number.isInteger(call.parameters["x"])).toBe(true);
      }
    }
    expect([...names].sort()).toEqual(["f", "g"]);
  });

  it("allows other keys only where additionalProperties says so, any value where the schema is empty", () => {
    for (let seed = 0; seed < 10; seed++) {
      expect(walk({ type: "object" }, 20, createRng(seed)).text).toBe("{}");
      expect(() => JSON.parse(walk({}, 30, createRng(seed)).text)).not.toThrow();
      expect(() =>
        JSON.parse(walk({ type: "object", additionalProperties: { type: "string" } }, 40, createRng(seed)).text),
      ).not.toThrow();
    }
  });

  it("refuses what it cannot enforce, naming where", () => {
    expect(() => schemaShape({ type: "object", properties: { a: { $ref: "#/$defs/a" } } })).toThrow(SchemaProblem);
    expect(() => schemaShape({ type: "number", multipleOf: 0.01 })).toThrow(/multipleOf 0.01 is not supported/);
    try {
      schemaShape({ type: "object", properties: { a: { not: {} } } });
      expect.unreachable();
    } catch (error) {
      expect((error as SchemaProblem).path).toBe("properties.a.not");
    }
    expect(() => schemaShape({ type: "array", minItems: 3, maxItems: 2 })).toThrow(/no array matches/);
    expect(() => schemaShape({ type: "date" })).toThrow(/unknown type "date"/);
  });
});

describe("JSON constraint: bounds, references and multi-byte tokens", () => {
  it("keeps strings within minLength and maxLength, numbers within the bounds it supports", () => {
    const bounded = {
      type: "object",
      properties: {
        word: { type: "string", minLength: 2, maxLength: 4 },
        count: { type: "integer", minimum: 0, maximum: 99 },
        id: { type: "integer", minimum: 1 },
        safe: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        share: { type: "number", minimum: 0 },
      },
      required: ["word", "count", "id", "safe", "share"],
    };
    for (let seed = 0; seed < 30; seed++) {
      const rng = createRng(seed);
      const value = JSON.parse(walk(bounded, shortestReply(schemaShape(bounded)) + rng.int(60), rng).text) as Record<
        string,
        number | string
      >;
      expect([...(value["word"] as string)].length).toBeGreaterThanOrEqual(2);
      expect([...(value["word"] as string)].length).toBeLessThanOrEqual(4);
      expect(value["count"]).toBeGreaterThanOrEqual(0);
      expect(value["count"]).toBeLessThanOrEqual(99);
      expect(value["id"]).toBeGreaterThanOrEqual(1);
      expect(Number.isSafeInteger(value["safe"])).toBe(true);
      expect(value["share"]).toBeGreaterThanOrEqual(0);
    }
    expect(() => schemaShape({ type: "integer", minimum: 6, maximum: 5 })).toThrow(/no integer is within/);
    expect(() => schemaShape({ type: "integer", minimum: 1, maximum: 3, multipleOf: 4 })).toThrow(/no integer/);
    expect(() => schemaShape({ type: "string", minLength: 3, maxLength: 2 })).toThrow(/no string matches/);
  });

  it("resolves local $refs, recursive ones down to the depth limit", () => {
    const withRefs = {
      type: "object",
      properties: { a: { $ref: "#/$defs/point" }, b: { $ref: "#/definitions/flag" } },
      required: ["a", "b"],
      $defs: { point: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] } },
      definitions: { flag: { type: "boolean" } },
    };
    for (let seed = 0; seed < 10; seed++) {
      const value = JSON.parse(walk(withRefs, 60, createRng(seed)).text) as { a: { x: number }; b: boolean };
      expect(Number.isInteger(value.a.x)).toBe(true);
      expect(typeof value.b).toBe("boolean");
    }
    const recursive = {
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    };
    for (let seed = 0; seed < 5; seed++) {
      let depth = 0;
      for (let node = JSON.parse(walk(recursive, 250, createRng(seed)).text) as { next?: unknown }; node.next; depth++)
        node = node.next as { next?: unknown };
      expect(depth).toBeLessThan(MAX_REF_DEPTH);
    }
    const endless = {
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } }, required: ["next"] } },
      $ref: "#/$defs/node",
    };
    expect(() => schemaShape(endless)).toThrow(/no value satisfies this schema within 12 nested \$refs/);
  });

  it("masks tokens of several bytes by all their bytes, and ends with the vocabulary's end tokens", () => {
    // A vocabulary of the bytes, "tr" and "ue" as one token each, and an end token 300.
    const pieces: Record<number, number[]> = { 256: [0x74, 0x72], 257: [0x75, 0x65] };
    const vocabulary = {
      size: 301,
      endTokens: [300],
      byteLevel: false,
      bytes: (token: number) => (token < 256 ? [token] : (pieces[token] ?? [])),
      display: String,
      encode: (text: string) => [...Buffer.from(text)],
      describe: (tokens: readonly number[]) => tokens.join(" "),
    };
    const constraint = createJsonConstraint(schemaShape({ type: "boolean" }), vocabulary);
    const first = constraint.mask(10, 301);
    expect([...first.keys()].filter((token) => first[token] === 1)).toEqual([0x66, 0x74, 256]);
    constraint.advance(256);
    const second = constraint.mask(9, 301);
    expect([...second.keys()].filter((token) => second[token] === 1)).toEqual([0x75, 257]);
    constraint.advance(257);
    const last = constraint.mask(8, 301);
    // "true" complete: only the end token.
    expect([...last.keys()].filter((token) => last[token] === 1)).toEqual([300]);
  });

  it("writes guided choices byte for byte", () => {
    for (let seed = 0; seed < 10; seed++) {
      const constraint = createJsonConstraint({ kind: "literals", texts: ["yes", "no", "not sure"] });
      const rng = createRng(seed);
      const bytes: number[] = [];
      for (let k = 0; k < 12; k++) {
        const mask = constraint.mask(12 - k, 260);
        const allowed = [...mask.keys()].filter((token) => mask[token] === 1);
        const token = allowed[rng.int(allowed.length)]!;
        constraint.advance(token);
        if (token === END) break;
        bytes.push(token);
      }
      expect(["yes", "no", "not sure"]).toContain(Buffer.from(bytes).toString("utf8"));
    }
  });
});
