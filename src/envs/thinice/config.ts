// Thin ice options: one zod schema, a description and a default per field.
import { z } from "zod";
import { booleanOption, integerOption, numberOption } from "../../core/options.js";

export const thinIceConfigSchema = z.object({
  width: integerOption(3, 16, 11, "Columns of generated maps; the short route is at most width - 1 moves."),
  height: integerOption(
    2,
    8,
    5,
    "Rows of generated maps; the safe detour goes at most height - 1 rows around the barrier.",
  ),
  q: numberOption(
    0.05,
    0.95,
    0.4,
    "Probability that thin ice breaks when the player steps onto it (the episode then ends in failure).",
  ),
  band: integerOption(
    1,
    3,
    2,
    "Widest band of thin ice on the short route: each generated map draws 1 to band cells (at most length - 1).",
  ),
  mirror: booleanOption(
    false,
    "Also draw mirrored maps (S and G on the bottom row, G left of S), each flip with probability 1/2.",
  ),
  rocks: numberOption(
    0,
    1,
    0.5,
    "Probability that a decoration cell (away from the corridor and its walls) is rock; else ice the corridor cannot reach.",
  ),
  referenceFactor: integerOption(
    1,
    1000,
    3,
    "The reference budget (100%) is this many times the optimal length (the short route's).",
  ),
});

export type ThinIceConfig = z.output<typeof thinIceConfigSchema>;
