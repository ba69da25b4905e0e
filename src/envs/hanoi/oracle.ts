// The hanoi oracle: the optimal number of moves from ANY configuration to all disks on a target peg, in
// closed form, and every optimal move.
//   distance(config, t): scan disks from the largest down; while the largest remaining disk k (1-based)
//   already sits on t, drop it; otherwise it must move exactly once, after the k-1 smaller disks gathered
//   on the third peg o, and then those k-1 disks move onto it as a tower (2^(k-1) - 1 moves): add
//   1 + (2^(k-1) - 1) = 2^(k-1) and continue with target o for the smaller disks.
// From the standard start (all on A) this gives 2^n - 1. Optimal moves are the legal moves whose result is
// exactly one move closer (all ties).
import { legalMoves, moveDisk, moveText, TARGET_PEG, type Configuration } from "./rules.js";

export function distanceTo(pegs: Configuration, target: number = TARGET_PEG): number {
  let total = 0;
  let goal = target;
  for (let disk = pegs.length - 1; disk >= 0; disk--) {
    const peg = pegs[disk]!;
    if (peg === goal) continue;
    total += 2 ** disk;
    goal = 3 - peg - goal;
  }
  return total;
}

export function optimalMoves(pegs: Configuration): string[] {
  const here = distanceTo(pegs);
  if (here === 0) return [];
  return legalMoves(pegs)
    .filter(([from, to]) => distanceTo(moveDisk(pegs, pegs.indexOf(from), to)) === here - 1)
    .map(([from, to]) => moveText(from, to));
}
