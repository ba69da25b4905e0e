// Building the openai policy from a spec's parts: the model (`openai:MODEL`), the sampling options stored with
// the run, the client options of this invocation and the run's seed. Everything is validated here, before any
// request: a bad option throws ConfigError naming it.
import { ConfigError } from "../../core/errors.js";
import { stderrLine, type WaitListener } from "../../core/wait-notice.js";
import { defaultCacheDir, openResponseCache } from "./cache.js";
import { parseClientOptions, parseSamplingOptions, readApiKey } from "./options.js";
import { createOpenaiPolicy, type OpenaiPolicy } from "./policy.js";
import { createOpenaiTransport, type TransportSettings } from "./transport.js";

export interface OpenaiSetup {
  /** Sampling options (stored with the run): typed values or --policy-opt strings. */
  readonly options?: unknown;
  /** Client options (not stored): base URL, limits, retries, cache. */
  readonly client?: unknown;
  readonly runSeed?: number;
  /** Told of the server's outages, a line each (default: stderr). */
  readonly onWait?: WaitListener;
  /** Test hooks for the transport: clock, sleep, retry events. */
  readonly transport?: Pick<TransportSettings, "now" | "sleep" | "onRetry" | "onNotice">;
}

export function openaiPolicyFromSpec(model: string | undefined, setup: OpenaiSetup = {}): OpenaiPolicy {
  if (model === undefined || model.trim() === "")
    throw new ConfigError(
      "policy",
      "openai needs a model name, e.g. openai:Qwen/Qwen3-8B",
      "the name the server serves the model under (vLLM: --served-model-name)",
    );
  const sampling = parseSamplingOptions(setup.options);
  const client = parseClientOptions(setup.client);
  const transport = createOpenaiTransport({
    apiKey: readApiKey(client.apiKeyEnv),
    concurrency: client.concurrency,
    rpm: client.rpm,
    timeoutMs: client.timeoutMs,
    retries: client.retries,
    backoffMs: client.backoffMs,
    maxBackoffMs: client.maxBackoffMs,
    ...(client.baseUrl === undefined ? {} : { baseUrl: client.baseUrl }),
    onNotice: (notice) => (setup.onWait ?? stderrLine)(notice.message),
    ...setup.transport,
  });
  const cache = client.cache ? openResponseCache(client.cacheDir ?? defaultCacheDir()) : undefined;
  return createOpenaiPolicy({
    model,
    sampling,
    transport,
    ...(cache === undefined ? {} : { cache }),
    ...(setup.runSeed === undefined ? {} : { runSeed: setup.runSeed }),
  });
}
