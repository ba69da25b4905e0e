// What one episode job carries: ids and settings, never a trajectory. The worker rebuilds the env, the policy and
// the episode's spec from the run's stored config and tasks (same seeds, so the same episode as a local run), plays
// it through the same rollout engine and writes it to the store idempotently. Client options of the policy that
// are not stored with the run (base URL, limits, cache) travel with the job; never an API key: a worker reads keys
// from its own environment (the variable named by apiKeyEnv).
import { z } from "zod";
import { BudgetrlError } from "../../core/errors.js";

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
  policyClient: z.record(z.string(), z.unknown()).optional(),
});

export type EpisodeJob = z.output<typeof episodeJobSchema>;

/** The name every episode job carries (BullMQ jobs have one). */
export const EPISODE_JOB = "episode";

/** Client options that may travel in a job: anything but secrets (keys are read from the worker's environment). */
export function shareableClientOptions(client: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> | undefined {
  if (client === undefined) return undefined;
  const kept = Object.entries(client).filter(([key]) => !/(api.?key|secret|token|password)$/i.test(key) || key === "apiKeyEnv");
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** A job whose data cannot be an episode job (another program's job on the queue, a newer budgetrl). */
export class BadJobError extends BudgetrlError {
  constructor(message: string) {
    super("worker:job", message);
  }
}

export function readEpisodeJob(data: unknown): EpisodeJob {
  const parsed = episodeJobSchema.safeParse(data);
  if (!parsed.success) throw new BadJobError(`not a budgetrl episode job: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  return parsed.data;
}
