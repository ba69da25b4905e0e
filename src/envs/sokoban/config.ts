// Sokoban options: one zod schema, a description and a default per field. The registry, the constructor
// and the CLI help all read it.
import { z } from "zod";
import { integerOption } from "../../core/options.js";

export const SOKOBAN_DEFAULT_MAX_STATES = 1_000_000;

export const sokobanConfigSchema = z.object({
  width: integerOption(5, 16, 6, "Room width in cells, outer walls included (RAGEN's default room is 6x6)."),
  height: integerOption(5, 16, 6, "Room height in cells, outer walls included."),
  boxes: integerOption(1, 6, 1, "Number of boxes (and goals) in generated rooms."),
  searchDepth: integerOption(
    1,
    1000,
    100,
    "Reverse-play depth when generating: moves searched back from the solved room.",
  ),
  referenceFactor: integerOption(
    1,
    1000,
    4,
    "The reference budget (100%) is this many times the optimal solution length.",
  ),
  maxStates: integerOption(
    1000,
    50_000_000,
    SOKOBAN_DEFAULT_MAX_STATES,
    "Largest reachable state graph the BFS oracle builds for one level; larger levels are refused.",
  ),
});

export type SokobanConfig = z.output<typeof sokobanConfigSchema>;
