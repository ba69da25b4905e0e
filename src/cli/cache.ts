// `budgetrl cache clear` and `budgetrl cache info`: the openai policy's on-disk response cache (see
// src/policies/openai/cache.ts for what is cached and under which key).
import { z } from "zod";
import { cacheSummary, clearResponseCache, defaultCacheDir } from "../policies/openai/cache.js";
import { defineCommand } from "./command.js";

const cacheField = z
  .string()
  .optional()
  .describe("cache folder (default: $BUDGETRL_CACHE_DIR, else $XDG_CACHE_HOME/budgetrl, else ~/.cache/budgetrl)");

export const cacheClearCommand = defineCommand({
  name: "cache clear",
  summary: "Remove the cached model responses (all models, or one with --model).",
  schema: z.object({
    cache: cacheField,
    model: z.string().optional().describe("only this model's responses (the MODEL of openai:MODEL)"),
  }),
  examples: ["budgetrl cache clear", "budgetrl cache clear --cache runs/cache --model Qwen/Qwen3-8B"],
  async run(options, io) {
    const dir = options.cache ?? defaultCacheDir();
    const removed = clearResponseCache(dir, options.model);
    io.stdout(
      `removed ${removed} cached response${removed === 1 ? "" : "s"}${options.model === undefined ? "" : ` of ${options.model}`} from ${dir}\n`,
    );
    return 0;
  },
});

export const cacheInfoCommand = defineCommand({
  name: "cache info",
  summary: "Show where the response cache is and how many responses it holds per model.",
  schema: z.object({ cache: cacheField }),
  async run(options, io) {
    const dir = options.cache ?? defaultCacheDir();
    const rows = cacheSummary(dir);
    io.stdout(
      `${dir}\n${rows.length === 0 ? "no cached responses\n" : rows.map((row) => `${row.model}\t${row.responses}\n`).join("")}`,
    );
    return 0;
  },
});
