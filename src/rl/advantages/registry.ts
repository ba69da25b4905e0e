// The advantage estimators by name (config `algo`, flag --algo): one list, one signature (estimator.ts). The train
// step asks `advantageEstimator(config.algo.name)` for the estimator and hands it `config.algo`, the estimator's own
// options (`algoConfigSchema`: a discriminated union on `name`, one branch per estimator, built from the options each
// declares); the flat flags of `budgetrl train` (--turn-weight, ...) come from `advantageOptionFields`, each field
// described with the estimators that read it. Adding an estimator: DEVELOPERS.md, "Add an advantage estimator".
import { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import type { AdvantageEstimator, EstimatorOptions } from "./estimator.js";
import { gigpoEstimator } from "./gigpo.js";
import { grpoEstimator } from "./grpo.js";
import { turnEstimator } from "./turn.js";
import type { GroupEpisode, TurnAdvantages } from "./types.js";

const ESTIMATORS = [grpoEstimator, turnEstimator, gigpoEstimator] as const;

export type AdvantageEstimatorName = (typeof ESTIMATORS)[number]["name"];
export const ADVANTAGE_ESTIMATORS = ESTIMATORS.map((estimator) => estimator.name) as [
  AdvantageEstimatorName,
  ...AdvantageEstimatorName[],
];

type Intersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer Both) => void
  ? Both
  : never;
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
  throw new ConfigError(
    field,
    `unknown advantage estimator "${name}"`,
    `use one of ${ADVANTAGE_ESTIMATORS.join(", ")}`,
  );
}

/** Per-turn advantages of one group with the estimator called `name`; options it does not read are ignored. */
export function computeAdvantages(
  name: AdvantageEstimatorName,
  group: readonly GroupEpisode[],
  options: AdvantageOptions = {},
): TurnAdvantages {
  return advantageEstimator(name).estimate(group, options);
}

/** The estimators' options as config fields: one field per name (estimators that share a name share its schema),
 * described with the estimators that read it unless all do ("turn, gigpo: discount over turns"). */
function optionFields(): OptionFields {
  const fields: Record<string, z.ZodType> = {};
  const readers = new Map<string, string[]>();
  for (const estimator of ESTIMATORS) {
    for (const [key, schema] of Object.entries(estimator.options) as [string, z.ZodType][]) {
      if (fields[key] !== undefined && fields[key] !== schema)
        throw new Error(
          `advantage estimators declare option ${key} twice, differently (${estimator.name}): share one schema (options.ts)`,
        );
      fields[key] = schema;
      readers.set(key, [...(readers.get(key) ?? []), estimator.name]);
    }
  }
  for (const [key, names] of readers) {
    const schema = fields[key] as z.ZodType;
    if (names.length < ESTIMATORS.length)
      fields[key] = schema.describe(`${names.join(", ")}: ${schema.description ?? ""}`);
  }
  return fields as OptionFields;
}

export const advantageOptionFields = optionFields();

type AlgoBranch<Estimator> =
  Estimator extends AdvantageEstimator<infer Name, infer Shape>
    ? z.ZodObject<{ name: z.ZodLiteral<Name> } & Shape, z.core.$strict>
    : never;
type Branches<Estimators extends readonly unknown[]> = {
  -readonly [Index in keyof Estimators]: AlgoBranch<Estimators[Index]>;
};
type AlgoBranches = Branches<typeof ESTIMATORS>;

/** A run's estimator and its own options, `{ name: "gigpo", reward, normalizeStd, gamma, turnWeight, normalizeStepStd }`:
 * one strict branch per estimator, so that another estimator's option is refused, naming it. */
export const algoConfigSchema = z
  .discriminatedUnion(
    "name",
    ESTIMATORS.map((estimator) =>
      z.strictObject(
        { name: z.literal(estimator.name), ...estimator.options },
        { error: unreadOption(estimator.name) },
      ),
    ) as unknown as AlgoBranches,
  )
  .prefault({ name: "grpo" })
  .describe(`advantage estimator and its options: ${estimatorSummaries()}`);
export type AlgoConfig = z.output<typeof algoConfigSchema>;

function unreadOption(name: string): (issue: z.core.$ZodRawIssue) => string | undefined {
  return (issue) => (issue.code === "unrecognized_keys" ? `is not read by --algo ${name}` : undefined);
}

/** The estimators for `--help`: "grpo (GRPO-Full), turn (process supervision), gigpo (...)". */
export function estimatorSummaries(): string {
  return ESTIMATORS.map((estimator) => `${estimator.name} (${estimator.summary})`).join(", ");
}
