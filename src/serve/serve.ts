// `budgetrl serve` as a library call: load a checkpoint (its weights, and the answer length and renderer recorded
// in its policy.json), and serve it over HTTP until close(). Everything is validated before the port is opened: a
// bad field, an unreadable checkpoint, a renderer that does not fit the model or a port in use is a ConfigError
// naming it.
//
// The renderer: --renderer, else the one the checkpoint records (`budgetrl sft --renderer hf:DIR` records it, with
// its template options and tool-call format, which --template-opt and --tool-call-format override), else bytes.
import { ConfigError, thrownMessage } from "../core/errors.js";
import { loadCheckpoint } from "../nn/checkpoint.js";
import type { TinyModel } from "../nn/model.js";
import { readPolicySettings, type PolicySettings } from "../policies/tiny/settings.js";
import { hfRendererDir } from "../policies/renderers/hf-files.js";
import { TOOL_CALL_OPTIONS, type TemplateOptions, type ToolCallOption } from "../policies/renderers/hf-options.js";
import { createSamplingEngine } from "./engine.js";
import { parseServeConfig, type ServeConfig } from "./config.js";
import { byteRenderer, type ChatRenderer } from "./renderer.js";
import { createReplyMemo } from "./reply-memo.js";
import { startServer, type RunningServer } from "./server.js";

export interface ServeHooks {
  /** One line per request (the CLI's --log). */
  readonly log?: (line: string) => void;
  /** Warning lines (fields ignored); default: the log. */
  readonly warn?: (line: string) => void;
  /** Milliseconds since the epoch, for `created` (default Date.now). */
  readonly clock?: () => number;
  /** Random ids of responses and tool calls (default: node:crypto). */
  readonly newId?: () => string;
  /** Wraps the loaded model (tests and benchmarks count or hold its calls). */
  readonly wrapModel?: (model: TinyModel) => TinyModel;
}

export interface Serving extends RunningServer {
  /** The name clients send as `model`. */
  readonly name: string;
  readonly model: TinyModel;
  /** The default answer length in use (undefined: the rest of the context). */
  readonly maxTokens: number | undefined;
  /** The renderer in use: "bytes" or "hf:DIR". */
  readonly renderer: string;
  /** Stops the server (close()) and frees the model. */
  close(): Promise<void>;
}

async function loadModel(ckpt: string): Promise<TinyModel> {
  try {
    return await loadCheckpoint(ckpt);
  } catch (error) {
    throw new ConfigError("ckpt", `cannot load checkpoint ${ckpt}: ${thrownMessage(error)}`);
  }
}

/** The checkpoint's policy.json (a garbled one is refused, naming --ckpt). */
function savedSettings(ckpt: string): PolicySettings {
  try {
    return readPolicySettings(ckpt);
  } catch (error) {
    throw new ConfigError("ckpt", `cannot load checkpoint ${ckpt}: ${thrownMessage(error)}`);
  }
}

/** The renderer of the config or the checkpoint, for the model. */
async function openRenderer(
  config: Readonly<ServeConfig>,
  saved: PolicySettings,
  model: TinyModel,
): Promise<ChatRenderer> {
  const name = config.renderer ?? saved.renderer ?? "bytes";
  const dir = hfRendererDir(name);
  const templated = Object.keys(config.templateOptions).length > 0 || config.toolCallFormat !== undefined;
  if (dir === undefined) {
    if (name !== "bytes") throw new ConfigError("renderer", `unknown renderer "${name}": expected bytes or hf:DIR`);
    if (templated)
      throw new ConfigError(
        "templateOptions",
        "is read by --renderer hf:DIR only",
        "the bytes renderer has no chat template: drop --template-opt and --tool-call-format",
      );
    return byteRenderer({
      contextLength: model.config.contextLength,
      vocabSize: model.config.vocabSize,
      memo: createReplyMemo(config.replyMemo),
      toolCallFormat: config.toolCallParser,
      cutLongMessages: config.cutLongMessages,
    });
  }
  const savedFormat = (TOOL_CALL_OPTIONS as readonly string[]).includes(saved.toolCallFormat ?? "")
    ? (saved.toolCallFormat as ToolCallOption)
    : undefined;
  const options = {
    templateOptions: {
      ...(name === saved.renderer ? saved.templateOptions : {}),
      ...config.templateOptions,
    } as TemplateOptions,
    toolCallFormat: config.toolCallFormat ?? (name === saved.renderer ? savedFormat : undefined) ?? "auto",
  };
  // Loaded here: the Hugging Face tokenizer and template packages are only for an hf renderer.
  const { hfChatRenderer } = await import("./hf-chat-renderer.js");
  return hfChatRenderer(name, dir, options, model.config);
}

export async function serveCheckpoint(input: unknown, hooks: ServeHooks = {}): Promise<Serving> {
  const config = parseServeConfig(input);
  const saved = savedSettings(config.ckpt);
  const loaded = await loadModel(config.ckpt);
  const model = hooks.wrapModel?.(loaded) ?? loaded;
  const contextLength = model.config.contextLength;
  const maxTokens = config.contextRule === "tiny" ? (config.maxTokens ?? saved.maxNewTokens) : config.maxTokens;
  const name = config.name ?? config.ckpt;
  try {
    if (maxTokens !== undefined && maxTokens > contextLength - 3)
      throw new ConfigError(
        "maxTokens",
        `at most ${contextLength - 3} for this checkpoint (its context is ${contextLength} tokens), got ${maxTokens}`,
      );
    const renderer = await openRenderer(config, saved, model);
    const engine = createSamplingEngine(model, {
      maxQueue: config.maxQueue,
      logprobsMode: config.logprobsMode,
      maxBatch: config.maxBatch,
      sessions: config.sessions,
    });
    const server = await startServer({
      engine,
      model,
      chat: { contextRule: config.contextRule, defaultMaxTokens: maxTokens },
      renderer,
      maxQueue: config.maxQueue,
      name,
      contextLength,
      host: config.host,
      port: config.port,
      maxBodyBytes: config.maxRequestBytes,
      ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
      maxN: config.maxN,
      strict: config.strict,
      ...(hooks.clock === undefined ? {} : { clock: hooks.clock }),
      ...(hooks.newId === undefined ? {} : { newId: hooks.newId }),
      ...(hooks.log === undefined ? {} : { log: hooks.log }),
      ...(hooks.warn === undefined ? {} : { warn: hooks.warn }),
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
      renderer: renderer.name,
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
