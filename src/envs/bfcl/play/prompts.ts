// Upstream's exact texts (bfcl_eval/constants/default_prompts.py, model_handler/utils.py) for the default system
// prompt format "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic":
// the prompting-mode system prompt with the function docs, the message that re-adds held-out functions
// (miss_func), and the user message that carries execution results back in prompting mode.
import type { Message } from "../../../core/message.js";
import type { FuncDoc } from "../load/func-docs.js";
import { pyJsonDumps, pyRepr } from "../py/format.js";
import type { PyDict } from "../py/value.js";

const PERSONA = "You are an expert in composing functions.";
const TASK =
  "You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.";
const OUTPUT_FORMAT = "[func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]";
// "{output_format}. {param_types} You SHOULD NOT ..." with empty param_types: two spaces, as upstream.
const TOOL_CALL_FORMAT = `You should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of ${OUTPUT_FORMAT}.  You SHOULD NOT include any other text in the response.`;
const MULTITURN_BEHAVIOR =
  "At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user's request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.";

/** Upstream DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC: the user message of a miss_func turn (tools mode). */
export const ADDITIONAL_FUNCTION_MESSAGE = "I have updated some more functions you can choose from. What about now?";

/** formulate_system_prompt with the default format: persona and task run together, as upstream writes them. */
export function systemPrompt(docs: readonly FuncDoc[]): string {
  const functions = pyJsonDumps(
    docs.map((doc) => doc.doc),
    { indent: 4 },
  );
  const availableTools = `Here is a list of functions in json format that you can invoke.\n${functions}\n`;
  return `${PERSONA}${TASK}\n\n${TOOL_CALL_FORMAT}\n\n${MULTITURN_BEHAVIOR}\n\n${availableTools}`;
}

/** system_prompt_pre_processing_chat_model: prepend to the first turn's system message, or insert one. */
export function withSystemPrompt(firstTurn: readonly Message[], docs: readonly FuncDoc[]): Message[] {
  const prompt = systemPrompt(docs);
  const [first, ...rest] = firstTurn;
  if (first !== undefined && first.role === "system")
    return [{ role: "system", content: `${prompt}\n\n${first.content}` }, ...rest];
  return [{ role: "system", content: prompt }, ...firstTurn];
}

/** DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING: str() of the re-added docs, then the FC message. */
export function additionalFunctionsPrompt(docs: readonly FuncDoc[]): string {
  return `${pyRepr(docs.map((doc) => doc.doc))}\n${ADDITIONAL_FUNCTION_MESSAGE}`;
}

/** format_execution_results_prompting: repr() of [{'role': 'tool', 'name': call, 'content': result}, ...]. */
export function executionResultsPrompt(results: readonly { readonly call: string; readonly result: string }[]): string {
  const items: PyDict[] = results.map(
    ({ call, result }) =>
      new Map([
        ["role", "tool"],
        ["name", call],
        ["content", result],
      ]),
  );
  return pyRepr(items);
}

/** What the assistant says to end a turn when a scripted policy plays the canonical "[]" action. */
export const CLOSING_TEXT = "I have completed what I can for this request.";
