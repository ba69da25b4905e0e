// What the agent reads in frozenlake: the system prompt (rules, legend, answer format), the map with the
// player drawn as P, and one line of feedback per turn.
import { DIRECTIONS } from "../shared/directions.js";
import { printGridMapWithPlayer } from "../shared/grid-maps.js";
import type { FrozenLakeTask } from "./maps.js";

export function frozenLakeSystemPrompt(slippery: boolean): string {
  return [
    "You are playing FrozenLake. Walk from the start to the goal without falling into a hole.",
    "Map: P you, S start, F frozen ice, H hole, G goal. Row 1 is the top.",
    "Each turn you move one cell: Up, Down, Left or Right. Moving off the edge leaves you in place.",
    ...(slippery
      ? [
          "The ice is slippery: you move the way you chose with probability 1/3, and to each side of it with probability 1/3.",
        ]
      : []),
    "Answer with exactly one action, e.g. <answer>Up</answer>.",
  ].join("\n");
}

export const FROZENLAKE_INVALID_FEEDBACK =
  "Invalid action. Answer with one of Up, Down, Left, Right, e.g. <answer>Up</answer>.";

/** The map with P at the player's cell. */
export const renderLake: (task: FrozenLakeTask, cell: number) => string = printGridMapWithPlayer;

/** What a move did: intended and actual directions, and where it ended. */
export function moveFeedback(
  intended: number,
  taken: number,
  stayed: boolean,
  landed: "frozen" | "hole" | "goal",
): string {
  const chosen = DIRECTIONS[intended]!;
  const actual = DIRECTIONS[taken]!;
  let text = intended === taken ? `Moved ${chosen}.` : `Tried ${chosen} but slipped ${actual}.`;
  if (stayed)
    text =
      intended === taken
        ? `${chosen}: the edge of the lake; you stay.`
        : `Tried ${chosen} but slipped ${actual} against the edge; you stay.`;
  if (landed === "hole") return `${text} You fell into a hole.`;
  if (landed === "goal") return `${text} You reached the goal!`;
  return text;
}
