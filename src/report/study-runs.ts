// Which runs make up a study, and what each one is.
// Models: `--model NAME=RUN[,RUN...]` names a model and its runs (an announced and a hidden run, teacher-forced
// and perturbed runs); every other run of `--runs` joins the model of its policy spec, named after it. A model's
// role in the paper's comparisons (base, grpo, process, budgetmix) is what was given: `--role NAME=ROLE`, or a
// study's plan (`budgetrl reproduce` names every model with its role and source as data: ModelSelection.role,
// .source). A model without one is "other" and takes part in no finding; nothing is read from names.
// Run kinds come from the run's stored intervention (eval --intervention):
//   teacher-forced   the policy answers at each state of the expert's trajectory (its replies judged, set aside)
//   recover:J        the expert played up to J, one random non-optimal action was forced at turn J, then the
//                    policy played on: the same perturbed states for every model run with the same seed
import { ConfigError, DataError, thrownMessage } from "../core/errors.js";
import { parseEvalConfig, type EvalConfig } from "../eval/config.js";
import type { Store } from "../store/store.js";
import { getRun, type RunRecord } from "../store/runs.js";
import { MODEL_ROLES, type ModelRole, type RunKind, type StudyModelSource } from "./study-model.js";

export interface ModelSelection {
  readonly name: string;
  readonly runs: readonly string[];
  /** The model's role, as the caller knows it (a study's plan); same as `roles[name]`. */
  readonly role?: ModelRole;
  /** What the model is and how it was made (a study's plan). */
  readonly source?: StudyModelSource;
}

export interface StudySelection {
  /** Runs grouped into models by their policy spec. */
  readonly runs?: readonly string[];
  /** Named models with their runs. */
  readonly models?: readonly ModelSelection[];
  /** Model name -> role. */
  readonly roles?: Readonly<Record<string, ModelRole>>;
}

export interface SelectedRun {
  readonly record: RunRecord;
  readonly config: Readonly<EvalConfig>;
  readonly model: string;
  readonly kind: RunKind;
  readonly perturbTurn: number | null;
  readonly variant: string;
}

/** How a run was played, from its stored intervention: the policy throughout, teacher-forced, or recovering from
 * an error forced at j on the expert's states. */
export function runKindOf(config: Pick<EvalConfig, "intervention">): { kind: RunKind; perturbTurn: number | null } {
  const { intervention } = config;
  if (intervention.kind === "recover") return { kind: "perturbed", perturbTurn: intervention.turn };
  return { kind: intervention.kind === "teacher-forced" ? "teacher-forced" : "policy", perturbTurn: null };
}

/** "hanoi", or "hanoi disks=4 randomStart=true" when the run set env options (sorted by key). */
export function envVariant(env: string, options: Readonly<Record<string, unknown>>): string {
  const parts = Object.keys(options)
    .sort()
    .map((key) => `${key}=${String(options[key])}`);
  return [env, ...parts].join(" ");
}

export function parseRole(text: string, flag = "--role"): ModelRole {
  const role = MODEL_ROLES.find((candidate) => candidate === text.trim().toLowerCase());
  if (role === undefined)
    throw new ConfigError(flag, `unknown role "${text}"`, `use one of: ${MODEL_ROLES.join(", ")}`);
  return role;
}

async function readRun(store: Store, id: string, model: string): Promise<SelectedRun> {
  const record = await getRun(store, id);
  let config: Readonly<EvalConfig>;
  try {
    config = parseEvalConfig(record.config);
  } catch (error) {
    throw new DataError(
      `run ${id} is not an evaluation run this report can read: ${thrownMessage(error)}`,
      "list the runs with `budgetrl runs --db FILE`; training runs go in with --train DIR",
    );
  }
  return { record, config, model, ...runKindOf(config), variant: envVariant(config.env, config.envOptions) };
}

/** The runs of a study with their models, in the order given (named models first). */
export async function selectRuns(store: Store, selection: StudySelection): Promise<SelectedRun[]> {
  const out: SelectedRun[] = [];
  const seen = new Map<string, string>();
  const add = async (id: string, model: string | undefined): Promise<void> => {
    const trimmed = id.trim();
    if (trimmed === "") return;
    const owner = seen.get(trimmed);
    if (owner !== undefined) {
      if (model === undefined || owner === model) return;
      throw new ConfigError("--model", `run ${trimmed} is given to two models (${owner} and ${model})`);
    }
    const run = await readRun(store, trimmed, model ?? "");
    const name = model ?? run.record.policy;
    seen.set(trimmed, name);
    out.push({ ...run, model: name });
  };
  for (const model of selection.models ?? []) {
    if (model.name.trim() === "") throw new ConfigError("--model", "a model needs a name: NAME=RUN[,RUN...]");
    for (const id of model.runs) await add(id, model.name);
  }
  for (const id of selection.runs ?? []) await add(id, undefined);
  if (out.length === 0)
    throw new ConfigError("--runs", "no runs selected", "name runs with --runs A,B,C or --model NAME=RUN[,RUN]");
  return out;
}

/** The role of a model: given (by --role or a study's plan), or "other" when none was. */
export interface RoleChoice {
  readonly role: ModelRole;
  readonly source: "given" | "none";
}

/** The roles a selection gives: its `roles`, and the role of each named model that carries one. */
export function givenRoles(selection: StudySelection): Record<string, ModelRole> {
  const roles: Record<string, ModelRole> = { ...selection.roles };
  for (const model of selection.models ?? []) {
    if (model.role === undefined) continue;
    const other = roles[model.name];
    if (other !== undefined && other !== model.role)
      throw new ConfigError("--role", `model ${model.name} is given two roles (${other} and ${model.role})`);
    roles[model.name] = model.role;
  }
  return roles;
}

/** The role of each model: the one given, or "other" (a role given to no model of the study is refused). */
export function modelRoles(
  models: readonly string[],
  given: Readonly<Record<string, ModelRole>> = {},
): Map<string, RoleChoice> {
  for (const name of Object.keys(given))
    if (!models.includes(name))
      throw new ConfigError("--role", `no model named "${name}"`, `models: ${models.join(", ")}`);
  return new Map(
    models.map((name) => {
      const role = given[name];
      return [name, role === undefined ? { role: "other", source: "none" } : { role, source: "given" }];
    }),
  );
}
