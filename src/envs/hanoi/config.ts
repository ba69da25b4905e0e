// Hanoi options: one zod schema, a description and a default per field.
import { z } from "zod";
import { booleanOption, integerOption } from "../../core/options.js";
import { MAX_DISKS } from "./tasks.js";

export const hanoiConfigSchema = z.object({
  disks: integerOption(
    1,
    MAX_DISKS,
    3,
    "Number of disks; the optimal solution from the standard start takes 2^disks - 1 moves.",
  ),
  randomStart: booleanOption(
    false,
    "Start each generated task from a random legal configuration (seeded) instead of every disk on A.",
  ),
  referenceFactor: integerOption(
    1,
    1000,
    4,
    "The reference budget (100%) is this many times the optimal number of moves.",
  ),
});

export type HanoiConfig = z.output<typeof hanoiConfigSchema>;
