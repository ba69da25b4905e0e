// How budgetrl reaches a Tinker service, defined once for every command that does: `budgetrl eval` (a tinker:
// policy) and `budgetrl worker` (its jobs carry them) through the client options (policies/openai/options.ts, whose
// rows of group "tinker" are these fields), `budgetrl train --backend tinker` and `budgetrl reproduce --trainer
// tinker` (cli/client-flags.ts makes the flags, each description opening with its command's scope). Each field has
// its default and its caps here, and `resolveTinkerReach` turns the flags and the environment into the client's
// options. Never stored with a run: given again with --resume.
//
//   --tinker-url URL                  the service, without /api/v1 (default $TINKER_BASE_URL)
//   --tinker-api-key-env NAME         the API key's variable (default TINKER_API_KEY; a name given must be set)
//   --tinker-timeout MS               one HTTP attempt (default 120000)
//   --tinker-deadline MS              how long a request may keep failing: the SDK's execute_with_retries, 5 min
//   --tinker-sampling-deadline MS     how long sampling may go without progress: the SDK's RetryConfig, 2 hours
// A future the service accepted is polled while it lives (the SDK has no deadline there either).
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { integerOption } from "../core/options.js";

/** The defaults, in milliseconds: the SDK 0.25.0's figures for the deadlines. */
export const TINKER_TIMEOUT_MS = 120_000;
export const TINKER_DEADLINE_MS = 300_000;
export const TINKER_SAMPLING_DEADLINE_MS = 7_200_000;
const DAY_MS = 86_400_000;

export const tinkerReachFields = {
  tinkerUrl: z
    .url({ error: "expected a URL, e.g. http://localhost:8000" })
    .optional()
    .describe(
      "the Tinker service, without /api/v1 (default: $TINKER_BASE_URL); not stored, give it again with --resume",
    ),
  tinkerApiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected an environment variable name" })
    .optional()
    .describe(
      "environment variable holding the Tinker API key (default TINKER_API_KEY; never printed or stored; local servers need none)",
    ),
  tinkerTimeout: integerOption(1, 3_600_000, TINKER_TIMEOUT_MS, "milliseconds allowed per HTTP attempt to Tinker"),
  tinkerDeadline: integerOption(
    0,
    DAY_MS,
    TINKER_DEADLINE_MS,
    "milliseconds one Tinker request may keep failing (5xx, 429, dropped connections) before it fails: the SDK's 5 minutes",
  ),
  tinkerSamplingDeadline: integerOption(
    0,
    DAY_MS,
    TINKER_SAMPLING_DEADLINE_MS,
    "milliseconds Tinker sampling may keep failing without progress before it fails: the SDK's 2 hours",
  ),
};

/** The flags as given (undefined: not given, the default applies). */
export interface TinkerReachFlags {
  readonly tinkerUrl?: string | undefined;
  readonly tinkerApiKeyEnv?: string | undefined;
  readonly tinkerTimeout?: number | undefined;
  readonly tinkerDeadline?: number | undefined;
  readonly tinkerSamplingDeadline?: number | undefined;
}

/** What the Tinker client is given. */
export interface TinkerReach {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly samplingDeadlineMs: number;
}

/** The client's options from the flags and the environment; undefined when no URL is given or set (the caller says
 * what needs one). A variable named by --tinker-api-key-env must be set. */
export function resolveTinkerReach(
  flags: TinkerReachFlags,
  environment: NodeJS.ProcessEnv = process.env,
): TinkerReach | undefined {
  const baseUrl = flags.tinkerUrl ?? environment["TINKER_BASE_URL"];
  if (baseUrl === undefined || baseUrl === "") return undefined;
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    throw new ConfigError(
      "tinkerUrl",
      `${JSON.stringify(baseUrl)} is not an http(s) URL`,
      "e.g. --tinker-url http://localhost:8000",
    );
  const keyName = flags.tinkerApiKeyEnv ?? "TINKER_API_KEY";
  const apiKey = environment[keyName];
  if (flags.tinkerApiKeyEnv !== undefined && (apiKey === undefined || apiKey === ""))
    throw new ConfigError(
      "tinkerApiKeyEnv",
      `the environment variable ${keyName} is not set`,
      "export it, or leave --tinker-api-key-env out for local servers",
    );
  return {
    baseUrl,
    timeoutMs: flags.tinkerTimeout ?? TINKER_TIMEOUT_MS,
    deadlineMs: flags.tinkerDeadline ?? TINKER_DEADLINE_MS,
    samplingDeadlineMs: flags.tinkerSamplingDeadline ?? TINKER_SAMPLING_DEADLINE_MS,
    ...(apiKey === undefined || apiKey === "" ? {} : { apiKey }),
  };
}
