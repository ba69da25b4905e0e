// Structured outputs: the request fields that ask for a reply of a given shape, read into the shape constrained
// decoding enforces (json-constraint.ts), for chat and text completions alike, as vLLM reads them:
//
//   response_format {type: "text"}                          no constraint
//   response_format {type: "json_object"}                   a JSON object, any keys
//   response_format {type: "json_schema",                   a JSON value of the schema (strict or not: the decoder
//     json_schema: {name, schema, strict, description}}       enforces the schema either way, schema-shape.ts)
//   structured_outputs {json | json_object | choice}        vLLM's: json a schema (or its JSON text), json_object
//                                                           true, choice a list of texts the reply is one of
//   guided_json, guided_choice                              vLLM's older names of the same
//   regex, grammar, structural_tag (guided_regex,           refused (400 naming the field): the decoder writes JSON
//     guided_grammar)                                       and literal texts only
// At most one of them may ask for a shape. A schema the decoder cannot enforce is a 400 naming the keyword
// (response_format.json_schema.schema.properties.a.pattern: ...). The options that only tune a backend
// (guided_decoding_backend, guided_whitespace_pattern, structured_outputs.disable_any_whitespace, ...) change
// nothing here: the reply is compact JSON.
import { badRequest } from "./errors.js";
import { schemaShape, SchemaProblem, type Shape } from "./schema-shape.js";

export interface StructuredOutput {
  /** The field that asked for it (error messages). */
  readonly field: string;
  readonly shape: Shape;
}

type Raw = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Raw => value !== null && typeof value === "object" && !Array.isArray(value);
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/** The shape of a JSON Schema given at `param` (an object, or its JSON text), or a 400 naming where it fails. */
function jsonShape(schema: unknown, param: string): Shape {
  let value = schema;
  if (typeof schema === "string") {
    try {
      value = JSON.parse(schema) as unknown;
    } catch {
      throw badRequest(param, "expected a JSON Schema (an object, or its JSON text)");
    }
  }
  if (!isObject(value) && typeof value !== "boolean")
    throw badRequest(param, "expected a JSON Schema (an object, or its JSON text)");
  try {
    return schemaShape(value);
  } catch (error) {
    if (!(error instanceof SchemaProblem)) throw error;
    throw badRequest(error.path === "" ? param : `${param}.${error.path}`, error.message, "unsupported_schema");
  }
}

/** The reply is one of the texts, byte for byte. */
function choiceShape(choices: unknown, param: string): Shape {
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every((one) => typeof one === "string"))
    throw badRequest(param, "expected a non-empty array of strings");
  const empty = choices.indexOf("");
  if (empty >= 0) throw badRequest(`${param}[${empty}]`, "a choice cannot be empty");
  return { kind: "literals", texts: [...new Set(choices as string[])] };
}

const ANY_OBJECT_SCHEMA = { type: "object", additionalProperties: true };

function unsupported(param: string, what: string): never {
  throw badRequest(
    param,
    `is not supported by budgetrl serve: ${what} (its constrained decoding writes JSON values and fixed choices; use response_format json_schema or a choice)`,
    "unsupported_field",
  );
}

function responseFormat(value: unknown): StructuredOutput | undefined {
  if (!isSet(value)) return undefined;
  if (!isObject(value))
    throw badRequest("response_format", 'expected {"type": "text" | "json_object" | "json_schema"}');
  switch (value["type"]) {
    case "text":
      return undefined;
    case "json_object":
      return { field: "response_format", shape: jsonShape(ANY_OBJECT_SCHEMA, "response_format") };
    case "json_schema": {
      const spec = value["json_schema"];
      if (!isObject(spec))
        throw badRequest("response_format.json_schema", "expected {name, schema, strict} for type json_schema");
      if (isSet(spec["name"]) && typeof spec["name"] !== "string")
        throw badRequest("response_format.json_schema.name", "expected a string");
      if (isSet(spec["strict"]) && typeof spec["strict"] !== "boolean")
        throw badRequest("response_format.json_schema.strict", "expected true or false");
      // vLLM also reads the schema under "json_schema" (its alias); no schema: any JSON value.
      const schema = spec["schema"] ?? spec["json_schema"] ?? {};
      return { field: "response_format", shape: jsonShape(schema, "response_format.json_schema.schema") };
    }
    case "structural_tag":
      return unsupported("response_format.type", "structural tags");
    default:
      throw badRequest("response_format.type", 'expected "text", "json_object" or "json_schema"');
  }
}

function vllmStructured(value: unknown): StructuredOutput | undefined {
  if (!isSet(value)) return undefined;
  if (!isObject(value)) throw badRequest("structured_outputs", "expected an object {json | choice | json_object}");
  const asked: StructuredOutput[] = [];
  const field = "structured_outputs";
  if (isSet(value["json"])) asked.push({ field, shape: jsonShape(value["json"], `${field}.json`) });
  if (value["json_object"] === true) asked.push({ field, shape: jsonShape(ANY_OBJECT_SCHEMA, field) });
  if (isSet(value["choice"])) asked.push({ field, shape: choiceShape(value["choice"], `${field}.choice`) });
  const refused = { regex: "regular expressions", grammar: "grammars", structural_tag: "structural tags" };
  for (const [key, what] of Object.entries(refused)) if (isSet(value[key])) unsupported(`${field}.${key}`, what);
  if (asked.length > 1) throw badRequest(field, "asks for more than one of json, json_object and choice");
  return asked[0];
}

/** The structured output a body asks for (undefined: none), or a 400 naming the field. */
export function structuredOutput(raw: Raw): StructuredOutput | undefined {
  const asked: StructuredOutput[] = [];
  const format = responseFormat(raw["response_format"]);
  if (format !== undefined) asked.push(format);
  const vllm = vllmStructured(raw["structured_outputs"]);
  if (vllm !== undefined) asked.push(vllm);
  if (isSet(raw["guided_json"]))
    asked.push({ field: "guided_json", shape: jsonShape(raw["guided_json"], "guided_json") });
  if (isSet(raw["guided_choice"]))
    asked.push({ field: "guided_choice", shape: choiceShape(raw["guided_choice"], "guided_choice") });
  if (isSet(raw["guided_regex"])) unsupported("guided_regex", "regular expressions");
  if (isSet(raw["guided_grammar"])) unsupported("guided_grammar", "grammars");
  if (asked.length > 1)
    throw badRequest(
      asked[1]!.field,
      `asks for a structured output, and so does ${asked[0]!.field}: give one of response_format, structured_outputs, guided_json and guided_choice`,
    );
  return asked[0];
}
