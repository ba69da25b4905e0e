// A progress bar for long jobs, on stderr: done/total, a bar, rate and ETA. On a terminal it redraws in place
// (at most every 100 ms); otherwise it prints a line at each 10% so logs stay short. The clock is injected.

export interface Progress {
  /** Set the number of finished units. */
  update(done: number): void;
  /** Print the final state and a newline. */
  finish(): void;
}

export interface ProgressOptions {
  readonly label: string;
  readonly total: number;
  /** Units already finished when the job started (resumed runs): excluded from the rate. */
  readonly initial?: number;
  readonly unit?: string;
  readonly interactive: boolean;
  readonly write: (text: string) => void;
  readonly now?: () => number;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const mm = String(minutes).padStart(2, "0");
  const ss = String(secs).padStart(2, "0");
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function progressLine(
  label: string,
  done: number,
  total: number,
  rate: number,
  unit: string,
  width = 24,
): string {
  const fraction = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(fraction * width);
  const bar = `${"#".repeat(filled)}${"-".repeat(width - filled)}`;
  const eta = rate > 0 ? (total - done) / rate : NaN;
  const rateText = rate >= 100 ? rate.toFixed(0) : rate.toFixed(1);
  return `${label} [${bar}] ${done}/${total} ${(fraction * 100).toFixed(0).padStart(3)}% ${rateText} ${unit}/s ETA ${formatDuration(eta)}`;
}

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const initial = options.initial ?? 0;
  const unit = options.unit ?? "episodes";
  let done = initial;
  let lastDraw = -Infinity;
  let lastDecile = Math.floor((initial / Math.max(1, options.total)) * 10);
  const rate = (): number => {
    const seconds = (now() - start) / 1000;
    return seconds > 0 ? (done - initial) / seconds : 0;
  };
  const draw = (final: boolean): void => {
    const line = progressLine(options.label, done, options.total, rate(), unit);
    if (options.interactive) options.write(`\r${line}${final ? "\n" : ""}`);
    else options.write(`${line}\n`);
  };
  return {
    update(value) {
      done = value;
      if (options.interactive) {
        const time = now();
        if (time - lastDraw >= 100) {
          lastDraw = time;
          draw(false);
        }
      } else {
        const decile = Math.floor((done / Math.max(1, options.total)) * 10);
        if (decile > lastDecile && done < options.total) {
          lastDecile = decile;
          draw(false);
        }
      }
    },
    finish() {
      draw(true);
    },
  };
}
