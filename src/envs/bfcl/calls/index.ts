// Python call syntax for BFCL: the one internal Call form, parsing call text (ground truth, prompting-mode
// output), formatting calls back to text, OpenAI-style tool calls to Calls, and binding arguments to parameters.
export { bindArguments, type ParamSpec } from "./bind.js";
export type { Call, ParseVerdict } from "./call.js";
export { formatCall, formatCalls } from "./format.js";
export { parseCall, parseCalls } from "./parse.js";
export { toolCallToCall, type ToolCallVerdict } from "./tool-calls.js";
