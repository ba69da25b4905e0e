// Where episodes of one task, budget and sample part: under common random numbers two models start from the same
// state with the same dice, so their trajectories agree until one moves differently. The first turn (1-based) where
// the moves differ, a move being the parsed action played (the reply itself when it did not parse), or where one
// episode has ended while another goes on; null when they never part (or fewer than two episodes are given).
import type { Turn } from "../core/episode.js";

const moveOf = (turn: Turn): string => turn.parsedAction ?? `reply:${turn.action.content.trim()}`;

export function firstDivergence(episodes: readonly (readonly Turn[])[]): number | null {
  if (episodes.length < 2) return null;
  const longest = Math.max(...episodes.map((turns) => turns.length));
  for (let at = 0; at < longest; at++) {
    const moves = episodes.map((turns) => (at < turns.length ? moveOf(turns[at]!) : null));
    if (moves.some((move) => move !== moves[0])) return at + 1;
  }
  return null;
}
