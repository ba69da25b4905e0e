// Reading a vault action from a reply (bare or <answer>...</answer>, any case; shared/answer.ts normalises it).
// Canonical texts: a digit "0".."9" (enter it as the current lock's code), or "check".
// Also accepted: "enter 7", "try 7", "type 7", "guess 7", "dial 7", "code 7", "enter code 7", "7?" (the
// question mark is stripped); "inspect", "verify", "check lock", "check the code", "check hint".
// Anything else (two digits, words, nothing) is no action.
import { normalizeAnswer } from "../shared/answer.js";
import { CHECK } from "./rules.js";

const DIGIT = /^(?:(?:enter|type|try|guess|dial|input|use)\s+)?(?:(?:the\s+)?code\s+)?(\d)$/;
const CHECK_REPLY = /^(?:check|inspect|verify)(?:\s+(?:the\s+|this\s+)?(?:lock|code|hint))?$/;

/** The canonical action a reply names, or null. */
export function parseVaultAction(reply: string): string | null {
  const answer = normalizeAnswer(reply);
  if (answer === null) return null;
  if (CHECK_REPLY.test(answer)) return CHECK;
  const digit = DIGIT.exec(answer);
  return digit === null ? null : digit[1]!;
}
