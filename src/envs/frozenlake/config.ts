// FrozenLake options: one zod schema, a description and a default per field.
import { z } from "zod";
import { booleanOption, choiceOption, integerOption, numberOption } from "../../core/options.js";
import { MAP_NAMES } from "./maps.js";

export const frozenLakeConfigSchema = z.object({
  size: integerOption(2, 32, 4, "Side of generated square maps (Gymnasium's random maps: S top-left, G bottom-right)."),
  p: numberOption(0.05, 1, 0.8, "Probability that a generated cell is frozen rather than a hole."),
  slippery: booleanOption(
    false,
    "Slippery ice: the intended move happens with probability 1/3, each perpendicular one with 1/3.",
  ),
  map: choiceOption(MAP_NAMES, "Play one of Gymnasium's named maps for every seed instead of generating maps."),
  referenceFactor: integerOption(
    1,
    1000,
    4,
    "The reference budget (100%) is this many times the shortest path length (ignoring slipperiness).",
  ),
});

export type FrozenLakeConfig = z.output<typeof frozenLakeConfigSchema>;
