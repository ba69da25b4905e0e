// `budgetrl env-server` as a library call: build the env, its tasks and the run store, then serve the env over
// OpenEnv's HTTP, WebSocket and MCP protocols until close() (env-server.ts). Everything is validated before the port
// is opened: a bad field, an env option, a held-out file or a store that cannot be opened is an error naming it.
import type { AnyEnv } from "../../core/env.js";
import { ConfigError, thrownMessage } from "../../core/errors.js";
import { packageVersion } from "../../core/package-version.js";
import { createEnv, envDefinition } from "../../envs/registry.js";
import { openStore } from "../../store/open.js";
import type { Store } from "../../store/store.js";
import type { SessionHost } from "./client-session.js";
import { parseEnvServerConfig, type EnvServerConfig } from "./config.js";
import { startEnvServer, type RunningEnvServer } from "./env-server.js";
import { createRecorder, type Recorder } from "./recorder.js";
import { serverTasks } from "./server-tasks.js";

export interface EnvServing extends RunningEnvServer {
  readonly env: AnyEnv;
  readonly config: Readonly<EnvServerConfig>;
  /** The run a reset without an episode_id prefix is stored in. */
  readonly run: string;
  /** Episodes stored so far (--db). */
  readonly stored: () => number;
}

export interface EnvServeHooks {
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
}

function defaultRun(env: string, now: Date): string {
  return `env-server-${env}-${now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15)}`;
}

/** The part every session shares. */
function sessionHost(env: AnyEnv, config: Readonly<EnvServerConfig>, recorder: Recorder): SessionHost {
  let episodes = 0;
  return {
    env,
    tasks: serverTasks(env, config),
    seed: config.seed,
    defaults: { budget: config.budget.label, mode: config.budgetMode, scope: config.budgetScope },
    reward: config.reward,
    place: (episodeId, taskIndex, label) => recorder.place(episodeId, taskIndex, label),
    record: (episode, task) => recorder.record(episode, task),
    episodeNumber: () => episodes++,
  };
}

export async function serveEnv(input: unknown, hooks: EnvServeHooks = {}): Promise<EnvServing> {
  const config = parseEnvServerConfig(input);
  const env = createEnv(config.env, config.envOptions);
  const now = hooks.now ?? (() => new Date());
  const run = config.run ?? defaultRun(env.spec.name, now());
  let store: Store | undefined;
  if (config.db !== undefined) store = await openStore(config.db, { mode: "create" });
  const recorder = createRecorder(env, config, run, store, now);
  const host = sessionHost(env, config, recorder);
  let server: RunningEnvServer;
  try {
    server = await startEnvServer(host, {
      host: config.host,
      port: config.port,
      maxSessions: config.maxSessions,
      idleTimeout: config.idleTimeout,
      ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
      summary: envDefinition(config.env).summary,
      version: packageVersion(),
      ...(hooks.log === undefined ? {} : { log: hooks.log }),
    });
  } catch (error) {
    await store?.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === "EADDRINUSE" ? "port" : "host",
      `cannot listen on ${config.host}:${config.port}: ${thrownMessage(error)}`,
      code === "EADDRINUSE" ? "pick another --port, or 0 for a free one" : undefined,
    );
  }
  return {
    ...server,
    env,
    config,
    run,
    stored: recorder.stored,
    async close() {
      await server.close();
      await recorder.finish();
      await store?.close();
    },
  };
}
