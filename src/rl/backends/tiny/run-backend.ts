// The tiny backend of a train run (config `backend: { kind: "tiny" }`), opened by open-backend.ts: a fresh model
// (--model, --seed), the --init checkpoint with a fresh optimiser, or the run's checkpoint to resume; the reference of
// the KL term is the initial model, loaded again.
import { ConfigError } from "../../../core/errors.js";
import { loadCheckpoint } from "../../../nn/checkpoint.js";
import { createModel, type TinyModel } from "../../../nn/model.js";
import { readPolicySettings } from "../../../policies/tiny/settings.js";
import type { OpenedBackend, ReferenceScorer } from "../../backend.js";
import type { TinyBackendConfig, TrainConfig } from "../../train-config.js";
import { tinyBackend } from "./backend.js";

/** The tiny backend of a run: new, or resumed from the checkpoint in `checkpoint`; `threads` for the model. */
export async function openTinyRunBackend(
  config: Readonly<TrainConfig>,
  tiny: TinyBackendConfig,
  threads: number | undefined,
  checkpoint?: string,
): Promise<OpenedBackend> {
  // A run resumed from, or started on, a checkpoint of the retired window history is refused (policy.json).
  if (checkpoint !== undefined) readPolicySettings(checkpoint);
  const model =
    checkpoint === undefined
      ? await initialModel(config, tiny, threads)
      : await loadCheckpoint(checkpoint, threadsOption(threads));
  return {
    backend: tinyBackend({ model, policy: { maxNewTokens: config.maxNewTokens, temperature: 1 } }),
    initialReference: () => initialModelReference(config, tiny, threads),
  };
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
