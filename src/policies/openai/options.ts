// The openai policy's options, in two groups, each a zod schema validated before any work starts (errors name
// the option: "openai.temperature: expected a number from 0 to 2").
//
// Sampling options change what the model answers: they are part of the run's identity, stored with the run's
// config (`policyOptions`, with every default filled in), read back by --resume. On the command line:
// `--policy-opt KEY=VALUE`.
//
// Client options say how to reach the server and how hard to push it (base URL, the name of the API key's
// environment variable, request concurrency, requests per minute, timeout, retries, cache). They never change
// an answer, so they are not stored and are given again on --resume; none of them is part of a cache key.
// The API key itself is read from the environment when the client is made, and nowhere kept. The same object
// carries how a `tinker:` policy reaches its Tinker service (the rows of group "tinker", defined in
// policies/tinker-reach.ts: URL, the API key's variable, attempt timeout, deadlines), so that they travel as the
// openai ones do (eval's flags, --resume commands, BullMQ jobs); request concurrency and the cache apply to both.
import { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { withoutPassword } from "../../core/url-location.js";
import { booleanOption, integerOption, numberFromText, numberOption, parseOptions } from "../../core/options.js";
import { tinkerReachFields } from "../tinker-reach.js";

/** Request fields the policy writes itself: extraBody may not set them. */
export const RESERVED_BODY_FIELDS = [
  "model",
  "messages",
  "tools",
  "n",
  "seed",
  "stream",
  "temperature",
  "top_p",
  "max_tokens",
  "logprobs",
  "top_logprobs",
] as const;

function jsonObjectFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const extraBodyField = z
  .preprocess(
    jsonObjectFromText,
    z.record(z.string(), z.json(), { error: 'expected a JSON object, e.g. {"top_k": 20}' }),
  )
  .refine((body) => !RESERVED_BODY_FIELDS.some((field) => field in body), {
    error: `may not set ${RESERVED_BODY_FIELDS.join(", ")} (use the named options)`,
  })
  .default({})
  .describe(
    'extra request fields as a JSON object, passed through as they are (server-specific options, e.g. {"top_k": 20})',
  );

/** How request seeds are derived (policy.ts, planRequest). */
export const SEED_SCHEMES = ["openai", "tiny"] as const;

export const samplingOptionsSchema = z.object({
  temperature: numberOption(0, 2, 1, "sampling temperature (kept with every turn's log-probs)"),
  topP: numberOption(0, 1, 1, "nucleus sampling: top_p"),
  maxTokens: z
    .preprocess(
      numberFromText,
      z
        .number({ error: "expected an integer >= 1" })
        .int({ error: "expected an integer >= 1" })
        .min(1, { error: "expected an integer >= 1" }),
    )
    .optional()
    .describe("longest reply in tokens: max_tokens (unset: the server's default)"),
  seed: integerOption(
    0,
    2 ** 32 - 1,
    0,
    "base seed: every request's seed derives from it, the episode's seed and the turn",
  ),
  n: integerOption(
    1,
    128,
    1,
    "choices per request for the first turn, whose prompt the K samples of a task share (servers with n); 1: one request per sample",
  ),
  // Optional without a default: runs stored before it existed keep their stored options unchanged.
  seedScheme: z
    .enum(SEED_SCHEMES, { error: `expected one of ${SEED_SCHEMES.join(", ")}` })
    .optional()
    .describe(
      'how each request\'s seed is made: "openai" (unset) from the seed option, the episode\'s seed and the turn; "tiny" the in-process tiny policy\'s own turn seed, so that `budgetrl serve` answers as --policy tiny:CKPT does (needs n = 1, seed 0)',
    ),
  logprobs: booleanOption(false, "ask for the sampled tokens' log-probs (logprobs: true)"),
  topLogprobs: integerOption(0, 20, 0, "alternatives per token with their log-probs: top_logprobs (0: not asked)"),
  tokenIds: booleanOption(
    false,
    "ask vLLM and SGLang for token ids: return_token_ids (prompt and reply), and return_tokens_as_token_ids with logprobs",
  ),
  extraBody: extraBodyField,
});

export type SamplingOptions = z.output<typeof samplingOptionsSchema>;

export const clientOptionsSchema = z.object({
  baseUrl: z
    .url({ error: "expected a URL, e.g. http://localhost:8000/v1" })
    .optional()
    .describe("server URL up to /v1 (default: $OPENAI_BASE_URL, else OpenAI's)"),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected an environment variable name" })
    .optional()
    .describe("environment variable holding the API key (default OPENAI_API_KEY; local servers need none)"),
  concurrency: integerOption(1, 4096, 16, "requests in flight at once, across all episodes"),
  rpm: integerOption(0, 10_000_000, 0, "requests started per minute at most (0: no limit)"),
  timeoutMs: integerOption(1, 3_600_000, 120_000, "time allowed for one request, in milliseconds"),
  retries: integerOption(0, 100, 6, "retries of a request after a timeout, a dropped connection, 408, 409, 429 or 5xx"),
  backoffMs: integerOption(
    0,
    600_000,
    500,
    "first retry delay in milliseconds, doubled at every retry, with seeded jitter",
  ),
  maxBackoffMs: integerOption(
    0,
    3_600_000,
    30_000,
    "longest wait before a retry in milliseconds, Retry-After included",
  ),
  cache: booleanOption(true, "answer repeated requests from the on-disk response cache"),
  // How a tinker: policy reaches its service: defined once, in tinker-reach.ts.
  ...tinkerReachFields,
  cacheDir: z
    .string()
    .min(1)
    .optional()
    .describe(
      "folder of the response cache (default: $BUDGETRL_CACHE_DIR, else $XDG_CACHE_HOME/budgetrl, else ~/.cache/budgetrl)",
    ),
});

export type ClientOptions = z.output<typeof clientOptionsSchema>;

/** Client options as given for one invocation: only those set, each validated; the policy fills in the defaults. This
 * is what travels from `budgetrl eval` or `budgetrl reproduce` (or `evaluate`, `reproduce`) to the policy, and in every
 * BullMQ episode job. */
export type GivenClientOptions = Readonly<Partial<ClientOptions>>;

/** Sampling options as given: only those set, each validated (a study's served base, `--base-opt`); their stored form
 * has every default filled in (storedSamplingOptions). */
export type GivenSamplingOptions = Readonly<Partial<SamplingOptions>>;

/** The client options on the command line (`budgetrl eval`, and `budgetrl reproduce` for a served base): one row per
 * option, schema key and flag (descriptions, defaults and validation come from the schema). `cache` is on by default:
 * its flag, --no-cache, turns it off. A resume command gives them again by the same rows (`clientOptionArgs`). */
export const CLIENT_OPTION_FLAGS = [
  { key: "baseUrl", flag: "--base-url" },
  { key: "apiKeyEnv", flag: "--api-key-env" },
  { key: "concurrency", flag: "--request-concurrency" },
  { key: "rpm", flag: "--rpm" },
  { key: "timeoutMs", flag: "--request-timeout" },
  { key: "retries", flag: "--retries" },
  { key: "backoffMs", flag: "--retry-backoff" },
  { key: "maxBackoffMs", flag: "--retry-max-wait" },
  { key: "cacheDir", flag: "--cache" },
  { key: "cache", flag: "--no-cache", switchesOff: true },
  { key: "tinkerUrl", flag: "--tinker-url", group: "tinker" },
  { key: "tinkerApiKeyEnv", flag: "--tinker-api-key-env", group: "tinker" },
  { key: "tinkerTimeout", flag: "--tinker-timeout", group: "tinker" },
  { key: "tinkerDeadline", flag: "--tinker-deadline", group: "tinker" },
  { key: "tinkerSamplingDeadline", flag: "--tinker-sampling-deadline", group: "tinker" },
] as const satisfies readonly {
  readonly key: keyof ClientOptions;
  readonly flag: `--${string}`;
  readonly switchesOff?: true;
  /** "tinker": how a tinker: policy reaches its service (flags of `budgetrl eval` only). */
  readonly group?: "tinker";
}[];

/** Validate sampling options (typed, or strings from --policy-opt); every default filled in. */
export function parseSamplingOptions(options: unknown): SamplingOptions {
  const parsed = parseOptions("openai", samplingOptionsSchema, options ?? {});
  if (parsed.seedScheme === "tiny" && (parsed.n !== 1 || parsed.seed !== 0)) {
    throw new ConfigError(
      "openai.seedScheme",
      `"tiny" sends the tiny policy's seed of each episode's turn, which takes no seed option and one request per sample (got n = ${parsed.n}, seed = ${parsed.seed})`,
      "leave n and seed at their defaults (1 and 0) with seedScheme=tiny",
    );
  }
  return parsed;
}

/** Validate client options; throws ConfigError naming "openai.<option>". */
export function parseClientOptions(options: unknown): ClientOptions {
  return parseOptions("openai", clientOptionsSchema, options ?? {});
}

/** The options set in `options` (undefined ones left out), each with its validated value from `parsed`. */
function onlyGiven<Options extends object>(options: unknown, parsed: Options): Readonly<Partial<Options>> {
  const given = Object.entries((options ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined);
  return Object.fromEntries(given.map(([key]) => [key, (parsed as Record<string, unknown>)[key]])) as Readonly<
    Partial<Options>
  >;
}

/** Validate client options as given (typed, or read from a job); keeps only those set, without defaults. */
export function parseGivenClientOptions(options: unknown): GivenClientOptions {
  return onlyGiven(options, parseClientOptions(options));
}

/** Validate sampling options as given (typed, or strings from a KEY=VALUE flag); keeps only those set, read to their
 * types, without defaults. */
export function parseGivenSamplingOptions(options: unknown): GivenSamplingOptions {
  return onlyGiven(options, parseSamplingOptions(options));
}

/** The flags that give client options again (a resume command, by CLIENT_OPTION_FLAGS): the API key's variable by
 * name, never a key; a URL without its password. */
export function clientOptionArgs(client: GivenClientOptions | undefined): string[] {
  const args: string[] = [];
  for (const row of CLIENT_OPTION_FLAGS) {
    const value = client?.[row.key];
    if (value === undefined) continue;
    if ("switchesOff" in row) {
      if (value === false) args.push(row.flag);
    } else
      args.push(
        row.flag,
        row.key === "baseUrl" || row.key === "tinkerUrl" ? withoutPassword(String(value)) : String(value),
      );
  }
  return args;
}

/** The stored form of sampling options: JSON with defaults filled in, so a later default never changes a run. */
export function storedSamplingOptions(options: unknown): JsonObject {
  const parsed = parseSamplingOptions(options);
  return JSON.parse(JSON.stringify(parsed)) as JsonObject;
}

/** The API key from the named environment variable. Local servers need none: without the default variable a
 * placeholder is sent; a variable named explicitly must be set. */
export function readApiKey(apiKeyEnv: string | undefined, environment: NodeJS.ProcessEnv = process.env): string {
  const name = apiKeyEnv ?? "OPENAI_API_KEY";
  const key = environment[name];
  if (key !== undefined && key !== "") return key;
  if (apiKeyEnv !== undefined)
    throw new ConfigError(
      "openai.apiKeyEnv",
      `the environment variable ${apiKeyEnv} is not set`,
      "export it, or leave --api-key-env out for servers without keys",
    );
  return "EMPTY";
}
