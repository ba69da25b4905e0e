// A Tinker run's checkpoint folder: no weights, only where they are. budgetrl.json (written last, like the
// in-process checkpoints' manifest, so the train loop's "newest complete checkpoint" rule holds) records the
// server, the base model and LoRA rank, the tinker:// paths of the saved state (weights and optimiser: resume
// loads it into a new model) and of the sampler weights (for sampling elsewhere), and the prompt settings. Written
// by the trainer backend (rl/backends/tinker/), read by it to resume and by tinker: policies to sample.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { DataError } from "../core/errors.js";
import { HISTORY, refuseRetiredHistory } from "../policies/tiny/context.js";

export const TINKER_CHECKPOINT_FORMAT = "budgetrl-tinker/1";

const checkpointSchema = z.object({
  format: z.literal(TINKER_CHECKPOINT_FORMAT),
  server: z.string(),
  baseModel: z.string(),
  loraRank: z.number().int(),
  modelId: z.string(),
  statePath: z.string(),
  samplerPath: z.string(),
  optimizerSteps: z.number().int().min(0),
  contextLength: z.number().int(),
  maxNewTokens: z.number().int(),
  history: z.string().optional(),
  renderer: z.string(),
});

export type TinkerCheckpoint = Omit<z.output<typeof checkpointSchema>, "history"> & {
  readonly history: typeof HISTORY;
};

/** The checkpoint in `dir`; a missing, unreadable or foreign manifest is a DataError naming the file, and so is
 * one trained under the retired window history (refuseRetiredHistory). */
export async function readTinkerCheckpoint(dir: string): Promise<TinkerCheckpoint> {
  const path = join(dir, "budgetrl.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new DataError(`${path} is missing: ${dir} is not a checkpoint (or its save was interrupted)`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DataError(`${path} is not valid JSON (corrupted)`, "restore the checkpoint from a good copy");
  }
  const parsed = checkpointSchema.safeParse(body);
  if (!parsed.success)
    throw new DataError(
      `${path} is not a ${TINKER_CHECKPOINT_FORMAT} checkpoint (${parsed.error.issues[0]?.path.join(".") ?? ""}: ${parsed.error.issues[0]?.message ?? "invalid"})`,
      "an in-process checkpoint resumes with --backend tiny",
    );
  refuseRetiredHistory(path, parsed.data.history);
  return { ...parsed.data, history: HISTORY };
}

/** Writes `checkpoint` as the manifest of `dir` (made if missing): to a temporary file, then renamed into place. */
export async function writeTinkerCheckpoint(dir: string, checkpoint: TinkerCheckpoint): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "budgetrl.json.tmp"), `${JSON.stringify(checkpoint, null, 2)}\n`);
  await rename(join(dir, "budgetrl.json.tmp"), join(dir, "budgetrl.json"));
}
