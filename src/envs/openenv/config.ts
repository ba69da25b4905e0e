// The options of the openenv env (`--env openenv:URL`, `--env-opt KEY=VALUE`), one zod field each with its default.
import { z } from "zod";
import { integerOption, numberFromText, numberOption } from "../../core/options.js";

/** The prefix of a remote env: `openenv:URL` plays an OpenEnv server's env. */
export const OPENENV_PREFIX = "openenv:";

export const openEnvConfigSchema = z.object({
  url: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL")
    .transform((url) => url.replace(/\/+$/, ""))
    .describe("the OpenEnv server's base URL (--env openenv:URL sets it)"),
  task: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected a field name")
    .optional()
    .describe(
      "the reset field that names task i (budgetrl env-server: task); without it task i is reset(seed=i), and with it the reset's seed is the episode's",
    ),
  tasks: integerOption(
    1,
    1_000_000,
    1000,
    "how many tasks the server has (task i for i < tasks; budgetrl env-server: its --tasks, 1000 by default)",
  ),
  observation: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected a field name")
    .optional()
    .describe(
      "the observation field the agent reads as text (default: budgetrl's messages when the server sends them, else the observation without reward, done and metadata as JSON)",
    ),
  success: z
    .preprocess(numberFromText, z.number({ error: "expected a number" }))
    .optional()
    .describe("a done step succeeds when its reward is at least this (default: any reward > 0)"),
  reference: integerOption(1, 10_000, 20, "the reference budget in turns: what 100% means for every task"),
  timeout: numberOption(0.001, 3600, 60, "seconds to wait for each reply of the server before the episode is an error"),
  apiKeyEnv: z
    .string()
    .default("BUDGETRL_API_KEY")
    .describe("the environment variable holding the server's API key, sent as Authorization: Bearer (when set)"),
});

export type OpenEnvConfig = z.output<typeof openEnvConfigSchema>;
