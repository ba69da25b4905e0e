// `budgetrl serve` as a library call: load a checkpoint as `tiny:CKPT` does (its weights, and the answer length
// and context rule of its policy.json), and serve it over HTTP until close(). Everything is validated before the
// port is opened: a bad field, an unreadable checkpoint or a port in use is a ConfigError naming it.
import { ConfigError } from "../core/errors.js";
import { loadCheckpoint } from "../nn/checkpoint.js";
import type { TinyModel } from "../nn/model.js";
import { readPolicySettings } from "../policies/tiny/settings.js";
import { createSamplingEngine } from "./engine.js";
import { parseServeConfig } from "./config.js";
import { createReplyMemo } from "./reply-memo.js";
import { startServer, type RunningServer } from "./server.js";

export interface ServeHooks {
  /** One line per request (the CLI's --log). */
  readonly log?: (line: string) => void;
  /** Milliseconds since the epoch, for `created` (default Date.now). */
  readonly clock?: () => number;
  /** Wraps the loaded model (tests and benchmarks count or hold its calls). */
  readonly wrapModel?: (model: TinyModel) => TinyModel;
}

export interface Serving extends RunningServer {
  /** The name clients send as `model`. */
  readonly name: string;
  readonly model: TinyModel;
  /** The default answer length in use. */
  readonly maxTokens: number;
  /** Stops the server (close()) and frees the model. */
  close(): Promise<void>;
}

async function loadModel(ckpt: string): Promise<TinyModel> {
  try {
    return await loadCheckpoint(ckpt);
  } catch (error) {
    throw new ConfigError("ckpt", `cannot load checkpoint ${ckpt}: ${(error as Error).message}`);
  }
}

/** The checkpoint's policy.json (a garbled one is refused, naming --ckpt). */
function savedSettings(ckpt: string): ReturnType<typeof readPolicySettings> {
  try {
    return readPolicySettings(ckpt);
  } catch (error) {
    throw new ConfigError("ckpt", `cannot load checkpoint ${ckpt}: ${(error as Error).message}`);
  }
}

export async function serveCheckpoint(input: unknown, hooks: ServeHooks = {}): Promise<Serving> {
  const config = parseServeConfig(input);
  const saved = savedSettings(config.ckpt);
  const loaded = await loadModel(config.ckpt);
  const model = hooks.wrapModel?.(loaded) ?? loaded;
  const maxTokens = config.maxTokens ?? saved.maxNewTokens;
  const contextLength = model.config.contextLength;
  const name = config.name ?? config.ckpt;
  try {
    if (maxTokens > contextLength - 3)
      throw new ConfigError(
        "maxTokens",
        `at most ${contextLength - 3} for this checkpoint (its context is ${contextLength} tokens), got ${maxTokens}`,
      );
    const engine = createSamplingEngine(model, {
      maxQueue: config.maxQueue,
      logprobsMode: config.logprobsMode,
      maxBatch: config.maxBatch,
      sessions: config.sessions,
    });
    const chat = {
      defaultMaxTokens: maxTokens,
      cutLongMessages: config.cutLongMessages,
      toolCallParser: config.toolCallParser,
    };
    const server = await startServer({
      engine,
      model,
      chat,
      memo: createReplyMemo(config.replyMemo),
      maxQueue: config.maxQueue,
      name,
      contextLength,
      host: config.host,
      port: config.port,
      maxBodyBytes: config.maxBody,
      maxN: config.maxN,
      ...(hooks.clock === undefined ? {} : { clock: hooks.clock }),
      ...(hooks.log === undefined ? {} : { log: hooks.log }),
    }).catch((error: NodeJS.ErrnoException) => {
      throw new ConfigError(
        error.code === "EADDRINUSE" ? "port" : "host",
        `cannot listen on ${config.host}:${config.port}: ${error.message}`,
        error.code === "EADDRINUSE" ? "pick another --port, or 0 for a free one" : undefined,
      );
    });
    return {
      ...server,
      name,
      model,
      maxTokens,
      async close() {
        await server.close();
        loaded.dispose();
      },
    };
  } catch (error) {
    loaded.dispose();
    throw error;
  }
}
