// `budgetrl sft` as a library function: demonstrations from a policy (stored as eval runs with the core
// rollout engine, one per budget mode, every task at every budget; or an existing run), then supervised training of
// a fresh model on the replies (all of them, or only the oracle-optimal ones), then a checkpoint: the "base model"
// RL starts from.
//   <out>/sft.json     the config, written when the demonstrations start: `resume` continues from it
//   <out>/demos.db     the demonstrations (eval runs "demonstrations/<mode>"), resumable like any eval run
//   <out>/budgetrl.json ... the checkpoint, written last
// Everything that can be refused (config, env, policy, more distinct tasks than the env has) is checked before
// <out> is touched, so a bad start never leaves a folder that blocks the retry. A stop signal during the
// demonstrations keeps the finished ones and rejects with a StoppedError naming the resume command (as it does at
// once while they are read back and laid out as training sequences); training never starts on an interrupted set, and a set with policy errors (or an incomplete --from-run) is trained on only after
// saying so (`onNotice`).
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sftResumeCommand } from "../core/commands.js";
import { encodeConfig } from "../core/config.js";
import { canonicalJson } from "../core/json.js";
import { checkBudgetsFit } from "../core/budget.js";
import { ConfigError, StoppedError } from "../core/errors.js";
import { folderOutputProblem } from "../core/output-path.js";
import { stopPoints } from "../core/stop-points.js";
import type { BudgetMode } from "../core/budget.js";
import type { Episode } from "../core/episode.js";
import { createEnv } from "../envs/registry.js";
import { createModel } from "../nn/model.js";
import { warmupCosine } from "../nn/schedule.js";
import { createPolicy } from "../policies/spec.js";
import { budgetsToRun, encodeEvalConfig, parseEvalConfig } from "../eval/config.js";
import { evaluate, type EvaluateOptions } from "../eval/evaluate.js";
import { evalWaitOptions } from "../eval/run-options.js";
import { taskSource } from "../eval/tasks.js";
import { readEpisodes } from "../store/episodes.js";
import { withStore, type StoreWaitOptions } from "../store/open.js";
import { getRun, loadTasks, runExists } from "../store/runs.js";
import type { TrainablePolicy, TrainSequence } from "./backend.js";
import { demonstrationSequences, trainSft } from "./sft.js";
import { parseSftConfig, sftConfigSchema, type SftConfig } from "./sft-config.js";
import { demonstratorNoise, sftTargets, type DemonstrationRun, type TargetTurns } from "./sft-targets.js";
import { tinyBackend } from "./backends/tiny/backend.js";

export interface SftRunOptions {
  readonly config: unknown;
  /** Checkpoint directory to write. */
  readonly out: string;
  /** Continue the SFT run in `out` (its stored config; `config` is ignored). */
  readonly resume?: boolean;
  /** Store of the demonstrations (default: <out>/demos.db). */
  readonly db?: string;
  /** How long a wait for the store lasts, and who hears of one that lasted a second (default: openStore's). */
  readonly storeWaits?: StoreWaitOptions;
  readonly signal?: AbortSignal;
  readonly onStep?: (step: number, total: number, stats: { readonly loss: number; readonly tokens: number }) => void;
  readonly onDemos?: (done: number, total: number) => void;
  /** Things the user must know before training starts (a partial demonstration set). */
  readonly onNotice?: (text: string) => void;
  readonly threads?: number;
}

export interface SftRunResult {
  readonly config: Readonly<SftConfig>;
  /** The runs of demos.db (or the --from-run run) the model was trained on. */
  readonly demoRuns: readonly string[];
  readonly sequences: number;
  readonly finalLoss: number;
  readonly checkpoint: string;
}

const CONFIG_FILE = "sft.json";

/** The eval run that makes the demonstrations in one budget mode. */
const demoRun = (mode: BudgetMode): string => `demonstrations/${mode}`;

/** The config of the eval run that makes the demonstrations in one budget mode. */
function demoEvalConfig(config: Readonly<SftConfig>, mode: BudgetMode) {
  return {
    env: config.env,
    envOptions: config.envOptions,
    policy: config.policy,
    tasks: config.tasks,
    samples: config.samples,
    budgets: config.budgets,
    budgetMode: mode,
    budgetScope: config.budgetScope,
    ...(config.exclude === undefined ? {} : { exclude: config.exclude }),
    seed: config.seed,
    bootstrap: 0,
  } satisfies EvaluateOptions;
}

/** Refuse now what the demonstrations would refuse later: the env and its options, the policy, the eval config,
 * more distinct tasks than the env has. */
async function checkDemonstrations(config: Readonly<SftConfig>): Promise<void> {
  const env = createEnv(config.env, config.envOptions);
  checkBudgetsFit(config.budgets, env, "budget");
  await createPolicy(config.policy);
  if (config.imitate === "bayes") demonstratorNoise(config.policy);
  for (const mode of config.budgetModes) taskSource(env, parseEvalConfig(demoEvalConfig(config, mode)));
}

/** The config to run: a new one (checked in full before <out> is touched), or the stored one on resume. */
async function startConfig(options: SftRunOptions): Promise<Readonly<SftConfig>> {
  const configPath = join(options.out, CONFIG_FILE);
  const outProblem = folderOutputProblem(options.out);
  if (outProblem !== undefined) throw new ConfigError("out", outProblem);
  if (existsSync(join(options.out, "budgetrl.json")))
    throw new ConfigError("out", `${options.out} already holds a checkpoint`, "pick another --out");
  if (options.resume === true) {
    if (!existsSync(configPath))
      throw new ConfigError(
        "out",
        `nothing to resume in ${options.out} (no ${CONFIG_FILE})`,
        "start it without --resume",
      );
    return parseSftConfig(JSON.parse(await readFile(configPath, "utf8")));
  }
  if (existsSync(configPath))
    throw new ConfigError(
      "out",
      `${options.out} holds an unfinished sft`,
      `continue it with: ${sftResumeCommand(options.out)}, or pick another --out`,
    );
  const config = parseSftConfig(options.config);
  if (config.fromRun === undefined) await checkDemonstrations(config);
  // A stored run to train on must be there before <out> is made (its store is read only).
  else {
    const record = await withStore(
      options.db ?? join(options.out, "demos.db"),
      { mode: "read", ...options.storeWaits },
      (store) => getRun(store, config.fromRun as string),
    );
    if (config.imitate === "bayes") demonstratorNoise(parseEvalConfig(record.config).policy, "fromRun");
  }
  try {
    await mkdir(options.out, { recursive: true });
    await writeFile(`${configPath}.tmp`, `${JSON.stringify(encodeConfig(sftConfigSchema, config), null, 2)}\n`);
    await rename(`${configPath}.tmp`, configPath);
  } catch (error) {
    // A folder that cannot be written (permissions, a full disk): said in one line, before any demonstration.
    throw new ConfigError("out", `cannot write ${options.out}: ${(error as Error).message}`);
  }
  return config;
}

/** True when `db` already holds demonstrations in `mode` to continue; refuses ones made with other settings. */
async function demonstrationsStarted(
  config: Readonly<SftConfig>,
  db: string,
  mode: BudgetMode,
  waits: StoreWaitOptions | undefined,
): Promise<boolean> {
  if (!existsSync(db)) return false;
  const run = demoRun(mode);
  const stored = await withStore(db, { mode: "read", ...waits }, async (store) =>
    (await runExists(store, run)) ? (await getRun(store, run)).config : undefined,
  );
  if (stored === undefined) return false;
  // Compared as read back (defaults filled in), so that a field added since they were made does not count as other.
  const made = canonicalJson(encodeEvalConfig(parseEvalConfig(stored)));
  if (made !== canonicalJson(encodeEvalConfig(parseEvalConfig(demoEvalConfig(config, mode))))) {
    throw new ConfigError(
      "out",
      `${db} holds demonstrations made with other settings than this sft`,
      "pick another --out (or --db)",
    );
  }
  return true;
}

/** Make (or finish making) the demonstrations, mode by mode; a stop keeps them and ends the SFT run before
 * training. Progress counts the episodes of every mode together. */
async function makeDemonstrations(config: Readonly<SftConfig>, db: string, options: SftRunOptions): Promise<void> {
  const modes = config.budgetModes;
  for (const [position, mode] of modes.entries()) {
    const resume = await demonstrationsStarted(config, db, mode, options.storeWaits);
    const result = await evaluate({
      ...demoEvalConfig(config, mode),
      ...evalWaitOptions(options.storeWaits),
      db,
      run: demoRun(mode),
      resume,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onDemos === undefined
        ? {}
        : {
            onProgress: (done: number, total: number) =>
              options.onDemos?.(position * total + done, modes.length * total),
          }),
    });
    if (result.interrupted)
      throw new StoppedError(
        `stopped after ${position * result.total + result.done}/${modes.length * result.total} demonstrations (kept in ${db}); continue with: ${sftResumeCommand(options.out)}`,
      );
    if (result.errors > 0)
      options.onNotice?.(
        `training on ${result.done} of ${result.total} ${mode} demonstrations: ${result.errors} ended in a policy error${result.firstError === undefined ? "" : ` (first: ${result.firstError})`}`,
      );
  }
}

/** The hf:DIR renderer that lays the demonstrations out (loaded only for one), its ids checked against the model. */
async function hfLayout(
  config: Readonly<SftConfig>,
  model: { readonly contextLength: number; readonly vocabSize: number },
): Promise<Pick<TrainablePolicy, "episodeSequences" | "responseTokens">> {
  const { openRenderer } = await import("../policies/renderers/renderer.js");
  const renderer = openRenderer(config.renderer, config.maxNewTokens, {
    templateOptions: config.templateOptions,
    toolCallFormat: config.toolCallFormat,
  })(model.contextLength);
  const check = (tokens: readonly number[]): readonly number[] => {
    const bad = tokens.find((token) => token >= model.vocabSize);
    if (bad !== undefined)
      throw new ConfigError(
        "renderer",
        `${config.renderer} writes token ${bad}, beyond the model's vocabulary (${model.vocabSize} ids)`,
        "give the model a vocabulary as large as the tokenizer's (--model vocabSize=N)",
      );
    return tokens;
  };
  return {
    episodeSequences: (episode, replies) =>
      renderer.episodeSequences(episode, replies).map((sequence) => ({ ...sequence, tokens: check(sequence.tokens) })),
    responseTokens: (reply) => [...check(renderer.responseTokens(reply))],
  };
}

export async function runSft(options: SftRunOptions): Promise<SftRunResult> {
  const config = await startConfig(options);
  const db = options.db ?? join(options.out, "demos.db");
  const runs = config.fromRun === undefined ? config.budgetModes.map(demoRun) : [config.fromRun];
  if (config.fromRun === undefined) await makeDemonstrations(config, db, options);
  // Reading the demonstrations back and laying them out as sequences takes seconds for thousands of them: both
  // stop at once on the signal (stop points), and so does everything up to the first training step.
  const stopPoint = stopPoints(
    options.signal,
    () =>
      new StoppedError(
        `stopped before SFT training (the demonstrations are kept); continue with: ${sftResumeCommand(options.out)}`,
      ),
  );
  const demonstrations: { readonly episodes: readonly Episode[]; readonly targets: TargetTurns }[] = [];
  for (const run of runs) {
    const read = await readDemonstrations(
      db,
      run,
      config.fromRun === run ? options.onNotice : undefined,
      stopPoint,
      options.storeWaits,
    );
    demonstrations.push({ episodes: read.episodes, targets: sftTargets(config.imitate, read.run) });
  }
  const episodes = demonstrations.flatMap((set) => set.episodes);
  await stopPoint();
  const model = await createModel({
    config: config.modelConfig,
    seed: config.seed,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
  });
  const hf = config.renderer !== "bytes";
  const backend = tinyBackend({
    model,
    policy: { maxNewTokens: config.maxNewTokens },
    ...(hf
      ? {
          rendering: {
            renderer: config.renderer,
            templateOptions: config.templateOptions,
            toolCallFormat: config.toolCallFormat,
          },
        }
      : {}),
  });
  try {
    const layout = hf ? await hfLayout(config, model.config) : backend.policy();
    const sequences: TrainSequence[] = [];
    for (const { episodes: runEpisodes, targets } of demonstrations)
      for (const episode of runEpisodes) {
        sequences.push(...demonstrationSequences([episode], layout, targets));
        await stopPoint();
      }
    // A demonstrated reply longer than the policy's replies (maxNewTokens) can make its sequence longer than the
    // model's context (a BFCL call list): such a sequence is one the policy could never have sampled, left out.
    const tooLong = sequences.length;
    sequences.splice(
      0,
      sequences.length,
      ...sequences.filter((sequence) => sequence.tokens.length <= model.config.contextLength),
    );
    if (sequences.length < tooLong)
      options.onNotice?.(
        `${tooLong - sequences.length} of ${tooLong} demonstration sequences are longer than the model's context (${model.config.contextLength} tokens: a demonstrated reply longer than maxNewTokens ${config.maxNewTokens}) and were left out`,
      );
    if (sequences.length === 0)
      throw new ConfigError(
        "imitate",
        `no demonstrated reply is a training target (imitate ${config.imitate}, ${episodes.length} episodes)`,
        config.imitate !== "all"
          ? "the demonstrations need oracle annotations (an env with an oracle) and some optimal replies"
          : "the demonstrations are empty",
      );
    let finalLoss = NaN;
    await stopPoint();
    await trainSft(backend, sequences, {
      steps: config.steps,
      batchSize: config.batchSize,
      seed: config.seed,
      learningRate: warmupCosine({
        peak: config.learningRate,
        warmupSteps: Math.min(config.warmupSteps, config.steps),
        totalSteps: config.steps,
        minRatio: 0.1,
      }),
      onStep: (step, stats) => {
        finalLoss = stats.loss;
        options.onStep?.(step, config.steps, stats);
        if (options.signal?.aborted === true && step + 1 < config.steps)
          throw new StoppedError(
            `stopped at SFT step ${step + 1}/${config.steps} (the demonstrations are kept); continue with: ${sftResumeCommand(options.out)}`,
          );
      },
    });
    await backend.save(options.out);
    return { config, demoRuns: runs, sequences: sequences.length, finalLoss, checkpoint: options.out };
  } finally {
    backend.dispose();
  }
}

/** The demonstrations of a stored run (policy errors left out) and the run they belong to; an incomplete
 * --from-run run is used only after saying so (`onNotice`, given for such runs only). */
async function readDemonstrations(
  db: string,
  run: string,
  onNotice: ((text: string) => void) | undefined,
  stopPoint: () => Promise<void>,
  waits: StoreWaitOptions | undefined,
): Promise<{ readonly episodes: Episode[]; readonly run: DemonstrationRun }> {
  return withStore(db, { mode: "read", ...waits }, async (store) => {
    const record = await getRun(store, run);
    const tasks = new Map((await loadTasks(store, run)).map((task) => [task.index, task]));
    const taskIds = new Map([...tasks].map(([index, task]) => [index, task.id]));
    const episodes: Episode[] = [];
    for await (const episode of readEpisodes(store, run, record.env, taskIds)) {
      episodes.push(episode);
      await stopPoint();
    }
    const usable = episodes.filter((episode) => episode.stopReason !== "error");
    if (record.status !== "complete")
      onNotice?.(`run ${run} in ${db} is not complete: training on the ${usable.length} demonstrations it holds`);
    const config = parseEvalConfig(record.config);
    const demonstrationRun: DemonstrationRun = {
      env: createEnv(record.env, config.envOptions),
      policy: config.policy,
      budgets: budgetsToRun(config),
      scope: config.budgetScope,
      tasks,
    };
    return { episodes: usable, run: demonstrationRun };
  });
}
