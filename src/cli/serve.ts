// `budgetrl serve`: a checkpoint behind an OpenAI-compatible HTTP server (src/serve), until Ctrl-C or SIGTERM
// (interrupt.ts), which lets the requests in flight finish and closes every connection. Warnings (fields a request
// had that serve ignored) go to stderr; --log adds a line per request. The API key is --api-key, else the
// environment's BUDGETRL_API_KEY, else VLLM_API_KEY (vLLM's variable); a server listening beyond loopback without
// one says so on stderr at start.
import { z } from "zod";
import { isLoopbackAddress } from "../serve/api-key.js";
import { serveCheckpoint } from "../serve/serve.js";
import { serveConfigSchema } from "../serve/config.js";
import { defineCommand } from "./command.js";
import { keyJsonValues } from "./key-values.js";

const { templateOptions: _templateOptions, ...fields } = serveConfigSchema.shape;

const schema = z.object({
  ...fields,
  templateOpt: z
    .array(z.string())
    .default([])
    .describe(
      "hf renderer: chat-template variable KEY=VALUE, VALUE read as JSON when it is JSON, else as text (enable_thinking=false); over the checkpoint's",
    ),
  log: z.boolean().default(false).describe("print one line per request on stderr"),
});

/** The key from the flag, else from the environment (an empty variable counts as unset). */
export function apiKeyFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = [env["BUDGETRL_API_KEY"], env["VLLM_API_KEY"]].find((value) => value !== undefined && value !== "");
  return flag ?? fromEnv;
}

export const serveCommand = defineCommand({
  name: "serve",
  summary:
    "Serve a checkpoint over an OpenAI-compatible HTTP API, as vLLM serves a model (/v1/chat/completions, /v1/completions, /v1/models, /tokenize, /metrics).",
  description:
    "Answers as vLLM does: the whole conversation rendered (the tiny policy's bytes, or with --renderer hf:DIR a model's own chat template and tokenizer, by default the renderer the checkpoint was trained with), max_tokens the rest of the context unless asked, vLLM's 400 for a prompt over the context, the request's seed for its first choice (a fresh seed when none is given), log-probs at temperature 1 (--logprobs-mode). Sampling takes temperature, top_p, top_k, min_p, penalties and logit_bias; structured outputs (response_format json_object and json_schema, vLLM's structured_outputs and guided_json / guided_choice) and tool_choice required or a named function are decoded under their JSON schema; tool calls are read from replies and streamed as they are written. Fields it does not know are ignored with a warning (--strict refuses them); fields it cannot honour are refused with a 400 naming them (docs/serve.md). Concurrent requests are batched into the model. --context-rule tiny answers as --policy tiny:CKPT does, for --policy openai:NAME --base-url URL --policy-opt seedScheme=tiny. Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops it.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl serve --ckpt runs/grpo/checkpoints/step-000030 --port 8000",
    "budgetrl serve --ckpt runs/sft-qwen/checkpoint --renderer hf:models/qwen3 --template-opt enable_thinking=false",
    "budgetrl serve --ckpt runs/grpo/checkpoints/step-000030 --context-rule tiny --name grpo",
    "budgetrl eval --env sokoban --policy openai:grpo --base-url http://127.0.0.1:8000/v1 --policy-opt seedScheme=tiny --no-cache",
  ],
  async run(options, io, context) {
    const { log, templateOpt, apiKey: flagKey, ...config } = options;
    const apiKey = apiKeyFrom(flagKey, process.env);
    const serving = await serveCheckpoint(
      {
        ...config,
        ...(apiKey === undefined ? {} : { apiKey }),
        templateOptions: keyJsonValues(templateOpt, "--template-opt"),
      },
      {
        warn: (line) => io.stderr(`budgetrl serve: warning: ${line}\n`),
        ...(log ? { log: (line: string) => io.stderr(`${line}\n`) } : {}),
      },
    );
    const { contextLength } = serving.model.config;
    const answer = serving.maxTokens === undefined ? "the rest of the context" : `${serving.maxTokens}`;
    io.stdout(
      `budgetrl serve: ${serving.name} on ${serving.url} (context ${contextLength} tokens, max_tokens ${answer} by default, renderer ${serving.renderer}${apiKey === undefined ? "" : ", API key required"}); Ctrl-C stops\n`,
    );
    if (apiKey === undefined && !isLoopbackAddress(serving.host))
      io.stderr(
        `budgetrl serve: warning: listening on ${serving.host}, beyond this machine, without an API key: anyone who reaches the port can use the model; give --api-key or set BUDGETRL_API_KEY\n`,
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
