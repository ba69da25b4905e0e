// Tower of Hanoi rules. A configuration gives the peg (0 = A, 1 = B, 2 = C) of every disk, smallest disk
// first; any such assignment is a legal position (each peg holds its disks in size order). A move takes the
// top (smallest) disk of one peg onto another peg whose top disk is larger, or onto an empty peg.
// The target is every disk on C. Reward: 1 on reaching the target, 0 otherwise (illegal moves included).

export const PEGS = ["A", "B", "C"] as const;
export const TARGET_PEG = 2;
export const REWARD_SOLVED = 1;

/** Pegs of disks 1..n (smallest first). */
export type Configuration = readonly number[];

/** Smallest disk (0-based) on a peg, or -1 if the peg is empty. */
export function topDisk(pegs: Configuration, peg: number): number {
  return pegs.indexOf(peg);
}

export type MoveVerdict =
  { readonly legal: true; readonly disk: number } | { readonly legal: false; readonly reason: string };

export function checkMove(pegs: Configuration, from: number, to: number): MoveVerdict {
  if (from === to) return { legal: false, reason: `a disk must move to another peg` };
  const disk = topDisk(pegs, from);
  if (disk < 0) return { legal: false, reason: `peg ${PEGS[from]} is empty` };
  const below = topDisk(pegs, to);
  if (below >= 0 && below < disk)
    return { legal: false, reason: `disk ${disk + 1} cannot go onto the smaller disk ${below + 1}` };
  return { legal: true, disk };
}

/** The configuration after moving `disk` to peg `to` (a new array). */
export function moveDisk(pegs: Configuration, disk: number, to: number): Configuration {
  const next = pegs.slice();
  next[disk] = to;
  return next;
}

export function isSolved(pegs: Configuration): boolean {
  return pegs.every((peg) => peg === TARGET_PEG);
}

/** Canonical text of a move, e.g. "A->C". */
export function moveText(from: number, to: number): string {
  return `${PEGS[from]}->${PEGS[to]}`;
}

/** Every (from, to) pair in canonical order: A->B, A->C, B->A, B->C, C->A, C->B. */
export const ALL_MOVES: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 2],
  [1, 0],
  [1, 2],
  [2, 0],
  [2, 1],
];

export function legalMoves(pegs: Configuration): (readonly [number, number])[] {
  return ALL_MOVES.filter(([from, to]) => checkMove(pegs, from, to).legal);
}
