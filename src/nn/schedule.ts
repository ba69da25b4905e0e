// Learning-rate schedule: linear warm-up to the peak, then cosine decay to minRatio * peak at totalSteps,
// flat after that. step is 0-based (the rate for the step about to be taken):
//   step < warmup:  peak * (step + 1) / warmup
//   otherwise:      min + (peak - min) * (1 + cos(pi * progress)) / 2,  progress = (step - warmup) / (total - warmup)
import { ConfigError } from "../core/errors.js";

export interface ScheduleConfig {
  readonly peak: number;
  readonly warmupSteps: number;
  readonly totalSteps: number;
  /** Final rate as a fraction of the peak (0.1 is common). */
  readonly minRatio: number;
}

export function warmupCosine(config: ScheduleConfig): (step: number) => number {
  const { peak, warmupSteps, totalSteps, minRatio } = config;
  if (!(peak >= 0)) throw new ConfigError("schedule.peak", `must be >= 0, got ${peak}`);
  if (!(Number.isInteger(warmupSteps) && warmupSteps >= 0))
    throw new ConfigError("schedule.warmupSteps", `must be a non-negative integer, got ${warmupSteps}`);
  if (!(Number.isInteger(totalSteps) && totalSteps >= warmupSteps))
    throw new ConfigError("schedule.totalSteps", `must be an integer >= warmupSteps, got ${totalSteps}`);
  if (!(minRatio >= 0 && minRatio <= 1))
    throw new ConfigError("schedule.minRatio", `must be in [0, 1], got ${minRatio}`);
  const min = peak * minRatio;
  return (step) => {
    if (step < warmupSteps) return (peak * (step + 1)) / warmupSteps;
    if (totalSteps === warmupSteps) return min;
    const progress = Math.min(1, (step - warmupSteps) / (totalSteps - warmupSteps));
    return min + ((peak - min) * (1 + Math.cos(Math.PI * progress))) / 2;
  };
}
