// `budgetrl sft`: the supervised warm start that makes a base model from demonstrations of a policy. Ctrl-C keeps
// the demonstrations made so far; `budgetrl sft --out DIR --resume` continues them, then trains.
import { z } from "zod";
import { sftConfigSchema } from "../rl/sft-config.js";
import { runSft } from "../rl/sft-run.js";
import { defineCommand } from "./command.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";
import { keyJsonValues, keyValues, modelOverrides } from "./key-values.js";
import { createProgress } from "./progress.js";
import { reportIgnoredOnResume } from "./resume-flags.js";

const schema = sftConfigSchema.omit({ envOptions: true, modelConfig: true, templateOptions: true }).extend({
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  templateOpt: z
    .array(z.string())
    .default([])
    .describe("hf renderer: chat-template variable KEY=VALUE, VALUE read as JSON when it is JSON, else as text"),
  model: z
    .array(z.string())
    .default([])
    .describe("model config KEY=NUMBER (layers, dModel, heads, hiddenSize, contextLength)"),
  db: z
    .string()
    .optional()
    .describe("store of the demonstrations (default <out>/demos.db; with --from-run, the store holding that run)"),
  out: z.string().describe("checkpoint folder to write"),
  resume: z
    .boolean()
    .default(false)
    .describe("continue the sft in --out (its demonstrations, then the training) with its stored config"),
  progress: z.boolean().default(true).describe("show progress bars on stderr"),
  ...storeWaitFields,
});

export const sftCommand = defineCommand({
  name: "sft",
  summary: "Make a base model: supervised training of the in-process transformer on a policy's demonstrations.",
  description:
    "Demonstrations come from --policy (stored in <out>/demos.db) or from a stored run (--from-run RUN --db FILE). Only the policy's own reply tokens are trained; observations are masked out. Interrupt with Ctrl-C (the demonstrations made are kept) and continue with --resume.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl sft --env sokoban --policy noisy-oracle:0.3 --tasks 500 --steps 300 --out base.ckpt",
    "budgetrl sft --out base.ckpt --resume",
  ],
  async run(options, io, context) {
    const { envOpt, model, templateOpt, db, out, resume, progress, busyTimeout, reconnectTimeout, ...rest } = options;
    if (resume)
      reportIgnoredOnResume(io, "sft", context.given, [
        "out",
        "resume",
        "progress",
        "db",
        "busyTimeout",
        "reconnectTimeout",
      ]);
    let demos: ReturnType<typeof createProgress> | undefined;
    let steps: ReturnType<typeof createProgress> | undefined;
    const result = await runSft({
      config: {
        ...rest,
        envOptions: keyValues(envOpt, "--env-opt"),
        modelConfig: modelOverrides(model),
        templateOptions: keyJsonValues(templateOpt, "--template-opt"),
      },
      out,
      resume,
      signal: context.signal,
      storeWaits: storeWaits("sft", { busyTimeout, reconnectTimeout }, io),
      ...(db === undefined ? {} : { db }),
      onNotice: (text) => io.stderr(`budgetrl sft: ${text}\n`),
      onDemos: (done, total) => {
        if (!progress) return;
        demos ??= createProgress({
          label: "demos",
          total,
          initial: done,
          interactive: io.interactive,
          write: io.stderr,
        });
        demos.update(done);
        if (done === total) demos.finish();
      },
      onStep: (step, total, stats) => {
        if (progress) {
          steps ??= createProgress({
            label: "sft",
            total,
            unit: "steps",
            interactive: io.interactive,
            write: io.stderr,
          });
          steps.update(step + 1);
        }
        if ((step + 1) % 25 === 0 || step + 1 === total)
          io.stdout(`sft step ${step + 1}/${total} | loss ${stats.loss.toFixed(4)} | ${stats.tokens} tokens\n`);
      },
    });
    steps?.finish();
    io.stdout(
      `trained on ${result.sequences} reply sequences of ${result.demoRuns.length === 1 ? "run" : "runs"} ${result.demoRuns.join(", ")}; final loss ${result.finalLoss.toFixed(4)}; checkpoint ${result.checkpoint}\n`,
    );
    return 0;
  },
});
