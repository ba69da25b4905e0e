// What the agent reads in hanoi: the system prompt, and the pegs one per line, disks bottom to top by size
// (1 is the smallest), e.g.
//   A: 3 2
//   B:
//   C: 1
import { PEGS, type Configuration } from "./rules.js";

export function hanoiSystemPrompt(disks: number): string {
  return [
    `You are solving the Tower of Hanoi with ${disks} disk${disks === 1 ? "" : "s"} on pegs A, B and C. Move every disk to peg C.`,
    "Each turn, move the top disk of one peg onto another peg. A disk may never sit on a smaller disk.",
    "Each peg lists its disks from bottom to top; disk 1 is the smallest.",
    "Answer with one move written source->target, e.g. <answer>A->C</answer>.",
  ].join("\n");
}

export function renderPegs(pegs: Configuration): string {
  return PEGS.map((name, peg) => {
    const disks: number[] = [];
    for (let disk = pegs.length - 1; disk >= 0; disk--) if (pegs[disk] === peg) disks.push(disk + 1);
    return disks.length === 0 ? `${name}:` : `${name}: ${disks.join(" ")}`;
  }).join("\n");
}

export function invalidFeedback(validMoves: readonly string[]): string {
  return `Invalid action. Answer with one move written source->target, e.g. <answer>A->C</answer>. Valid moves now: ${validMoves.join(", ")}.`;
}

export function illegalFeedback(move: string, reason: string, validMoves: readonly string[]): string {
  return `Illegal move ${move}: ${reason}. Valid moves now: ${validMoves.join(", ")}.`;
}
