// Opening the trainer backend of a run (config `backend`, a union on `kind`), with the frozen initial policy its KL term compares to:
//   tiny    the in-process transformer: a fresh model (--model, --seed), the --init checkpoint with a fresh
//           optimiser, or the run's checkpoint to resume; the reference is the initial model, loaded again
//   tinker  a LoRA of --base-model on a Tinker server (src/rl/tinker/run-backend.ts, imported only for such a run),
//           reached through the run option `tinker` (address, key, timeouts; never stored), loaded with a
//           checkpoint's server paths to resume; the reference is the base model
import { ConfigError } from "../core/errors.js";
import { loadCheckpoint } from "../nn/checkpoint.js";
import { createModel, type TinyModel } from "../nn/model.js";
import { readPolicySettings } from "../policies/tiny/settings.js";
import type { ReferenceScorer, TrainerBackend } from "./backend.js";
import { readTinkerCheckpoint, type TinkerCheckpoint } from "./tinker/checkpoint.js";
import type { TinkerClientOptions } from "./tinker/client.js";
import { tinyBackend } from "./tiny-backend.js";
import type { TinkerBackendConfig, TinyBackendConfig, TrainConfig } from "./train-config.js";

/** How a run reaches its backend; none of it is stored, none of it changes results. */
export interface BackendOptions {
  /** Model threads (results do not depend on it). */
  readonly threads?: number;
  readonly signal?: AbortSignal;
  /** How to reach the Tinker server of a `backend: "tinker"` run (URL, API key, timeouts); never stored. */
  readonly tinker?: Omit<TinkerClientOptions, "signal">;
}

/** A trainer backend, and the frozen initial policy for the KL term. */
export interface OpenedBackend {
  readonly backend: TrainerBackend;
  initialReference(): Promise<ReferenceScorer>;
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
  // A run resumed from, or started on, a checkpoint of the retired window history is refused (policy.json).
  if (checkpoint !== undefined) readPolicySettings(checkpoint);
  const model =
    checkpoint === undefined
      ? await initialModel(config, backend, options.threads)
      : await loadCheckpoint(checkpoint, threadsOption(options.threads));
  return tinyBackendOf(config, backend, model, options.threads);
}

function threadsOption(threads: number | undefined): { threads?: number } {
  return threads === undefined ? {} : { threads };
}

/** The model a tiny run starts from: --init (with a fresh optimiser) or a fresh model. */
async function initialModel(
  config: Readonly<TrainConfig>,
  tiny: TinyBackendConfig,
  threads: number | undefined,
): Promise<TinyModel> {
  if (tiny.init === undefined)
    return createModel({ ...threadsOption(threads), config: tiny.modelConfig, seed: config.seed });
  const { renderer } = readPolicySettings(tiny.init);
  // The tiny backend plays and trains on the tiny policy's byte prompts: a model that learnt another renderer's
  // prompts (sft --renderer hf:DIR) would be trained on prompts it never saw.
  if (renderer !== undefined && renderer !== "bytes")
    throw new ConfigError(
      "init",
      `${tiny.init} was trained with the renderer ${renderer}, and the tiny backend renders the tiny policy's bytes`,
      "start from a checkpoint trained with the bytes renderer",
    );
  const model = await loadCheckpoint(tiny.init, threadsOption(threads));
  // RL starts with a fresh optimiser: the SFT moments describe another objective.
  const state = model.optimizerState();
  state.m.fill(0);
  state.v.fill(0);
  state.step = 0;
  return model;
}

function tinyBackendOf(
  config: Readonly<TrainConfig>,
  tiny: TinyBackendConfig,
  model: TinyModel,
  threads: number | undefined,
): OpenedBackend {
  return {
    backend: tinyBackend({ model, policy: { maxNewTokens: config.maxNewTokens, temperature: 1 } }),
    initialReference: () => initialModelReference(config, tiny, threads),
  };
}

async function initialModelReference(
  config: Readonly<TrainConfig>,
  tiny: TinyBackendConfig,
  threads: number | undefined,
): Promise<ReferenceScorer> {
  const model = await initialModel(config, tiny, threads);
  return tinyBackend({ model })
    .reference()
    .finally(() => model.dispose());
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
  const { openTinkerRunBackend } = await import("./tinker/run-backend.js");
  const reach = { ...options.tinker, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const backend = await openTinkerRunBackend(config, tinker, reach, resumeFrom);
  return { backend, initialReference: () => backend.baseReference() };
}
