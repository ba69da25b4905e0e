// Reading a hanoi move from a reply. Canonical form "A->C" (source peg, then target peg). Also accepted,
// in any case: "AC", "A C", "A-C", "A to C", "A→C", "A,C", "A=>C", "move A to C", "from A to C",
// "move disk 1 from A to C", "peg A to peg C".
import { normalizeAnswer } from "../shared/answer.js";

const MOVE =
  /^(?:move\s+)?(?:(?:the\s+)?(?:top\s+)?disk\s+(?:\d+\s+)?)?(?:from\s+)?(?:peg\s+)?([abc])\s*(?:->|=>|→|-|to|,)?\s*(?:peg\s+)?([abc])$/;
const PEG_INDEX: Readonly<Record<string, number>> = { a: 0, b: 1, c: 2 };

/** [from, to] peg indices named by a reply, or null. `from === to` parses (and is then an illegal move). */
export function parseMove(reply: string): readonly [number, number] | null {
  const answer = normalizeAnswer(reply);
  if (answer === null) return null;
  const match = MOVE.exec(answer);
  return match === null ? null : [PEG_INDEX[match[1]!]!, PEG_INDEX[match[2]!]!];
}
