// BFCL multi-turn as a wing of its own. What each part holds:
//   env.ts, config.ts   the budgetrl env and its options
//   context.ts          the rules an entry is played and checked under, with the loaded data and classes
//   run-calls.ts        `budgetrl bfcl run`: a call list on fresh instances, every result and the final state
//   load/               the data dir (default: data/bfcl, bundled): entries and ground truth, function docs,
//                       module constants, the dataset
//   play/               upstream's inference loop, prompts, response decoding, canonical calls, the oracle
//   check/              upstream's turn checks, value diffs, offline transcript checking, state dumps
//   apis/               the backend class contract, the eight upstream classes, registry, instance sets
//   calls/, py/         Python call syntax and the Python value model the backends compute with
// This file names what the wing exports to the rest of budgetrl.
export {
  BFCL_CLASSES,
  BFCL_FUNC_DOC_FILES,
  bfclClassRegistry,
  createInstanceSet,
  defineBfclClass,
  executeCall,
  type AnyBfclClass,
  type BfclClass,
  type BfclClassRegistry,
  type BfclConstants,
  type BfclInstance,
  type InstanceSet,
  type MethodSpec,
} from "./apis/index.js";
export { formatCall, formatCalls, parseCall, parseCalls, type Call, type ParamSpec } from "./calls/index.js";
export {
  BFCL_ERROR_TYPES,
  checkTranscript,
  checkTurn,
  diffValues,
  groundTruthTranscript,
  instancesState,
  instanceState,
  responseChecker,
  stateChecker,
  verdictSummary,
  type BfclErrorType,
  type BfclVerdict,
  type Transcript,
} from "./check/index.js";
export { bfclConfigSchema, parseBfclConfig, type BfclConfig, type BfclOptions } from "./config.js";
export {
  CALLABLE_FUNCTIONS,
  createBfclContext,
  DEFAULT_RULES,
  MAXIMUM_STEP_LIMIT,
  type BfclContext,
  type BfclMode,
  type BfclRules,
  type CallableFunctions,
} from "./context.js";
export { bfcl, type BfclEnv, type BfclTask } from "./env.js";
export {
  BFCL_CATEGORIES,
  BUNDLED_BFCL_DATA_DIR,
  entryFunctions,
  loadBfclDataset,
  loadEntries,
  loadFuncDocs,
  offeredAt,
  parseCategories,
  toolSpec,
  type BfclCategory,
  type BfclDataset,
  type BfclEntry,
  type FuncDoc,
  type GroundTruthCall,
} from "./load/index.js";
export {
  ADDITIONAL_FUNCTION_MESSAGE,
  bfclOracle,
  canonicalCall,
  canonicalText,
  decodePrompting,
  decodeResponse,
  decodeToolCalls,
  END_TURN_ACTION,
  remainingTruthCalls,
  startEpisode,
  stepEpisode,
  systemPrompt,
  type BfclState,
  type DecodedResponse,
} from "./play/index.js";
export { bfclRun, categoryOfId, type BfclRunOptions } from "./run-calls.js";
