// What the agent reads in thinice: the system prompt (rules, legend, answer format), the map with the player
// drawn as P, and one short line of feedback per turn. Feedback lines are at most 23 bytes, so that with the
// largest default map (11x5: 59 bytes) an observation stays within 83 bytes and the rollout engine's budget
// note ("Turn 12 of 30: 19 turns left.") still fits a 120-byte prompt.
import { DIRECTIONS } from "../shared/directions.js";
import { printGridMapWithPlayer } from "../shared/grid-maps.js";
import type { ThinIceTask } from "./maps.js";

export function thinIceSystemPrompt(q: number): string {
  return [
    "You are playing Thin Ice. Walk from the start to the goal.",
    "Map: P you, S start, G goal, . ice, ~ thin ice, # rock. Row 1 is the top.",
    "Each turn you move one cell: Up, Down, Left or Right. Walking into a rock or off the map wastes the turn.",
    `Each step onto thin ice breaks it with probability ${Math.round(q * 100)}%: you fall in and lose.`,
    "The way round the thin ice is safe but longer: take it when your turns left allow, else risk the ice.",
    "Answer with exactly one action, e.g. <answer>Up</answer>.",
  ].join("\n");
}

export const THINICE_INVALID_FEEDBACK = "Say Up/Down/Left/Right.";
export const THINICE_OVER_FEEDBACK = "The episode is over.";

/** The map with P at the player's cell. */
export const renderIce: (task: ThinIceTask, cell: number) => string = printGridMapWithPlayer;

/** What a move did: where it went and what the cell it reached did. */
export type MoveOutcome = "blocked" | "moved" | "held" | "broke" | "goal";

export function moveFeedback(direction: number, outcome: MoveOutcome): string {
  const name = DIRECTIONS[direction]!;
  switch (outcome) {
    case "blocked":
      return `${name}: blocked.`;
    case "moved":
      return `Moved ${name}.`;
    case "held":
      return `Moved ${name}: ice held.`;
    case "broke":
      return `Moved ${name}: ice broke!`;
    case "goal":
      return `Moved ${name}: goal!`;
  }
}
