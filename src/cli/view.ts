// `budgetrl view`: the runs of a store or a study folder in the browser (src/view), read-only, until Ctrl-C or
// SIGTERM (interrupt.ts). Loopback unless --host says otherwise; the API key is --api-key, else BUDGETRL_API_KEY or
// VLLM_API_KEY, as `serve`'s; a view listening beyond loopback without one says so on stderr at start.
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { isLoopbackAddress } from "../serve/api-key.js";
import { openViewSource } from "../view/source.js";
import { DEFAULT_VIEW_PORT, startViewServer } from "../view/server.js";
import { defineCommand } from "./command.js";
import { apiKeyFrom } from "./serve.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";

const schema = z.object({
  path: z
    .string()
    .min(1)
    .optional()
    .describe("a study folder (budgetrl reproduce --out DIR) or a run store; instead of --db"),
  db: z.string().min(1).optional().describe("run store: an SQLite file, or a postgres:// URL (default budgetrl.db)"),
  ...storeWaitFields,
  port: z.number().int().min(0).max(65_535).default(DEFAULT_VIEW_PORT).describe("port to listen on (0: a free one)"),
  host: z
    .string()
    .min(1)
    .default("127.0.0.1")
    .describe("address to listen on (loopback by default; 0.0.0.0 for every interface)"),
  apiKey: z
    .string()
    .min(1)
    .optional()
    .describe(
      "require this key (else BUDGETRL_API_KEY or VLLM_API_KEY when set): open the view once with ?key=KEY, or send Authorization: Bearer KEY",
    ),
});

export const viewCommand = defineCommand({
  name: "view",
  summary:
    "Browse a run store or a study folder in the browser: runs, Pass@(K,T), tasks, episodes turn by turn, runs compared.",
  description:
    "A read-only local web app (SQLite opened read-only; a PostgreSQL user with SELECT alone is enough): the runs list with search and filters (a study folder's runs grouped by seed, env and model), a run's Pass@(K,T) table and heatmap with the intervals `show` prints, its invalid replies, tasks and episodes with filters, an episode turn by turn (what the agent read, its reply, the parsed action, the oracle's verdict within the turns left; keys j and k step through the list), and runs compared on the same tasks with their episodes side by side. Everything is served by the view itself: it works offline. Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops it.",
  positionals: ["path"],
  schema,
  interruptible: true,
  examples: [
    "budgetrl view --db runs.db",
    "budgetrl view study",
    "budgetrl view --db postgres://reader@db-host/budgetrl --port 8400",
  ],
  async run(options, io, context) {
    if (options.path !== undefined && options.db !== undefined)
      throw new ConfigError("db", "give a study folder or store as the argument, or --db, not both");
    const target = options.path ?? options.db ?? "budgetrl.db";
    const apiKey = apiKeyFrom(options.apiKey, process.env);
    const source = await openViewSource(target, storeWaits("view", options, io));
    try {
      const server = await startViewServer({
        source: source,
        host: options.host,
        port: options.port,
        ...(apiKey === undefined ? {} : { apiKey }),
        log: (line) => io.stderr(`budgetrl view: ${line}\n`),
      });
      const key = apiKey === undefined ? "" : `; API key required: open ${server.url}?key=YOUR_KEY once`;
      io.stdout(`budgetrl view: ${source.label} on ${server.url}${key}; Ctrl-C stops\n`);
      if (apiKey === undefined && !isLoopbackAddress(server.host))
        io.stderr(
          `budgetrl view: warning: listening on ${server.host}, beyond this machine, without an API key: anyone who reaches the port can read every run and reply in the store; give --api-key or set BUDGETRL_API_KEY\n`,
        );
      await new Promise<void>((resolve) => {
        if (context.signal.aborted) resolve();
        else context.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      await server.close();
      io.stderr("budgetrl view: stopped\n");
      return 0;
    } finally {
      await source.store.close();
    }
  },
});
