// What a chat request's tools do to its answer, by tool_choice, as vLLM does it:
//
//   "none" (or no tools)  the reply is text.
//   "auto" (the default   the model writes freely; a reply that parses as tool calls in the server's format
//    with tools)          (--tool-call-parser: hermes, `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`
//                         blocks, or llama3-json, a reply that is `{"name": ..., "parameters": {...}}` objects;
//                         policies/tool-call-text.ts, JSON.parse on the spans) becomes tool_calls, with finish
//                         reason "tool_calls" and the text before the calls as content (null when empty). A reply
//                         with a call that does not parse (no name, arguments that are not a JSON object) stays
//                         text, as vLLM's parsers leave it. parallel_tool_calls false keeps the first call.
//   a named function      constrained decoding (json-constraint.ts): the reply is the function's arguments, a JSON
//                         object of its parameters' schema (schema-shape.ts), complete within max_tokens where it fits;
//                         it becomes one call of that function; finish reason "stop" (as vLLM and OpenAI).
//   "required"            constrained decoding of a JSON array of one or more {"name": N, "parameters": {...}}
//                         objects, N one of the tools and the parameters of its schema (vLLM's schema for
//                         "required"; at most one with parallel_tool_calls false); finish reason "tool_calls".
// The bytes renderer does not write the tools into the prompt (the tiny policy never saw a tool list: use BFCL's
// prompting mode, where the docs are in the system prompt); an hf:DIR renderer writes them as its chat template
// does, and reads replies in its template's format. A request whose max_tokens cannot hold the shortest
// constrained reply is cut there (finish_reason "length", as vLLM; constraints.ts). A constrained reply cut by
// max_tokens, a stop string or a stop token does
// not parse and stays text.
import type { ToolCall } from "../core/message.js";
import { jsonValueEnd, objectMembers } from "../policies/json-spans.js";
import { parseToolCalls, type ToolCallFormat } from "../policies/tool-call-text.js";
import type { ShapeAsked } from "./constraints.js";
import { badRequest } from "./errors.js";
import type { ChatRequest, ToolDefinition } from "./request.js";
import { schemaShape, SchemaProblem, type Shape } from "./schema-shape.js";

export type ToolMode = "none" | "auto" | "named" | "required";

export interface ToolPlan {
  readonly mode: ToolMode;
  /** The named function. */
  readonly name?: string;
  /** The shape constrained decoding enforces (named, required). */
  readonly shape?: Shape;
  /** How replies write calls (auto); undefined: they stay text. */
  readonly format: ToolCallFormat | undefined;
  readonly parallel: boolean;
}

/** A reply read as calls: its content (null when none) and its calls (ids not given yet). */
export interface ReplyCalls {
  readonly content: string | null;
  readonly calls: readonly Omit<ToolCall, "id">[];
}

function parametersShape(tool: ToolDefinition, index: number): Shape {
  try {
    return schemaShape(tool.parameters ?? { type: "object", properties: {} });
  } catch (error) {
    if (!(error instanceof SchemaProblem)) throw error;
    const param = `tools[${index}].function.parameters${error.path === "" ? "" : `.${error.path}`}`;
    throw badRequest(
      param,
      `${error.message} (tool_choice ${JSON.stringify("required")} and named functions decode under the schema)`,
      "unsupported_schema",
    );
  }
}

/** vLLM's schema for "required", as a shape: an array of {name, parameters} objects, one per tool's schema. */
function requiredShape(tools: readonly ToolDefinition[], parallel: boolean): Shape {
  const options = tools.map((tool, i): Shape => ({
    kind: "object",
    properties: new Map<string, Shape>([
      ["name", { kind: "literals", texts: [JSON.stringify(tool.name)] }],
      ["parameters", parametersShape(tool, i)],
    ]),
    required: new Set(["name", "parameters"]),
    additional: undefined,
    minProperties: 0,
    maxProperties: Infinity,
  }));
  return {
    kind: "array",
    prefix: [],
    items: options.length === 1 ? options[0]! : { kind: "union", options },
    minItems: 1,
    maxItems: parallel ? Infinity : 1,
  };
}

export function toolPlan(
  request: Pick<ChatRequest, "tools" | "toolChoice" | "parallelToolCalls">,
  format: ToolCallFormat | undefined,
): ToolPlan {
  const { tools, toolChoice } = request;
  const parallel = request.parallelToolCalls;
  if (tools.length === 0 || toolChoice === "none") return { mode: "none", format, parallel };
  if (toolChoice === "auto") return { mode: "auto", format, parallel };
  if (toolChoice === "required") return { mode: "required", shape: requiredShape(tools, parallel), format, parallel };
  const index = tools.findIndex((tool) => tool.name === toolChoice.name);
  return { mode: "named", name: toolChoice.name, shape: parametersShape(tools[index]!, index), format, parallel };
}

/** The shape a plan decodes under (named, required), for constraints.ts. */
export function planShape(plan: ToolPlan): ShapeAsked | undefined {
  if (plan.shape === undefined) return undefined;
  return {
    form: { kind: "json", shape: plan.shape },
    what: plan.mode === "named" ? `a call of ${plan.name}` : "a call",
    fields: 'tool_choice "required" or a named function',
  };
}

function isObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The elements of a JSON array text, as the text of each (undefined when it is not an array). */
function arrayItems(text: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const items: string[] = [];
  let at = text.indexOf("[") + 1;
  for (let i = 0; i < value.length; i++) {
    const end = jsonValueEnd(text, at)!;
    items.push(text.slice(at, end).trim());
    at = text.indexOf(",", end) + 1;
  }
  return items;
}

function requiredCalls(text: string): ReplyCalls | undefined {
  const items = arrayItems(text);
  if (items === undefined || items.length === 0) return undefined;
  const calls: Omit<ToolCall, "id">[] = [];
  for (const item of items) {
    const members = objectMembers(item);
    const name: unknown = members?.get("name") === undefined ? undefined : JSON.parse(members.get("name")!);
    const args = members?.get("parameters");
    if (typeof name !== "string" || args === undefined || !isObjectText(args)) return undefined;
    calls.push({ name, arguments: args });
  }
  return { content: null, calls };
}

/** The calls of a reply's text under the plan, or undefined when it is text (see the header). */
export function replyCalls(text: string, plan: ToolPlan): ReplyCalls | undefined {
  switch (plan.mode) {
    case "none":
      return undefined;
    case "named":
      return isObjectText(text) ? { content: null, calls: [{ name: plan.name!, arguments: text }] } : undefined;
    case "required":
      return requiredCalls(text);
    case "auto": {
      if (plan.format === undefined) return undefined;
      const parsed = parseToolCalls(text, plan.format);
      if (
        parsed.toolCalls.length === 0 ||
        !parsed.toolCalls.every((call) => call.name !== "" && isObjectText(call.arguments))
      )
        return undefined;
      const calls = parsed.toolCalls
        .slice(0, plan.parallel ? undefined : 1)
        .map(({ name, arguments: args }) => ({ name, arguments: args }));
      return { content: parsed.content === "" ? null : parsed.content, calls };
    }
  }
}

/** How many characters at the end of a reply's text so far a stream holds back: text that may be (the start of) calls. */
export function heldForCalls(text: string, plan: ToolPlan): number {
  if (plan.mode === "named" || plan.mode === "required") return text.length;
  if (plan.mode === "none" || plan.format === undefined) return 0;
  if (plan.format === "llama3-json") {
    const body = text.trimStart();
    const tag = "<|python_tag|>";
    const maybeCalls =
      body === "" ||
      tag.startsWith(body) ||
      body.startsWith("{") ||
      (body.startsWith(tag) &&
        (body.slice(tag.length).trimStart() === "" || body.slice(tag.length).trimStart().startsWith("{")));
    return maybeCalls ? text.length : 0;
  }
  // hermes: from the first <tool_call> on (or a partial one at the end), and the whitespace before it.
  const open = "<tool_call>";
  let at = text.indexOf(open);
  if (at === -1) {
    at = text.length;
    for (let length = Math.min(open.length - 1, text.length); length > 0; length--) {
      if (text.endsWith(open.slice(0, length))) {
        at = text.length - length;
        break;
      }
    }
  }
  return text.length - text.slice(0, at).trimEnd().length;
}
