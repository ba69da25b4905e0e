// Hanoi tasks as text and JSON. A task is a number of disks and a start configuration: one peg letter per
// disk, smallest disk first ("BAA": disk 1 on B, disks 2 and 3 on A). The target is always every disk on C.
// Task files hold one task per line: "3" (three disks on A) or "3 BAA"; blank lines and lines starting
// with "#", ";" or "//" are skipped. Errors are DataErrors naming the line.
import { DataError } from "../../core/errors.js";

export interface HanoiTask {
  readonly disks: number;
  /** Peg letter of each disk, smallest first. */
  readonly start: string;
}

export const MAX_DISKS = 24;

/** Validate a task; `where` names it in errors. */
export function hanoiTask(disks: number, start: string | undefined, where: string): HanoiTask {
  if (!(Number.isInteger(disks) && disks >= 1 && disks <= MAX_DISKS))
    throw new DataError(`hanoi ${where}: the number of disks must be an integer from 1 to ${MAX_DISKS}, got ${disks}`);
  const pegs = (start ?? "A".repeat(disks)).toUpperCase();
  if (!/^[ABC]*$/.test(pegs) || pegs.length !== disks) {
    throw new DataError(
      `hanoi ${where}: the start must be ${disks} peg letters (A, B, C), smallest disk first, got ${JSON.stringify(pegs.slice(0, 40))}`,
    );
  }
  if (pegs === "C".repeat(disks)) throw new DataError(`hanoi ${where}: the start is already solved (every disk on C)`);
  return Object.freeze({ disks, start: pegs });
}

export function parseHanoiTasks(text: string): HanoiTask[] {
  const tasks: HanoiTask[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";") || line.startsWith("//")) return;
    const match = /^(\d{1,3})(?:\s+([A-Za-z]+))?$/.exec(line);
    if (match === null)
      throw new DataError(
        `hanoi line ${index + 1}: expected "<disks>" or "<disks> <pegs>", e.g. "3" or "3 BAA", got ${JSON.stringify(line.slice(0, 80))}`,
      );
    tasks.push(hanoiTask(Number(match[1]), match[2], `line ${index + 1}`));
  });
  if (tasks.length === 0) throw new DataError("hanoi: no tasks found in the file");
  return tasks;
}

export function printHanoiTask(task: HanoiTask): string {
  return `${task.disks} ${task.start}`;
}
