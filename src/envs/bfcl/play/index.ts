// Playing one BFCL entry as upstream's inference loop does: the loop itself (startEpisode, stepEpisode), upstream's
// prompts, decoding a model response into calls in tools and prompting mode, canonical call texts, and the
// ground truth as an oracle.
export { canonicalCall, canonicalText, toolArguments } from "./canonical.js";
export { decodePrompting, decodeResponse, decodeToolCalls, type DecodedResponse, type StepCall } from "./decode.js";
export {
  startEpisode,
  stepEpisode,
  type BfclState,
  type EpisodeOutcome,
  type EpisodeStart,
  type EpisodeStep,
} from "./inference-loop.js";
export { bfclOracle, END_TURN_ACTION, remainingTruthCalls } from "./oracle.js";
export {
  ADDITIONAL_FUNCTION_MESSAGE,
  additionalFunctionsPrompt,
  CLOSING_TEXT,
  executionResultsPrompt,
  systemPrompt,
  withSystemPrompt,
} from "./prompts.js";
