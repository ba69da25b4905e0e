// What the openenv env knows of a server's actions from the JSON Schema GET /schema gives (`action`): a validator
// (zod's reading of the JSON Schema: no code is generated from it), the finite actions when every required field has
// finitely many values (enums, consts, booleans: what `--policy random` draws from), the one text field a plain reply
// fills (an action with a single required string field, such as budgetrl's {"message"}), whether it is an MCP env
// (OpenEnv's CallToolAction, `"type": "call_tool"`), and whether its replies may carry several tool calls at once
// (budgetrl env-server's tool_calls).
import { z } from "zod";
import { canonicalJson, type JsonObject } from "../../core/json.js";

export interface ActionSchema {
  readonly json: JsonObject;
  /** The action checked against the schema: undefined when valid, else why not (one line). */
  problem(action: unknown): string | undefined;
  /** Every action as a JSON text, when the schema allows finitely many (at most 256), else []. */
  readonly finite: readonly string[];
  /** The field a reply that is not JSON fills, when the action is one required string field. */
  readonly textField: string | undefined;
  /** The server takes OpenEnv's call_tool actions. */
  readonly mcp: boolean;
  /** The server takes a message with several tool calls (budgetrl env-server). */
  readonly toolCalls: boolean;
}

type Schema = Record<string, unknown>;

const MAX_FINITE = 256;

function resolve(schema: unknown, root: Schema): Schema {
  const node = (schema ?? {}) as Schema;
  const ref = node["$ref"];
  if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
  let target: unknown = root;
  for (const part of ref.slice(2).split("/")) target = (target as Schema | undefined)?.[part];
  return resolve(target, root);
}

/** The values a property may take, when finitely many. */
function finiteValues(schema: unknown, root: Schema): unknown[] | undefined {
  const node = resolve(schema, root);
  if (Array.isArray(node["enum"])) return node["enum"] as unknown[];
  if ("const" in node) return [node["const"]];
  if (node["type"] === "boolean") return [false, true];
  const choices = (node["anyOf"] ?? node["oneOf"]) as unknown[] | undefined;
  if (!Array.isArray(choices)) return undefined;
  const values: unknown[] = [];
  for (const choice of choices) {
    const inner = finiteValues(choice, root);
    if (inner === undefined) return undefined;
    values.push(...inner);
  }
  return values;
}

function branches(root: Schema): Schema[] {
  const choices = (root["anyOf"] ?? root["oneOf"]) as unknown[] | undefined;
  return Array.isArray(choices) ? choices.map((choice) => resolve(choice, root)) : [root];
}

const required = (branch: Schema): string[] =>
  Array.isArray(branch["required"]) ? (branch["required"] as string[]) : [];
const properties = (branch: Schema): Schema => (branch["properties"] ?? {}) as Schema;

/** Every combination of the required fields' values, when each is finite. */
function finiteActions(root: Schema): string[] {
  const actions: string[] = [];
  for (const branch of branches(root)) {
    const props = properties(branch);
    const fields = required(branch);
    if (fields.length === 0) continue;
    const options = fields.map((field) => finiteValues(props[field], root));
    if (options.some((values) => values === undefined)) continue;
    let combos: Record<string, unknown>[] = [{}];
    for (const [i, field] of fields.entries())
      combos = combos.flatMap((combo) => options[i]!.map((value) => ({ ...combo, [field]: value })));
    if (actions.length + combos.length > MAX_FINITE) return [];
    actions.push(...combos.map((combo) => canonicalJson(combo)));
  }
  return actions;
}

function textFieldOf(root: Schema): string | undefined {
  for (const branch of branches(root)) {
    const fields = required(branch);
    if (fields.length !== 1) continue;
    const field = resolve(properties(branch)[fields[0]!], root);
    // A free text field: a string of any value (an enum's strings are finite actions, written as JSON).
    if (field["type"] === "string" && finiteValues(field, root) === undefined) return fields[0];
  }
  return undefined;
}

export function readActionSchema(json: JsonObject): ActionSchema {
  const root = json as Schema;
  const validator = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
  const all = branches(root);
  return {
    json,
    problem(action) {
      const checked = validator.safeParse(action);
      return checked.success ? undefined : z.prettifyError(checked.error).replace(/\n/g, "; ");
    },
    finite: finiteActions(root),
    textField: textFieldOf(root),
    mcp: all.some((branch) => resolve(properties(branch)["type"], root)["const"] === "call_tool"),
    toolCalls: all.some((branch) => "tool_calls" in properties(branch)),
  };
}
