// Vault tasks as text and JSON. A task is the row of locks the agent must open in order, each with the digit
// its hint shows and whether the hint is certain: "7 3? 5" is three locks, the first with code 7, the second
// with an uncertain hint 3 (right with the env's reliability), the third with code 5. The true codes of
// uncertain locks are not part of the task: they are drawn at reset (rules.ts).
// Task files hold one task per line, locks separated by spaces or written together ("7 3? 5" or "73?5");
// blank lines and lines starting with "#", ";" or "//" are skipped. At most MAX_LOCKS locks. Errors are
// DataErrors naming the line.
import { DataError } from "../../core/errors.js";

export interface VaultTask {
  /** The digit each lock's hint shows (the code itself for certain locks), first lock first. */
  readonly hints: readonly number[];
  /** Whether each lock's hint is uncertain ("hint 7?") rather than certain ("code 7"). */
  readonly uncertain: readonly boolean[];
}

export const MAX_LOCKS = 99;

const LOCK = /(\d)(\?)?/y;

/** Validate a task; `where` names it in errors. */
export function vaultTask(hints: readonly number[], uncertain: readonly boolean[], where: string): VaultTask {
  if (hints.length === 0 || hints.length > MAX_LOCKS)
    throw new DataError(`vault ${where}: a vault has 1 to ${MAX_LOCKS} locks, got ${hints.length}`);
  if (uncertain.length !== hints.length)
    throw new DataError(`vault ${where}: ${hints.length} hints but ${uncertain.length} certainty flags`);
  if (!hints.every((digit) => Number.isInteger(digit) && digit >= 0 && digit <= 9))
    throw new DataError(`vault ${where}: every hint must be a digit 0-9`);
  return Object.freeze({ hints: Object.freeze([...hints]), uncertain: Object.freeze([...uncertain]) });
}

/** One task from its text ("7 3? 5"); `where` names it in errors. */
export function readVaultTask(text: string, where: string): VaultTask {
  const compact = text.replace(/\s+/g, "");
  const hints: number[] = [];
  const uncertain: boolean[] = [];
  LOCK.lastIndex = 0;
  while (LOCK.lastIndex < compact.length) {
    const match = LOCK.exec(compact);
    if (match === null) {
      throw new DataError(
        `vault ${where}: expected locks written as digits, a "?" after an uncertain hint (e.g. "7 3? 5"), got ${JSON.stringify(text.slice(0, 80))}`,
      );
    }
    hints.push(Number(match[1]));
    uncertain.push(match[2] === "?");
  }
  return vaultTask(hints, uncertain, where);
}

/** The canonical text of a task: locks separated by single spaces, "?" after uncertain hints. */
export function printVaultTask(task: VaultTask): string {
  return task.hints.map((digit, lock) => `${digit}${task.uncertain[lock] ? "?" : ""}`).join(" ");
}

export function parseVaultTasks(text: string): VaultTask[] {
  const tasks: VaultTask[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";") || line.startsWith("//")) return;
    tasks.push(readVaultTask(line, `line ${index + 1}`));
  });
  if (tasks.length === 0) throw new DataError("vault: no tasks found in the file");
  return tasks;
}

/** How many of a task's locks are uncertain. */
export function uncertainCount(task: VaultTask): number {
  return task.uncertain.filter(Boolean).length;
}

/** The structure of a task: its lock count and which hints are uncertain, "5:.??.?" (the digits are content). */
export function vaultStructureKey(task: VaultTask): string {
  return `${task.hints.length}:${task.uncertain.map((flag) => (flag ? "?" : ".")).join("")}`;
}
