// Structured outputs: the request fields that ask for a reply of a given shape, read into the shape constrained
// decoding enforces (json-constraint.ts), for chat and text completions alike, as vLLM reads them:
//
//   response_format {type: "text"}                          no constraint
//   response_format {type: "json_object"}                   a JSON object, any keys
//   response_format {type: "json_schema",                   a JSON value of the schema (strict or not: the decoder
//     json_schema: {name, schema, strict, description}}       enforces the schema either way, schema-shape.ts)
//   structured_outputs {json | json_object | choice}        vLLM's: json a schema (or its JSON text), json_object
//                                                           true, choice a list of texts the reply is one of
//   structured_outputs {regex | grammar}                    vLLM's: the whole reply matches a regular expression
//                                                           (regex-constraint.ts) or is a text of an EBNF grammar in
//                                                           xgrammar's dialect (grammar-constraint.ts)
//   guided_json, guided_choice, guided_regex,               vLLM's older names of the same
//     guided_grammar
//   structural_tag                                          refused (400 naming the field)
// At most one of them may ask for a shape. A json_schema without a schema is a 400 (json_object asks for any object).
// A schema, pattern or grammar the decoder cannot enforce is a 400 naming the keyword or construct
// (response_format.json_schema.schema.properties.a.not: ...). The options that only tune a backend
// (guided_decoding_backend, guided_whitespace_pattern, structured_outputs.disable_any_whitespace, ...) change
// nothing here: the reply is compact JSON.
import type { ReplyForm } from "./constraints.js";
import { GrammarProblem } from "./ebnf-syntax.js";
import { badRequest } from "./errors.js";
import { compileGrammar } from "./grammar.js";
import { wholeMatch } from "./regex-constraint.js";
import { RegexProblem } from "./regex-syntax.js";
import { schemaShape, SchemaProblem } from "./schema-shape.js";

export interface StructuredOutput {
  /** The field that asked for it (error messages). */
  readonly field: string;
  readonly form: ReplyForm;
}

type Raw = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Raw => value !== null && typeof value === "object" && !Array.isArray(value);
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/** The shape of a JSON Schema given at `param` (an object, or its JSON text), or a 400 naming where it fails. */
function jsonShape(schema: unknown, param: string): ReplyForm {
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
    return { kind: "json", shape: schemaShape(value) };
  } catch (error) {
    if (!(error instanceof SchemaProblem)) throw error;
    throw badRequest(error.path === "" ? param : `${param}.${error.path}`, error.message, "unsupported_schema");
  }
}

/** The reply is one of the texts, byte for byte. */
function choiceShape(choices: unknown, param: string): ReplyForm {
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every((one) => typeof one === "string"))
    throw badRequest(param, "expected a non-empty array of strings", "invalid_type");
  const empty = choices.indexOf("");
  if (empty >= 0) throw badRequest(`${param}[${empty}]`, "a choice cannot be empty", "invalid_value");
  return { kind: "json", shape: { kind: "literals", texts: [...new Set(choices as string[])] } };
}

/** The whole reply matches the pattern. */
function regexForm(pattern: unknown, param: string): ReplyForm {
  if (typeof pattern !== "string" || pattern === "")
    throw badRequest(param, "expected a regular expression (a non-empty string)", "invalid_type");
  try {
    return { kind: "regex", dfa: wholeMatch(pattern) };
  } catch (error) {
    if (!(error instanceof RegexProblem)) throw error;
    throw badRequest(param, error.message, "unsupported_regex");
  }
}

/** The whole reply is a text of the grammar (xgrammar's EBNF). */
function grammarForm(text: unknown, param: string): ReplyForm {
  if (typeof text !== "string" || text.trim() === "")
    throw badRequest(param, "expected a grammar in EBNF (xgrammar's dialect, root ::= ...)", "invalid_type");
  try {
    return { kind: "grammar", grammar: compileGrammar(text) };
  } catch (error) {
    if (!(error instanceof GrammarProblem)) throw error;
    throw badRequest(param, error.message, "unsupported_grammar");
  }
}

const ANY_OBJECT_SCHEMA = { type: "object", additionalProperties: true };

function unsupported(param: string, what: string): never {
  throw badRequest(
    param,
    `is not supported by budgetrl serve: ${what} (use response_format json_schema, a choice, a regex or a grammar)`,
    "unsupported_field",
  );
}

function responseFormat(value: unknown): StructuredOutput | undefined {
  if (!isSet(value)) return undefined;
  if (!isObject(value))
    throw badRequest("response_format", 'expected {"type": "text" | "json_object" | "json_schema"}', "invalid_type");
  switch (value["type"]) {
    case "text":
      return undefined;
    case "json_object":
      return { field: "response_format", form: jsonShape(ANY_OBJECT_SCHEMA, "response_format") };
    case "json_schema": {
      const spec = value["json_schema"];
      if (!isObject(spec))
        throw badRequest(
          "response_format.json_schema",
          "expected {name, schema, strict} for type json_schema",
          "missing_required_parameter",
        );
      if (isSet(spec["name"]) && typeof spec["name"] !== "string")
        throw badRequest("response_format.json_schema.name", "expected a string", "invalid_type");
      if (isSet(spec["strict"]) && typeof spec["strict"] !== "boolean")
        throw badRequest("response_format.json_schema.strict", "expected true or false", "invalid_type");
      // vLLM also reads the schema under "json_schema" (its alias).
      const schema = spec["schema"] ?? spec["json_schema"];
      if (!isSet(schema))
        throw badRequest(
          "response_format.json_schema.schema",
          'is required for type json_schema (type "json_object" asks for any JSON object)',
          "missing_required_parameter",
        );
      return { field: "response_format", form: jsonShape(schema, "response_format.json_schema.schema") };
    }
    case "structural_tag":
      return unsupported("response_format.type", "structural tags");
    default:
      throw badRequest("response_format.type", 'expected "text", "json_object" or "json_schema"', "invalid_value");
  }
}

function vllmStructured(value: unknown): StructuredOutput | undefined {
  if (!isSet(value)) return undefined;
  if (!isObject(value))
    throw badRequest(
      "structured_outputs",
      "expected an object {json | choice | json_object | regex | grammar}",
      "invalid_type",
    );
  const asked: StructuredOutput[] = [];
  const field = "structured_outputs";
  if (isSet(value["json"])) asked.push({ field, form: jsonShape(value["json"], `${field}.json`) });
  if (value["json_object"] === true) asked.push({ field, form: jsonShape(ANY_OBJECT_SCHEMA, field) });
  if (isSet(value["choice"])) asked.push({ field, form: choiceShape(value["choice"], `${field}.choice`) });
  if (isSet(value["regex"])) asked.push({ field, form: regexForm(value["regex"], `${field}.regex`) });
  if (isSet(value["grammar"])) asked.push({ field, form: grammarForm(value["grammar"], `${field}.grammar`) });
  if (isSet(value["structural_tag"])) unsupported(`${field}.structural_tag`, "structural tags");
  if (asked.length > 1)
    throw badRequest(field, "asks for more than one of json, json_object, choice, regex and grammar", "invalid_value");
  return asked[0];
}

/** The structured output a body asks for (undefined: none), or a 400 naming the field. */
export function structuredOutput(raw: Raw): StructuredOutput | undefined {
  const asked: StructuredOutput[] = [];
  const format = responseFormat(raw["response_format"]);
  if (format !== undefined) asked.push(format);
  const vllm = vllmStructured(raw["structured_outputs"]);
  if (vllm !== undefined) asked.push(vllm);
  const guided = [
    ["guided_json", jsonShape],
    ["guided_choice", choiceShape],
    ["guided_regex", regexForm],
    ["guided_grammar", grammarForm],
  ] as const;
  for (const [field, read] of guided) if (isSet(raw[field])) asked.push({ field, form: read(raw[field], field) });
  if (asked.length > 1)
    throw badRequest(
      asked[1]!.field,
      `asks for a structured output, and so does ${asked[0]!.field}: give one of response_format, structured_outputs and guided_*`,
      "invalid_value",
    );
  return asked[0];
}
