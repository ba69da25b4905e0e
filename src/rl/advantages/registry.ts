// The advantage estimators by name (config `algo`, flag --algo): one list, one signature (estimator.ts). The train
// step asks `advantageEstimator(config.algo)` for the estimator and hands it the config; the train config's fields
// for the estimators' options come from `advantageOptionFields`, each field described with the estimators that
// read it. Adding an estimator: DEVELOPERS.md, "Add an advantage estimator".
import type { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import type { AdvantageEstimator, EstimatorOptions } from "./estimator.js";
import { gigpoEstimator } from "./gigpo.js";
import { grpoEstimator } from "./grpo.js";
import { turnEstimator } from "./turn.js";
import type { GroupEpisode, TurnAdvantages } from "./types.js";

const ESTIMATORS = [grpoEstimator, turnEstimator, gigpoEstimator] as const;

export type AdvantageEstimatorName = (typeof ESTIMATORS)[number]["name"];
export const ADVANTAGE_ESTIMATORS = ESTIMATORS.map((estimator) => estimator.name) as [AdvantageEstimatorName, ...AdvantageEstimatorName[]];

type Intersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer Both) => void ? Both : never;
/** Every estimator's options in one shape. */
type OptionFields = Intersection<(typeof ESTIMATORS)[number]["options"]>;
/** Any estimator's options, as `computeAdvantages` takes them. */
export type AdvantageOptions = EstimatorOptions<OptionFields>;

/** The estimator called `name`. */
export function advantageEstimator(name: AdvantageEstimatorName): AdvantageEstimator {
  return ESTIMATORS.find((estimator) => estimator.name === name) as AdvantageEstimator;
}

export function parseAdvantageEstimator(name: string, field = "algo"): AdvantageEstimatorName {
  if ((ADVANTAGE_ESTIMATORS as readonly string[]).includes(name)) return name as AdvantageEstimatorName;
  throw new ConfigError(field, `unknown advantage estimator "${name}"`, `use one of ${ADVANTAGE_ESTIMATORS.join(", ")}`);
}

/** Per-turn advantages of one group with the estimator called `name`; options it does not read are ignored. */
export function computeAdvantages(name: AdvantageEstimatorName, group: readonly GroupEpisode[], options: AdvantageOptions = {}): TurnAdvantages {
  return advantageEstimator(name).estimate(group, options);
}

/** The estimators' options as config fields: one field per name (estimators that share a name share its schema),
 * described with the estimators that read it unless all do ("turn, gigpo: discount over turns"). */
function optionFields(): OptionFields {
  const fields: Record<string, z.ZodType> = {};
  const readers = new Map<string, string[]>();
  for (const estimator of ESTIMATORS) {
    for (const [key, schema] of Object.entries(estimator.options) as [string, z.ZodType][]) {
      if (fields[key] !== undefined && fields[key] !== schema) throw new Error(`advantage estimators declare option ${key} twice, differently (${estimator.name}): share one schema (options.ts)`);
      fields[key] = schema;
      readers.set(key, [...(readers.get(key) ?? []), estimator.name]);
    }
  }
  for (const [key, names] of readers) {
    const schema = fields[key] as z.ZodType;
    if (names.length < ESTIMATORS.length) fields[key] = schema.describe(`${names.join(", ")}: ${schema.description ?? ""}`);
  }
  return fields as OptionFields;
}

export const advantageOptionFields = optionFields();

/** The estimators for `--help`: "grpo (GRPO-Full), turn (process supervision), gigpo (...)". */
export function estimatorSummaries(): string {
  return ESTIMATORS.map((estimator) => `${estimator.name} (${estimator.summary})`).join(", ");
}
