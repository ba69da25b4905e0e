// The Tinker backend of a train run (config `backend: { kind: "tinker" }`): its renderer, its client and the
// backend on the server, new or loaded with a checkpoint's state. Loaded by open-backend.ts only when a run trains
// on Tinker, so that the train loop and its entry ("budgetrl/rl") load neither the wire format (protobufjs, zstd)
// nor the Hugging Face tokenizer and templates otherwise.
import type { TrainConfig, TinkerBackendConfig } from "../../train-config.js";
import { openTinkerBackend, type TinkerBackend } from "./backend.js";
import type { TinkerCheckpoint } from "../../../tinker/checkpoint.js";
import { createTinkerClient, type TinkerClientOptions } from "../../../tinker/client.js";
import { openRenderer } from "../../../policies/renderers/renderer.js";

/** The tinker backend of a run: a new model on the base model, or one loaded with `resumeFrom`'s state. */
export async function openTinkerRunBackend(
  config: Readonly<TrainConfig>,
  tinker: TinkerBackendConfig,
  reach: TinkerClientOptions,
  resumeFrom?: TinkerCheckpoint,
): Promise<TinkerBackend> {
  // The renderer's files are read before the first request: a bad --renderer hf:DIR fails without the server.
  const renderer = openRenderer(tinker.renderer, config.maxNewTokens, {
    templateOptions: tinker.templateOptions,
    toolCallFormat: tinker.toolCallFormat,
  });
  return openTinkerBackend({
    client: createTinkerClient(reach),
    baseModel: tinker.baseModel,
    loraRank: tinker.loraRank,
    seed: config.seed,
    maxNewTokens: config.maxNewTokens,
    renderer,
    groupSampling: tinker.groupSampling,
    ...(tinker.contextLength === undefined ? {} : { contextLength: tinker.contextLength }),
    ...(resumeFrom === undefined ? {} : { resumeFrom }),
  });
}
