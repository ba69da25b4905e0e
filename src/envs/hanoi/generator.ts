// Hanoi tasks from a seed: the standard start (every disk on A) by default; with randomStart, a uniformly
// random configuration (each disk on a random peg; any assignment is a legal position) other than the target.
import { createRng } from "../../core/rng.js";
import { PEGS } from "./rules.js";
import { hanoiTask, type HanoiTask } from "./tasks.js";

export function generateHanoi(disks: number, randomStart: boolean, seed: number): HanoiTask {
  if (!randomStart) return hanoiTask(disks, undefined, "generated task");
  const rng = createRng(seed);
  for (;;) {
    const start = Array.from({ length: disks }, () => PEGS[rng.int(3)]!).join("");
    if (start !== "C".repeat(disks)) return hanoiTask(disks, start, "generated task");
  }
}
