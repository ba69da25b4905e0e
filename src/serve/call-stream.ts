// Tool calls streamed as the model writes them, in the deltas vLLM's tool parsers send and the openai client's
// stream helpers (ChatCompletionStream, runTools) assemble: per call, first
//   {index, id, type: "function", function: {name, arguments: ""}}     once its name is written in full
// then
//   {index, function: {arguments: PIECE}}                              the arguments' text as it is written
// The calls are found in the reply's text so far by the plan (tool-choice.ts): after each <tool_call> (hermes), the
// objects of a reply starting with "{" (llama3-json), the items of the array (tool_choice "required"), or the whole
// reply as the arguments (a named function, whose name is known at once). Arguments written as a JSON object are
// streamed as written (the final call keeps the model's own text: policies/json-spans.ts), so the pieces add up
// to the non-streamed call's arguments; arguments given otherwise (a string) come whole at the end. At the end,
// finish() sends what the final calls hold beyond what was streamed; a call that turned out malformed (the reply
// stays text) cannot be taken back, as with vLLM.
import type { JsonObject } from "../core/json.js";
import type { ToolCall } from "../core/message.js";
import type { ToolPlan } from "./tool-choice.js";

const WHITESPACE = /\s/;

function skip(text: string, at: number): number {
  let i = at;
  while (i < text.length && WHITESPACE.test(text[i]!)) i++;
  return i;
}

/** The index after the string opening at `at`, undefined when it is not closed yet. */
function stringEnd(text: string, at: number): number | undefined {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return undefined;
}

/** The index after the value starting at `at`, undefined while it may go on (a number or literal at the end). */
function valueEnd(text: string, at: number): number | undefined {
  const first = text[at];
  if (first === undefined) return undefined;
  if (first === '"') return stringEnd(text, at);
  if (first !== "{" && first !== "[") {
    let i = at;
    while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    return i < text.length ? i : undefined;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      if (end === undefined) return undefined;
      i = end - 1;
    } else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

interface Member {
  readonly key: string;
  readonly start: number;
  readonly end: number | undefined;
}

/** The members written so far of the object opening at `at`: keys complete, values possibly not. */
function members(text: string, at: number): Member[] {
  const out: Member[] = [];
  let i = skip(text, at + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    if (keyEnd === undefined) break;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      break;
    }
    i = skip(text, keyEnd);
    if (text[i] !== ":" || typeof key !== "string") break;
    const start = skip(text, i + 1);
    const end = valueEnd(text, start);
    out.push({ key, start, end });
    if (end === undefined) break;
    i = skip(text, end);
    if (text[i] !== ",") break;
    i = skip(text, i + 1);
  }
  return out;
}

/** Where the call objects of the reply so far open (the arguments object itself for a named function). */
function callStarts(text: string, plan: ToolPlan): number[] {
  const starts: number[] = [];
  if (plan.mode === "named") {
    const at = skip(text, 0);
    return text[at] === "{" ? [at] : [];
  }
  if (plan.mode === "required") {
    let i = skip(text, 0);
    if (text[i] !== "[") return [];
    i = skip(text, i + 1);
    while (text[i] === "{") {
      starts.push(i);
      const end = valueEnd(text, i);
      if (end === undefined) break;
      i = skip(text, end);
      if (text[i] !== ",") break;
      i = skip(text, i + 1);
    }
    return starts;
  }
  if (plan.format === "hermes") {
    for (let open = text.indexOf("<tool_call>"); open !== -1; open = text.indexOf("<tool_call>", open + 1)) {
      const at = skip(text, open + "<tool_call>".length);
      if (text[at] === "{") starts.push(at);
    }
    return starts;
  }
  let i = skip(text, 0);
  if (text.startsWith("<|python_tag|>", i)) i = skip(text, i + "<|python_tag|>".length);
  while (text[i] === "{") {
    starts.push(i);
    const end = valueEnd(text, i);
    if (end === undefined) break;
    i = end;
    while (i < text.length && /[\s;]/.test(text[i]!)) i++;
  }
  return starts;
}

/** A call's name (once written in full) and its arguments object's text so far, when they are an object. */
function callSoFar(text: string, at: number, plan: ToolPlan): { name?: string; args?: string } {
  if (plan.mode === "named") return { name: plan.name!, args: text.slice(at, valueEnd(text, at) ?? text.length) };
  const found = members(text, at);
  const nameMember = found.find((member) => member.key === "name" && member.end !== undefined);
  let name: unknown;
  try {
    name = nameMember === undefined ? undefined : JSON.parse(text.slice(nameMember.start, nameMember.end));
  } catch {
    name = undefined;
  }
  const keys =
    plan.mode === "auto" && plan.format === "hermes" ? ["arguments", "parameters"] : ["parameters", "arguments"];
  const args = keys.map((key) => found.find((member) => member.key === key)).find((member) => member !== undefined);
  return {
    ...(typeof name === "string" ? { name } : {}),
    ...(args !== undefined && text[args.start] === "{"
      ? { args: text.slice(args.start, args.end ?? text.length) }
      : {}),
  };
}

export interface CallStreamer {
  /** The deltas to send for the reply's text so far. */
  update(text: string): JsonObject[];
  /** The deltas that complete the streamed calls into the final ones. */
  finish(calls: readonly ToolCall[]): JsonObject[];
}

export function createCallStreamer(plan: ToolPlan, callId: (call: number) => string): CallStreamer {
  const names: string[] = [];
  const sent: string[] = [];
  const opening = (index: number, name: string, args: string): JsonObject => ({
    index,
    id: callId(index),
    type: "function",
    function: { name, arguments: args },
  });
  const piece = (index: number, args: string): JsonObject => ({ index, function: { arguments: args } });
  return {
    update(text) {
      if (plan.mode === "none" || (plan.mode === "auto" && plan.format === undefined)) return [];
      const deltas: JsonObject[] = [];
      const starts = callStarts(text, plan).slice(0, plan.parallel ? undefined : 1);
      starts.forEach((at, index) => {
        const { name, args } = callSoFar(text, at, plan);
        if (names[index] === undefined) {
          if (name === undefined || index !== names.length) return;
          names[index] = name;
          sent[index] = "";
          deltas.push(opening(index, name, ""));
        }
        if (args !== undefined && args.length > sent[index]!.length && args.startsWith(sent[index]!)) {
          deltas.push(piece(index, args.slice(sent[index]!.length)));
          sent[index] = args;
        }
      });
      return deltas;
    },
    finish(calls) {
      const deltas: JsonObject[] = [];
      calls.forEach((call, index) => {
        if (names[index] === undefined) deltas.push(opening(index, call.name, call.arguments));
        else if (call.arguments.startsWith(sent[index]!) && call.arguments.length > sent[index]!.length)
          deltas.push(piece(index, call.arguments.slice(sent[index]!.length)));
      });
      return deltas;
    },
  };
}
