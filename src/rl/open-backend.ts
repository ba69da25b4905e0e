// Opening the trainer backend of a run (config `backend`, a union on `kind`), with the frozen initial policy its KL
// term compares to; each backend's opening lives in its folder:
//   tiny    the in-process transformer (backends/tiny/run-backend.ts): a fresh model, the --init checkpoint with a
//           fresh optimiser, or the run's checkpoint to resume; the reference is the initial model, loaded again
//   tinker  a LoRA of --base-model on a Tinker server (backends/tinker/run-backend.ts, imported only for such a run),
//           reached through the run option `tinker` (address, key, timeouts; never stored), loaded with a
//           checkpoint's server paths to resume; the reference is the base model
import { ConfigError } from "../core/errors.js";
import { readTinkerCheckpoint, type TinkerCheckpoint } from "../tinker/checkpoint.js";
import type { TinkerClientOptions } from "../tinker/client.js";
import type { OpenedBackend } from "./backend.js";
import { openTinyRunBackend } from "./backends/tiny/run-backend.js";
import type { TinkerBackendConfig, TrainConfig } from "./train-config.js";

/** How a run reaches its backend; none of it is stored, none of it changes results. */
export interface BackendOptions {
  /** Model threads (results do not depend on it). */
  readonly threads?: number;
  readonly signal?: AbortSignal;
  /** How to reach the Tinker server of a `backend: "tinker"` run (URL, API key, timeouts); never stored. */
  readonly tinker?: Omit<TinkerClientOptions, "signal">;
}

/** The backend of a run: new, or resumed from the checkpoint in `checkpoint`. */
export async function openBackend(
  config: Readonly<TrainConfig>,
  options: BackendOptions,
  checkpoint?: string,
): Promise<OpenedBackend> {
  const backend = config.backend;
  if (backend.kind === "tinker")
    return tinkerBackendOf(
      config,
      backend,
      options,
      checkpoint === undefined ? undefined : await readTinkerCheckpoint(checkpoint),
    );
  return openTinyRunBackend(config, backend, options.threads, checkpoint);
}

/** The tinker backend of a run (a new model on the base model, or one loaded with a checkpoint's state). */
async function tinkerBackendOf(
  config: Readonly<TrainConfig>,
  tinker: TinkerBackendConfig,
  options: BackendOptions,
  resumeFrom?: TinkerCheckpoint,
): Promise<OpenedBackend> {
  if (options.tinker === undefined)
    throw new ConfigError(
      "tinkerUrl",
      "a tinker run needs the server's address",
      "give --tinker-url URL (or set TINKER_BASE_URL)",
    );
  // Loaded here: the wire format and the Hugging Face renderer are only for runs that train on Tinker.
  const { openTinkerRunBackend } = await import("./backends/tinker/run-backend.js");
  const reach = { ...options.tinker, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const backend = await openTinkerRunBackend(config, tinker, reach, resumeFrom);
  return { backend, initialReference: () => backend.baseReference() };
}
