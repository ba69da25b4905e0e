// What the agent reads in the vault: the system prompt (rules, answer format), one line for the state, and one
// line of feedback per turn. The state line says which lock is open for input, how many locks are left (this one
// included: the fewest turns still needed, to compare with the turns left) and what the lock shows:
//   Lock 3/6, 4 to go: hint 7?      an uncertain hint
//   Lock 3/6, 4 to go: code 2       a certain code, or a checked hint
// Every observation of a vault of up to 99 locks is at most 85 bytes (feedback, newline, state line).
import type { Effect, Position } from "./rules.js";

export function vaultSystemPrompt(reliability: number): string {
  const percent = Math.round(reliability * 1000) / 10;
  return [
    "You are opening a vault: its locks open one after another, each with a one-digit code.",
    `Each lock shows its code ("code 7") or an uncertain hint ("hint 7?"), which is right ${percent}% of the time; otherwise the code is another digit.`,
    "Each turn, answer a digit to enter it as the current lock's code, or check to learn the lock's true code (this costs the turn).",
    "The right code opens the lock; a wrong code sounds the alarm and the vault stays shut. Checking a lock whose code you know wastes the turn.",
    "Open the last lock before your turns run out. Answer with exactly one action, e.g. <answer>7</answer> or <answer>check</answer>.",
  ].join("\n");
}

export const VAULT_FORMAT_HINT = "Answer check or a digit";
export const VAULT_INVALID_FEEDBACK = `Invalid. ${VAULT_FORMAT_HINT}: 0 1 2 3 4 5 6 7 8 9.`;

/** The state line: the current lock, or how the episode ended. */
export function renderVault(locks: number, position: Position, shown: number): string {
  if (position.end === "open") return `The vault is open (${locks}/${locks} locks).`;
  if (position.end === "alarm") return `Alarm at lock ${position.lock + 1}/${locks}: the vault is shut.`;
  const lock = position.lock + 1;
  return `Lock ${lock}/${locks}, ${locks - position.lock} to go: ${position.known ? `code ${shown}` : `hint ${shown}?`}`;
}

/** What the action did. */
export function effectFeedback(effect: Effect): string {
  const lock = effect.lock + 1;
  switch (effect.kind) {
    case "opened":
      return `${effect.code} opened lock ${lock}.`;
    case "alarm":
      return `${effect.entered} is wrong (the code was ${effect.code}): alarm!`;
    case "checked":
      return `Checked: hint ${effect.hint} was ${effect.hint === effect.code ? "right" : "wrong"}.`;
    case "wasted":
      return `Wasted turn: lock ${lock}'s code was already known.`;
  }
}

export const VAULT_OVER_FEEDBACK = "The episode is over.";
