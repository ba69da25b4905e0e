// The sampling settings sft and train save next to a checkpoint (policy.json), read back by tiny:CKPT, serve and
// a train run that starts from or resumes a checkpoint.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DataError } from "../../core/errors.js";
import { DEFAULT_MAX_NEW_TOKENS, refuseRetiredHistory } from "./context.js";

/** Sampling settings saved next to a checkpoint by sft/train (policy.json): the prompt window depends on
 * maxNewTokens, and the history must be "segments", the one context rule. A policy.json with no history (written
 * before the rule was recorded: trained under the retired window history) or with the window history is refused
 * with a hint (refuseRetiredHistory); a checkpoint with no policy.json at all (saved without sft/train) plays
 * with the defaults. A policy.json that is not JSON, not an object, or holds an unknown key or a bad value is
 * refused (DataError): played with guessed settings, the checkpoint would read prompts it was not trained on. */
export function readPolicySettings(dir: string): { maxNewTokens: number } {
  const path = join(dir, "policy.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { maxNewTokens: DEFAULT_MAX_NEW_TOKENS };
    throw new DataError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new DataError(`${path} is not valid JSON (corrupted): restore the checkpoint from a good copy`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new DataError(
      `${path} must hold a JSON object of the policy's settings (maxNewTokens, history), got ${JSON.stringify(parsed)}`,
    );
  const settings = parsed as Record<string, unknown>;
  const unknown = Object.keys(settings).find((key) => key !== "maxNewTokens" && key !== "history");
  if (unknown !== undefined)
    throw new DataError(`${path}: unknown setting "${unknown}" (known: maxNewTokens, history)`);
  const { maxNewTokens = DEFAULT_MAX_NEW_TOKENS, history } = settings;
  if (typeof maxNewTokens !== "number" || !Number.isSafeInteger(maxNewTokens) || maxNewTokens < 1)
    throw new DataError(`${path}: maxNewTokens must be a whole number >= 1, got ${JSON.stringify(maxNewTokens)}`);
  refuseRetiredHistory(path, history);
  return { maxNewTokens };
}
