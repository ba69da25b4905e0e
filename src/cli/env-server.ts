// `budgetrl env-server`: a budgetrl env served over OpenEnv's protocol (src/serve/openenv/), until Ctrl-C or SIGTERM
// (interrupt.ts), which closes every session and waits for the episodes being stored. The API key is --api-key, else
// the environment's BUDGETRL_API_KEY; a server listening beyond loopback without one says so on stderr at start.
import { z } from "zod";
import { isLoopbackAddress } from "../serve/api-key.js";
import { envServerConfigSchema } from "../serve/openenv/config.js";
import { serveEnv } from "../serve/openenv/serve-env.js";
import { defineCommand } from "./command.js";
import { keyValues } from "./key-values.js";
import { apiKeyFrom } from "./serve.js";

const { envOptions: _envOptions, ...fields } = envServerConfigSchema.shape;

const schema = z.object({
  ...fields,
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE, e.g. --env-opt locks=4"),
});

export const envServerCommand = defineCommand({
  name: "env-server",
  summary:
    "Serve an env over OpenEnv's protocol (HTTP, WebSocket /ws, MCP for bfcl), for trainers that meet envs through OpenEnv (TRL, Unsloth, torchforge, SkyRL).",
  description:
    "Answers as OpenEnv's HTTPEnvServer does: GET /health, /metadata, /schema, /state, POST /reset, /step, /mcp, and the WebSocket /ws (one session per connection: reset, step, state, close, mcp). A reset takes OpenEnv's seed and episode_id and budgetrl's task (index or id), budget (7, 50%, 1.25x), budget_mode and budget_scope, so a trainer draws a budget per group; without them the server's --budget, --budget-mode and --budget-scope. The observation is the text the agent reads (with the budget sentence), the turn, the turns left (not when hidden) and, per step, the success reward (--reward process adds the budget-aware oracle's success-probability change and the optimal-action flag in metadata). Text envs take {\"message\": \"<reply>\"}; bfcl takes OpenEnv's call_tool and list_tools, or a message with tool_calls. With --db every episode played is stored as a run (runs, show, export, report read it). Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops it (docs/openenv.md).",
  schema,
  interruptible: true,
  examples: [
    "budgetrl env-server --env vault --port 8001",
    "budgetrl env-server --env thinice --budget 1.5x --budget-mode remaining --reward process --db trl-rollouts.db",
    "budgetrl env-server --env bfcl --env-opt categories=base --budget-scope user-turn --max-sessions 128",
    "budgetrl env-server --env vault --exclude study/held-out.json --host 0.0.0.0 --api-key $KEY",
  ],
  async run(options, io, context) {
    const { envOpt, apiKey: flagKey, ...config } = options;
    const apiKey = apiKeyFrom(flagKey, process.env);
    const serving = await serveEnv({
      ...config,
      envOptions: keyValues(envOpt, "--env-opt"),
      ...(apiKey === undefined ? {} : { apiKey }),
    });
    const stored =
      serving.config.db === undefined ? "" : `, episodes stored in run ${serving.run} of ${serving.config.db}`;
    io.stdout(
      `budgetrl env-server: ${serving.env.spec.name} on ${serving.url} (OpenEnv: /ws, /reset, /step, /schema${serving.env.actions.message === undefined ? "" : ", /mcp"}; budget ${serving.config.budget.label} ${serving.config.budgetMode}, reward ${serving.config.reward}, at most ${serving.config.maxSessions} sessions${apiKey === undefined ? "" : ", API key required"}${stored}); Ctrl-C stops\n`,
    );
    if (apiKey === undefined && !isLoopbackAddress(serving.host))
      io.stderr(
        `budgetrl env-server: warning: listening on ${serving.host}, beyond this machine, without an API key: anyone who reaches the port can play the env and write to the store; give --api-key or set BUDGETRL_API_KEY\n`,
      );
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    const { steps, peakSessions } = serving.stats();
    await serving.close();
    io.stderr(
      `budgetrl env-server: stopped after ${steps} step${steps === 1 ? "" : "s"} (at most ${peakSessions} session${peakSessions === 1 ? "" : "s"} at once)${serving.config.db === undefined ? "" : `, ${serving.stored()} episodes stored`}\n`,
    );
    return 0;
  },
});
