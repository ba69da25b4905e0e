// Checking BFCL turns and entries as upstream's multi_turn_checker does: the per-turn state and response checks
// with their verdicts, a readable diff of differing values, checking a whole transcript offline, and the public
// state of backend instances as plain data.
export { checkTranscript, groundTruthTranscript, type Transcript } from "./offline-transcript.js";
export { instancesState, instanceState } from "./state-dump.js";
export {
  BFCL_ERROR_TYPES,
  checkTurn,
  missingItems,
  responseChecker,
  stateChecker,
  verdictSummary,
  type BfclErrorType,
  type BfclVerdict,
  type TurnCheck,
} from "./turn-checks.js";
export { diffValues, shortRepr } from "./value-diff.js";
