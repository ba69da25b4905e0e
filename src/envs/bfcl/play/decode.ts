// Decoding one model response into the calls it makes, as upstream's handlers do, in both modes. A response
// with no calls, or one that does not decode, ends the user turn (upstream breaks out of the step loop on an
// empty decode and on a decode error alike).
//   tools mode (OpenAICompletionsHandler FC + convert_to_function_call): every tool call is a name and JSON
//     object arguments; one malformed tool call makes the whole response undecodable.
//   prompting mode (default_decode_execute_prompting): strip "`", "\n" and " " at both ends, wrap in [ ] if
//     needed, parse as a list of Python calls; as upstream, only keyword arguments are kept (ast_parse drops
//     positional ones), dict keys become strings ('{k}' in decoded_output_to_execution_list), and an empty dict
//     argument fails the decode (upstream's parse_nested_value indexes its first key).
// Differences from upstream's prompting decoder, which runs ast.parse and evaluates some expressions: names and
// expressions as argument values (f(a=x), f(a=1+2)) do not decode here; a dict whose values are all dicts is kept
// as data (upstream rewrites it into a nested call text); quotes inside dict keys are kept.
import type { Message } from "../../../core/message.js";
import type { Call } from "../calls/call.js";
import { formatCall } from "../calls/format.js";
import { parseCalls } from "../calls/parse.js";
import { toolCallToCall } from "../calls/tool-calls.js";
import type { BfclMode } from "../context.js";
import { pyStr } from "../py/format.js";
import { isDict, type PyDict, type PyValue } from "../py/value.js";

/** A decoded call: what runs, the text upstream shows for it, and the tool call it answers (tools mode). */
export interface StepCall {
  readonly call: Call;
  /** The execution text (prompting mode shows it back as the result's "name"). */
  readonly text: string;
  readonly toolCallId?: string;
}

export type DecodedResponse =
  | { readonly kind: "calls"; readonly calls: readonly StepCall[] }
  /** No calls: an answer that ends the turn. `malformed` when it looked like calls but did not decode. */
  | { readonly kind: "none"; readonly malformed: boolean; readonly message?: string };

const NO_CALLS: DecodedResponse = { kind: "none", malformed: false };

export function decodeResponse(message: Message, mode: BfclMode): DecodedResponse {
  return mode === "tools" ? decodeToolCalls(message) : decodePrompting(message.content);
}

export function decodeToolCalls(message: Message): DecodedResponse {
  const toolCalls = message.toolCalls ?? [];
  if (toolCalls.length === 0) return NO_CALLS;
  const calls: StepCall[] = [];
  for (const toolCall of toolCalls) {
    const verdict = toolCallToCall(toolCall);
    if (!verdict.valid) return { kind: "none", malformed: true, message: verdict.message };
    calls.push({ call: verdict.call, text: formatCall(verdict.call), toolCallId: toolCall.id });
  }
  return { kind: "calls", calls };
}

/** Python's str.strip(chars) for a set of single characters. */
function stripChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start] as string)) start++;
  while (end > start && chars.includes(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

class EmptyDictArgument extends Error {}

/** A value as upstream's parse_nested_value rebuilds it (through dicts only: lists and tuples print as repr):
 * dict keys as strings; an empty dict fails ("all values are dicts" holds vacuously, then its first key is
 * indexed); a dict whose values are all dicts would become a nested call text upstream and is kept as data. */
function upstreamValue(value: PyValue): PyValue {
  if (!isDict(value)) return value;
  if (value.size === 0) throw new EmptyDictArgument("list index out of range");
  if ([...value.values()].every(isDict)) return value;
  const out: PyDict = new Map();
  for (const [key, inner] of value) out.set(pyStr(key), upstreamValue(inner));
  return out;
}

const LOOKS_LIKE_CALLS = /^\[|^[A-Za-z_][\w.]*\s*\(/;

export function decodePrompting(content: string): DecodedResponse {
  let text = stripChars(content, "`\n ");
  const looksLikeCalls = LOOKS_LIKE_CALLS.test(text);
  if (!text.startsWith("[")) text = `[${text}`;
  if (!text.endsWith("]")) text = `${text}]`;
  const verdict = parseCalls(text);
  if (!verdict.valid) return looksLikeCalls ? { kind: "none", malformed: true, message: verdict.message } : NO_CALLS;
  if (verdict.calls.length === 0) return NO_CALLS;
  try {
    const calls = verdict.calls.map((parsed): StepCall => {
      const call: Call = {
        name: parsed.name,
        args: [],
        kwargs: parsed.kwargs.map(([key, value]) => [key, upstreamValue(value)] as const),
      };
      return { call, text: formatCall(call) };
    });
    return { kind: "calls", calls };
  } catch (error) {
    if (error instanceof EmptyDictArgument) return { kind: "none", malformed: true, message: error.message };
    throw error;
  }
}
