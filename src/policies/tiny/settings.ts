// The sampling settings sft and train save next to a checkpoint (policy.json), read back by tiny:CKPT, serve and
// a train run that starts from or resumes a checkpoint: the answer length, the context rule, and the renderer the
// checkpoint was trained with when it is not the tiny policy's bytes (`budgetrl sft --renderer hf:DIR`, with its
// template options and tool-call format; `budgetrl serve` renders with it by default).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DataError, thrownMessage } from "../../core/errors.js";
import type { Json } from "../../core/json.js";
import { DEFAULT_MAX_NEW_TOKENS, refuseRetiredHistory } from "./context.js";

/** What policy.json holds, read back. */
export interface PolicySettings {
  readonly maxNewTokens: number;
  /** "bytes" or "hf:DIR"; absent: bytes. */
  readonly renderer?: string;
  readonly templateOptions?: Readonly<Record<string, Json>>;
  readonly toolCallFormat?: string;
}

const KNOWN = ["maxNewTokens", "history", "renderer", "templateOptions", "toolCallFormat"];

/** Sampling settings saved next to a checkpoint by sft/train (policy.json): the prompt window depends on
 * maxNewTokens, and the history must be "segments", the one context rule. A policy.json with no history (written
 * before the rule was recorded: trained under the retired window history) or with the window history is refused
 * with a hint (refuseRetiredHistory); a checkpoint with no policy.json at all (saved without sft/train) plays
 * with the defaults. A policy.json that is not JSON, not an object, or holds an unknown key or a bad value is
 * refused (DataError): played with guessed settings, the checkpoint would read prompts it was not trained on. */
export function readPolicySettings(dir: string): PolicySettings {
  const path = join(dir, "policy.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { maxNewTokens: DEFAULT_MAX_NEW_TOKENS };
    throw new DataError(`cannot read ${path}: ${thrownMessage(error)}`);
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
  const unknown = Object.keys(settings).find((key) => !KNOWN.includes(key));
  if (unknown !== undefined) throw new DataError(`${path}: unknown setting "${unknown}" (known: ${KNOWN.join(", ")})`);
  const { maxNewTokens = DEFAULT_MAX_NEW_TOKENS, history, renderer, templateOptions, toolCallFormat } = settings;
  if (typeof maxNewTokens !== "number" || !Number.isSafeInteger(maxNewTokens) || maxNewTokens < 1)
    throw new DataError(`${path}: maxNewTokens must be a whole number >= 1, got ${JSON.stringify(maxNewTokens)}`);
  refuseRetiredHistory(path, history);
  if (renderer !== undefined && typeof renderer !== "string")
    throw new DataError(`${path}: renderer must be a renderer's name ("bytes" or "hf:DIR")`);
  if (
    templateOptions !== undefined &&
    (templateOptions === null || typeof templateOptions !== "object" || Array.isArray(templateOptions))
  )
    throw new DataError(`${path}: templateOptions must be an object of template variables`);
  if (toolCallFormat !== undefined && typeof toolCallFormat !== "string")
    throw new DataError(`${path}: toolCallFormat must be a tool-call format's name`);
  return {
    maxNewTokens,
    ...(renderer === undefined ? {} : { renderer }),
    ...(templateOptions === undefined ? {} : { templateOptions: templateOptions as Record<string, Json> }),
    ...(toolCallFormat === undefined ? {} : { toolCallFormat }),
  };
}
