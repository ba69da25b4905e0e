// The configuration of `budgetrl env-server`, declared once: validated before the env is built or the port opened
// (errors name the field); the CLI's flags, help and defaults come from it.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES } from "../../core/budget.js";
import { budgetField, parseConfig } from "../../core/config.js";
import { envOptionsField } from "../../eval/config.js";
import { heldOutSetField } from "../../eval/held-out-field.js";
import { ENV_NAMES, type EnvName } from "../../envs/registry.js";
import { listenFields } from "../config.js";
import { REWARD_KINDS } from "./observation.js";

/** The envs the server serves: every env of the registry (all run in this process). */
export const SERVED_ENVS: readonly EnvName[] = ENV_NAMES;

export const envServerConfigSchema = z.object({
  env: z
    .enum(SERVED_ENVS as [EnvName, ...EnvName[]], {
      error: (issue) => `unknown env "${String(issue.input)}" (use one of ${SERVED_ENVS.join(", ")})`,
    })
    .describe(`the env to serve: ${SERVED_ENVS.join(", ")}`),
  envOptions: envOptionsField,
  ...listenFields,
  seed: z
    .number()
    .int()
    .min(0)
    .default(1)
    .describe("the seed the tasks are drawn from (task i is task i of `budgetrl eval --seed S`)"),
  tasks: z
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe("how many tasks the server serves (a dataset env: at most its entries)"),
  exclude: heldOutSetField()
    .optional()
    .describe(
      "a held-out set the server never serves (SEED:TASKS[:structure] or a held-out.json): resets naming one are refused",
    ),
  budget: budgetField()
    .prefault("100%")
    .describe(
      "the budget of a reset that names none: turns (7), % of the reference budget (50%) or a multiple of the optimum (1.25x)",
    ),
  budgetMode: z.enum(BUDGET_MODES).default("announced").describe("the budget mode of a reset that names none"),
  budgetScope: z.enum(BUDGET_SCOPES).default("episode").describe("the budget scope of a reset that names none"),
  reward: z
    .enum(REWARD_KINDS)
    .default("success")
    .describe(
      "success: 1 on the step that succeeds; process: plus the change of the budget-aware oracle's success probability (train --algo turn's signal), the optimal-action flag in metadata",
    ),
  db: z
    .string()
    .optional()
    .describe(
      "store every episode played as a run (one per server start, or per episode_id prefix PREFIX/...): SQLite file or postgres:// URL",
    ),
  run: z.string().min(1).optional().describe("the run episodes are stored in (default env-server-<env>-<timestamp>)"),
  maxSessions: z
    .number()
    .int()
    .min(1)
    .default(64)
    .describe("sessions at once (WebSocket connections, MCP sessions); one more is refused with CAPACITY_REACHED"),
  idleTimeout: z
    .number()
    .min(0)
    .default(300)
    .describe("seconds a session may stay idle before it is closed (0: never)"),
  apiKey: z
    .string()
    .min(1)
    .optional()
    .describe("require Authorization: Bearer KEY on every path but /health (default $BUDGETRL_API_KEY)"),
});

export type EnvServerConfig = z.output<typeof envServerConfigSchema>;

export function parseEnvServerConfig(input: unknown): Readonly<EnvServerConfig> {
  return parseConfig(envServerConfigSchema, input);
}
