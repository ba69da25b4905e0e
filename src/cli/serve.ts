// `budgetrl serve`: a checkpoint behind an OpenAI-compatible HTTP server (src/serve), until Ctrl-C or SIGTERM
// (interrupt.ts), which lets the requests in flight finish and closes every connection.
import { z } from "zod";
import { serveCheckpoint } from "../serve/serve.js";
import { serveConfigSchema } from "../serve/config.js";
import { defineCommand } from "./command.js";

const schema = serveConfigSchema.extend({
  log: z.boolean().default(false).describe("print one line per request on stderr"),
});

export const serveCommand = defineCommand({
  name: "serve",
  summary:
    "Serve a checkpoint over an OpenAI-compatible HTTP API (/v1/chat/completions, /v1/completions, /v1/models, /tokenize).",
  description:
    "Answers each conversation as --policy tiny:CKPT does: the checkpoint's context rule and answer length (policy.json), the request's seed for its first choice (a fresh seed when none is given), log-probs at temperature 1 (--logprobs-mode). Streams send tokens as they are sampled; tool calls are read from replies (--tool-call-parser) or, for tool_choice required or a named function, decoded under the tool's JSON schema; fields it cannot honour are refused with a 400 naming them (docs/serve.md). Concurrent requests are batched into the model. Point budgetrl at it with --policy openai:NAME --base-url URL (add --policy-opt seedScheme=tiny for the in-process policy's seeds). Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops it.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl serve --ckpt runs/grpo/checkpoints/step-000030 --port 8000",
    "budgetrl eval --env sokoban --policy openai:runs/grpo/checkpoints/step-000030 --base-url http://127.0.0.1:8000/v1 --policy-opt seedScheme=tiny --no-cache",
  ],
  async run(options, io, context) {
    const { log, ...config } = options;
    const serving = await serveCheckpoint(config, log ? { log: (line) => io.stderr(`${line}\n`) } : {});
    const { contextLength } = serving.model.config;
    io.stdout(
      `budgetrl serve: ${serving.name} on ${serving.url} (context ${contextLength} tokens, max_tokens ${serving.maxTokens} by default); Ctrl-C stops\n`,
    );
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await serving.close();
    const { requests } = serving.stats();
    io.stderr(`budgetrl serve: stopped after ${requests} request${requests === 1 ? "" : "s"}\n`);
    return 0;
  },
});
