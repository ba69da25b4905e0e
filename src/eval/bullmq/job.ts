// What one episode job carries: ids and settings, never a trajectory. The worker rebuilds the env, the policy and
// the episode's spec from the run's stored config and tasks (same seeds, so the same episode as a local run), plays
// it through the same rollout engine and writes it to the store idempotently. The policy's client options, which
// are not stored with the run (base URL, limits, cache), travel with the job as the eval was given them, typed
// (GivenClientOptions) and validated again by their schema when the worker reads the job. They hold no secret: a
// worker reads API keys from its own environment (the variable named by apiKeyEnv).
import { z } from "zod";
import { BudgetrlError, ConfigError } from "../../core/errors.js";
import { parseGivenClientOptions, type GivenClientOptions } from "../../policies/openai/options.js";

export const episodeJobSchema = z.object({
  version: z.literal(1),
  /** The store as workers open it (names.ts: workerStoreAddress). */
  db: z.string().min(1),
  run: z.string().min(1),
  taskIndex: z.number().int().min(0),
  budget: z.string().min(1),
  sample: z.number().int().min(0),
  /** Seconds one policy call may take (the eval's --turn-timeout). */
  turnTimeout: z.number().positive(),
  /** SQLite: seconds to wait for another writer (the eval's --busy-timeout). */
  busyTimeout: z.number().min(0),
  /** The openai client options given to the eval (clientOptionsSchema; read with parseGivenClientOptions). */
  policyClient: z.record(z.string(), z.unknown()).optional(),
});

export interface EpisodeJob extends Omit<z.output<typeof episodeJobSchema>, "policyClient"> {
  readonly policyClient?: GivenClientOptions;
}

/** The name every episode job carries (BullMQ jobs have one). */
export const EPISODE_JOB = "episode";

/** A job whose data cannot be an episode job (another program's job on the queue, a newer budgetrl). */
export class BadJobError extends BudgetrlError {
  constructor(message: string) {
    super("worker:job", message);
  }
}

export function readEpisodeJob(data: unknown): EpisodeJob {
  const parsed = episodeJobSchema.safeParse(data);
  if (!parsed.success)
    throw new BadJobError(
      `not a budgetrl episode job: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  const { policyClient, ...job } = parsed.data;
  if (policyClient === undefined) return job;
  try {
    return { ...job, policyClient: parseGivenClientOptions(policyClient) };
  } catch (error) {
    if (error instanceof ConfigError)
      throw new BadJobError(`not a budgetrl episode job: policyClient: ${error.message}`);
    throw error;
  }
}
