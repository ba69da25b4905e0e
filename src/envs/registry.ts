// The env registry: every env by name, with its option schema, a constructor from an untyped options
// record (CLI flags, stored run configs) and its option help. Options are validated with the env's zod
// schema before anything runs; errors are ConfigErrors naming the option ("sokoban.boxes: expected an
// integer from 1 to 6"). To add an env, add one entry to ENV_DEFINITIONS (BFCL does, with its data dir
// as an option).
import { z } from "zod";
import { isRemoteEnv, type AnyEnv, type PlayableEnv } from "../core/env.js";
import { OPENENV_PREFIX } from "./openenv/config.js";
import { openenv } from "./openenv/index.js";
import { ConfigError } from "../core/errors.js";
import { frozenLakeConfigSchema } from "./frozenlake/config.js";
import { frozenlake } from "./frozenlake/index.js";
import { hanoiConfigSchema } from "./hanoi/config.js";
import { hanoi } from "./hanoi/index.js";
import { describeOptions, formatOptionsHelp, parseOptions, type OptionHelp } from "../core/options.js";
import { sokobanConfigSchema } from "./sokoban/config.js";
import { sokoban } from "./sokoban/index.js";
import { thinIceConfigSchema } from "./thinice/config.js";
import { thinice } from "./thinice/index.js";
import { bfcl } from "./bfcl/env.js";
import { bfclConfigSchema } from "./bfcl/config.js";
import { vaultConfigSchema } from "./vault/config.js";
import { vault } from "./vault/index.js";

export interface EnvDefinition {
  /** One line saying what the env is. */
  readonly summary: string;
  readonly schema: z.ZodObject;
  /** Build the env from an options record (validated against `schema`; throws ConfigError). */
  create(options: Record<string, unknown>): AnyEnv;
  /** Every option with its description and default. */
  describe(): OptionHelp[];
}

/** A definition from a schema and a typed constructor: validation and help come from the schema. */
export function defineEnv<Schema extends z.ZodObject>(
  name: string,
  summary: string,
  schema: Schema,
  construct: (config: Readonly<z.output<Schema>>) => AnyEnv,
): EnvDefinition {
  return {
    summary,
    schema,
    create: (options) => construct(parseOptions(name, schema, options)),
    describe: () => describeOptions(schema),
  };
}

export const ENV_DEFINITIONS = {
  sokoban: defineEnv(
    "sokoban",
    "Push every box onto a goal; procedural rooms as in RAGEN, BFS oracle.",
    sokobanConfigSchema,
    (config) => sokoban(config),
  ),
  frozenlake: defineEnv(
    "frozenlake",
    "Cross a frozen lake without falling into a hole; Gymnasium maps, value-iteration oracle.",
    frozenLakeConfigSchema,
    (config) => frozenlake(config),
  ),
  hanoi: defineEnv(
    "hanoi",
    "Tower of Hanoi with n disks: the optimal horizon is 2^n - 1 moves.",
    hanoiConfigSchema,
    (config) => hanoi(config),
  ),
  vault: defineEnv(
    "vault",
    "Open a vault's locks in order; uncertain hints can be checked at the cost of a turn: verify only when the budget allows.",
    vaultConfigSchema,
    (config) => vault(config),
  ),
  thinice: defineEnv(
    "thinice",
    "Risk against time: a short route over thin ice that may break, or a safe detour 1.6-2.5x longer; exact finite-horizon oracle.",
    thinIceConfigSchema,
    (config) => thinice(config),
  ),
  bfcl: defineEnv(
    "bfcl",
    "BFCL v4 multi-turn: eight stateful APIs, upstream's loop and checkers (data bundled; --data-dir overrides).",
    bfclConfigSchema,
    (config) => bfcl(config),
  ),
} as const satisfies Readonly<Record<string, EnvDefinition>>;

export type EnvName = keyof typeof ENV_DEFINITIONS;
export const ENV_NAMES = Object.freeze(Object.keys(ENV_DEFINITIONS)) as readonly EnvName[];

export function isEnvName(name: string): name is EnvName {
  return Object.hasOwn(ENV_DEFINITIONS, name);
}

/** An env's id in a config: one of the registry's names (the text as given; a name the registry lacks is refused,
 * naming the field). `description` says what the field is for. */
export function envNameField(description: string) {
  return z
    .string()
    .pipe(
      z.enum(ENV_NAMES as [EnvName, ...EnvName[]], {
        error: (issue) => `unknown env "${String(issue.input)}" (use one of ${ENV_NAMES.join(", ")})`,
      }),
    )
    .describe(description);
}

/** The definition of an env; throws ConfigError (field "env") for an unknown name. */
export function envDefinition(name: string): EnvDefinition {
  if (!isEnvName(name)) throw new ConfigError("env", `unknown env "${name}"`, `use one of ${ENV_NAMES.join(", ")}`);
  return ENV_DEFINITIONS[name];
}

/** Build an env by name from an options record; throws ConfigError naming the env or the option. */
export function createEnv(name: string, options: Record<string, unknown> = {}): AnyEnv {
  return envDefinition(name).create(options);
}

/** Each option of an env with its description and default, as data. */
export function envOptions(name: string): OptionHelp[] {
  return envDefinition(name).describe();
}

/** Option help for an env, one line per option (the CLI prints it). */
export function envConfigHelp(name: string): string {
  const definition = envDefinition(name);
  return `${name}: ${definition.summary}\n${formatOptionsHelp(name, definition.describe())}`;
}

/** An env's reference in a config: a registry name, or `openenv:URL` (an OpenEnv server's env). */
export type EnvReference = EnvName | `openenv:${string}`;

/** An env's reference in a config: one of the registry's names or `openenv:URL` (the text as given; anything else is
 * refused, naming the field). `description` says what the field is for. */
export function envReferenceField(description: string) {
  return z
    .string()
    .refine((name) => isEnvName(name) || /^openenv:https?:\/\/\S+$/.test(name), {
      error: (issue) =>
        `unknown env "${String(issue.input)}" (use one of ${ENV_NAMES.join(", ")}, or openenv:http://HOST:PORT for an OpenEnv server)`,
    })
    .describe(description);
}

/** Build the env a config names: a registry env (in this process), or an OpenEnv server's (`openenv:URL`, remote:
 * open() it before playing). Throws ConfigError naming the env or the option. */
export function createPlayableEnv(reference: string, options: Record<string, unknown> = {}): PlayableEnv {
  if (reference.startsWith(OPENENV_PREFIX)) return openenv({ ...options, url: reference.slice(OPENENV_PREFIX.length) });
  return createEnv(reference, options);
}

/** createPlayableEnv, a remote env opened (its server reached and its schema read; a URL that serves no env is
 * refused with a DataError) before it is handed over. */
export async function openPlayableEnv(reference: string, options: Record<string, unknown> = {}): Promise<PlayableEnv> {
  const env = createPlayableEnv(reference, options);
  if (isRemoteEnv(env)) await env.open();
  return env;
}
