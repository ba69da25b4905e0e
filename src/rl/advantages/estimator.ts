// What an advantage estimator is, for the registry (registry.ts) and the train step: a name, the options it reads,
// and one pure function with one signature, from a group of episodes to per-turn advantages.
// The options are a zod object shape, each field with its default and a description, so that the train config's
// fields, their flags and their help come from the estimator that reads them (and a config per estimator, a
// discriminated union on `algo`, can be built from the same shapes). The idea is verl's `register_adv_est`
// (estimators looked up by name, one calling convention), with the options declared by each estimator instead of
// read loosely from a shared config.
import { z } from "zod";
import type { GroupEpisode, TurnAdvantages } from "./types.js";

/** What `eps` is when left out. */
export const DEFAULT_EPS = 1e-6;

/** The options of an estimator as its function reads them: every declared field optional (its default applies),
 * and `eps`, added to a standard deviation before dividing (default 1e-6; not a config field). */
export type EstimatorOptions<Shape extends z.ZodRawShape> = Partial<z.output<z.ZodObject<Shape>>> & {
  readonly eps?: number;
};

export interface AdvantageEstimator<Name extends string = string, Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** The `--algo` value. */
  readonly name: Name;
  /** One line for `--help`: what the estimator computes. */
  readonly summary: string;
  /** The options it reads, each with its default and description (train config fields and flags). */
  readonly options: Shape;
  /** One advantage per turn of every episode of one group (the rollouts of one task under one budget). */
  estimate(group: readonly GroupEpisode[], options: EstimatorOptions<Shape>): TurnAdvantages;
}

/** The defaults an estimator's options declare, read from their schemas (the one place each is written). */
export function optionDefaults<Shape extends z.ZodRawShape>(shape: Shape): z.output<z.ZodObject<Shape>> {
  return z.object(shape).parse({});
}

/** An estimator, its name kept as a literal type (so that the registry's names type `algo`). */
export function defineAdvantageEstimator<const Name extends string, Shape extends z.ZodRawShape>(
  estimator: AdvantageEstimator<Name, Shape>,
): AdvantageEstimator<Name, Shape> {
  return estimator;
}
