// `budgetrl sft`: the supervised warm start that makes a base model from demonstrations of a policy.
import { z } from "zod";
import { sftConfigSchema } from "../rl/sft-config.js";
import { runSft } from "../rl/sft-run.js";
import { defineCommand } from "./command.js";
import { keyNumbers, keyValues } from "./key-values.js";
import { createProgress } from "./progress.js";

const schema = sftConfigSchema.omit({ envOptions: true, modelConfig: true }).extend({
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  model: z.array(z.string()).default([]).describe("model config KEY=NUMBER (layers, dModel, heads, hiddenSize, contextLength)"),
  db: z.string().optional().describe("store of the demonstrations (default <out>/demos.db; with --from-run, the store holding that run)"),
  out: z.string().describe("checkpoint folder to write"),
  progress: z.boolean().default(true).describe("show progress bars on stderr"),
});

export const sftCommand = defineCommand({
  name: "sft",
  summary: "Make a base model: supervised training of the in-process transformer on a policy's demonstrations.",
  description: "Demonstrations come from --policy (stored in <out>/demos.db) or from a stored run (--from-run RUN --db FILE). Only the policy's own reply tokens are trained; observations are masked out.",
  schema,
  examples: ["budgetrl sft --env sokoban --policy noisy-oracle:0.3 --tasks 500 --steps 300 --out base.ckpt"],
  async run(options, io) {
    const { envOpt, model, db, out, progress, ...rest } = options;
    let demos: ReturnType<typeof createProgress> | undefined;
    let steps: ReturnType<typeof createProgress> | undefined;
    const result = await runSft({
      config: { ...rest, envOptions: keyValues(envOpt, "--env-opt"), modelConfig: keyNumbers(model, "--model") },
      out,
      ...(db === undefined ? {} : { db }),
      onDemos: (done, total) => {
        if (!progress) return;
        demos ??= createProgress({ label: "demos", total, interactive: io.interactive, write: io.stderr });
        demos.update(done);
        if (done === total) demos.finish();
      },
      onStep: (step, total, stats) => {
        if (progress) {
          steps ??= createProgress({ label: "sft", total, unit: "steps", interactive: io.interactive, write: io.stderr });
          steps.update(step + 1);
        }
        if ((step + 1) % 25 === 0 || step + 1 === total) io.stdout(`sft step ${step + 1}/${total} | loss ${stats.loss.toFixed(4)} | ${stats.tokens} tokens\n`);
      },
    });
    steps?.finish();
    io.stdout(`trained on ${result.sequences} reply sequences of run ${result.demoRun}; final loss ${result.finalLoss.toFixed(4)}; checkpoint ${result.checkpoint}\n`);
    return 0;
  },
});
