// What a training step logs (to the store's training log, and to the terminal): the rollouts' reward, success,
// turns and invalid actions; the update's loss, clip fraction, KL, entropy and gradient norm; tokens and time.
import type { Episode } from "../core/episode.js";
import { mean } from "./advantages/stats.js";
import type { UpdateStats } from "./update.js";

// A type, not an interface: its fields are JSON, so that the training log stores it as it is.
export type StepMetrics = {
  readonly step: number;
  readonly reward: number;
  readonly success: number;
  readonly turns: number;
  readonly invalid: number;
  readonly loss: number;
  readonly clipFraction: number;
  readonly kl: number;
  readonly entropy: number;
  readonly gradNorm: number;
  readonly learningRate: number;
  readonly tokens: number;
  readonly tokensPerSecond: number;
  /** Every token the model ran: prompt tokens prefilled, replies decoded, sequences trained (times epochs) and scored. */
  readonly processedTokens: number;
  readonly zeroGradientGroups: number;
  readonly groups: number;
  readonly seconds: number;
  /** Of `seconds`: the rollouts (sampling and env steps), then advantages and the policy update. */
  readonly generateSeconds: number;
  readonly updateSeconds: number;
  /** Ids of the step's training tasks (the report counts how many held-out tasks training saw: none). */
  readonly taskIds: readonly string[];
};

/** The update of a step whose groups all gave zero advantages: nothing trained. */
export const NO_UPDATE: UpdateStats = {
  loss: 0,
  clipFraction: 0,
  kl: 0,
  entropy: 0,
  gradNorm: 0,
  tokens: 0,
  updates: 0,
};

/** When the step started, its rollouts ended and it ended (performance.now() milliseconds). */
export interface StepTimes {
  readonly started: number;
  readonly generated: number;
  readonly ended: number;
}

/** What a step did, as logged. */
export interface StepRecord {
  readonly step: number;
  readonly learningRate: number;
  readonly groups: readonly (readonly Episode[])[];
  readonly zeroGradientGroups: number;
  readonly update: UpdateStats;
  /** Tokens the backend processed during the step. */
  readonly processedTokens: number;
  readonly times: StepTimes;
}

export function stepMetrics(record: StepRecord): StepMetrics {
  const { groups, update, times } = record;
  const episodes = groups.flat();
  const sampledTokens = episodes.reduce(
    (sum, episode) => sum + episode.turns.reduce((inner, turn) => inner + (turn.tokens?.length ?? 0), 0),
    0,
  );
  const seconds = (times.ended - times.started) / 1000;
  return {
    step: record.step,
    reward: mean(episodes.map((episode) => episode.return)),
    success: mean(episodes.map((episode) => (episode.success ? 1 : 0))),
    turns: mean(episodes.map((episode) => episode.turnsUsed)),
    invalid: mean(episodes.flatMap((episode) => episode.turns.map((turn) => (turn.invalid ? 1 : 0)))),
    loss: update.loss,
    clipFraction: update.clipFraction,
    kl: update.kl,
    entropy: update.entropy,
    gradNorm: update.gradNorm,
    learningRate: record.learningRate,
    tokens: sampledTokens + update.tokens,
    tokensPerSecond: (sampledTokens + update.tokens) / seconds,
    processedTokens: record.processedTokens,
    zeroGradientGroups: record.zeroGradientGroups,
    groups: groups.length,
    seconds,
    generateSeconds: (times.generated - times.started) / 1000,
    updateSeconds: (times.ended - times.generated) / 1000,
    taskIds: groups.map((group) => group[0]?.taskId ?? ""),
  };
}
