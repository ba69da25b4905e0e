// Constrained decoding: any walk through the masks ends, within its token budget, in a complete JSON value of
// the schema (random walks of seeded draws, and the tightest budgets); what the schema enforces and refuses.
import { describe, expect, it } from "vitest";
import { createRng, type Rng } from "../../src/core/rng.js";
import { END } from "../../src/nn/tokenizer.js";
import { createJsonConstraint, shortestReply } from "../../src/serve/json-constraint.js";
import { schemaShape, SchemaProblem } from "../../src/serve/schema-shape.js";

/** A reply drawn under the masks (printable ASCII favoured, so that keys and enums get written), its text. */
function walk(schema: unknown, budget: number, rng: Rng): { text: string; tokens: number } {
  const constraint = createJsonConstraint(schemaShape(schema));
  const bytes: number[] = [];
  for (let k = 0; k < budget; k++) {
    const mask = constraint.mask(budget - k, 260);
    const allowed = [...mask.keys()].filter((token) => mask[token] === 1);
    const ascii = allowed.filter((token) => token >= 0x20 && token < 0x7f);
    const pool = ascii.length > 0 && rng.next() < 0.8 ? ascii : allowed;
    const token = pool[rng.int(pool.length)]!;
    constraint.advance(token);
    if (token === END) return { text: Buffer.from(bytes).toString("utf8"), tokens: k + 1 };
    bytes.push(token);
  }
  throw new Error(`no end token within ${budget} tokens: ${Buffer.from(bytes).toString("utf8")}`);
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
    try {
      schemaShape({ type: "object", properties: { a: { allOf: [] } } });
    } catch (error) {
      expect((error as SchemaProblem).path).toBe("properties.a.allOf");
    }
    expect(() => schemaShape({ type: "array", minItems: 3, maxItems: 2 })).toThrow(/no array matches/);
    expect(() => schemaShape({ type: "date" })).toThrow(/unknown type "date"/);
  });
});
