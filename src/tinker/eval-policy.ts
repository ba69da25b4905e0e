// A tinker: policy put together (loaded by policy-kind.ts when one is made, with the heavy modules: the renderers,
// the client and its wire format): the renderer read at once (a bad hf:DIR fails before any request), the client of
// the service with this invocation's reach, the response cache when it is on, and the sampler policy, whose session
// opens on its first turn (sampler-policy.ts).
import type { Policy } from "../core/policy.js";
import { stderrLine, type WaitListener } from "../core/wait-notice.js";
import { defaultCacheDir, openResponseCache } from "../policies/openai/cache.js";
import type { ClientOptions } from "../policies/openai/options.js";
import { DEFAULT_MAX_NEW_TOKENS } from "../policies/tiny/context.js";
import { createTinkerClient, type TinkerClientOptions, type TinkerNotice } from "./client.js";
import type { TemplateOptions, ToolCallOption } from "../policies/renderers/hf-options.js";
import { openRenderer } from "../policies/renderers/renderer.js";
import { openTinkerSamplerPolicy, type TinkerSamplerSource } from "./sampler-policy.js";

export interface TinkerEvalRequest {
  readonly name: string;
  readonly source: TinkerSamplerSource;
  /** The stored options (policy-kind.ts: tinkerPolicyOptionsSchema), defaults filled in. */
  readonly options: {
    readonly renderer: string;
    readonly templateOptions: TemplateOptions;
    readonly toolCallFormat: ToolCallOption;
    readonly temperature: number;
    readonly maxNewTokens?: number | undefined;
    readonly contextLength?: number | undefined;
  };
  /** This invocation's client options: concurrency and the cache. */
  readonly client: Pick<ClientOptions, "concurrency" | "cache" | "cacheDir">;
  /** How the service is reached (URL, key, timeout, deadline, a stop signal); notices go to stderr unless onNotice. */
  readonly reach: TinkerClientOptions;
  /** Told of the service's outages and warnings, a line each, unless reach.onNotice is given (default: stderr). */
  readonly onWait?: WaitListener;
}

export function openTinkerEvalPolicy(request: TinkerEvalRequest): Policy {
  const { source, options, client } = request;
  const checkpoint = "checkpoint" in source ? source.checkpoint : undefined;
  const maxNewTokens = options.maxNewTokens ?? checkpoint?.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS;
  const renderer = openRenderer(options.renderer, maxNewTokens, {
    templateOptions: options.templateOptions,
    toolCallFormat: options.toolCallFormat,
  });
  const say = request.onWait ?? stderrLine;
  const tinker = createTinkerClient({ onNotice: (notice: TinkerNotice) => say(notice.message), ...request.reach });
  const cache = client.cache ? openResponseCache(client.cacheDir ?? defaultCacheDir()) : undefined;
  return openTinkerSamplerPolicy({
    client: tinker,
    source,
    name: request.name,
    renderer,
    maxNewTokens,
    temperature: options.temperature,
    concurrency: client.concurrency,
    ...(options.contextLength === undefined ? {} : { contextLength: options.contextLength }),
    ...(cache === undefined ? {} : { cache }),
  });
}
