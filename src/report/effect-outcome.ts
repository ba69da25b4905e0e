// How one estimated difference reads against the plan's smallest effect of interest (margin m), from its interval
// [low, high] and value v:
//   higher      low > 0 and v >= m         (a difference worth acting on, and not zero)
//   lower       high < 0 and v <= -m
//   negligible  -m <= low and high <= m    (whatever it is, it is smaller than anything worth acting on)
//   unclear     anything else              (the interval holds zero and reaches past the margin, or it excludes
//                                           zero with a value under the margin and a bound past it)
//   cannot move the statistic cannot move on the env (left out of the verdict)
//   tied        the two models give the same value on every task in every seed (both at the floor, say): it
//               shows nothing either way (left out of the verdict)
//   no data     no shared task
// And a non-inferiority reading (BudgetMix "robust"): not worse by more than m when low > -m, worse by more than m
// when high < -m, else unclear. The smallest difference detectable at 80% power with a two-sided 5% test, from the
// interval's width: (z_0.975 + z_0.8) x SE, with SE = (high - low) / (2 z_0.975).
export const OUTCOMES = ["higher", "lower", "negligible", "unclear", "cannot move", "tied", "no data"] as const;

/** Outcomes a verdict cannot read: the comparison says nothing either way. */
export const UNREAD: readonly Outcome[] = ["cannot move", "tied", "no data"];
export const isRead = (outcome: Outcome): boolean => !UNREAD.includes(outcome);
export type Outcome = (typeof OUTCOMES)[number];

export interface Interval {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

const known = (estimate: Interval): estimate is { value: number; low: number; high: number } =>
  estimate.value !== null &&
  estimate.low !== null &&
  estimate.high !== null &&
  Number.isFinite(estimate.value) &&
  Number.isFinite(estimate.low) &&
  Number.isFinite(estimate.high);

export function outcomeOf(estimate: Interval, margin: number): Outcome {
  if (estimate.value === null || !Number.isFinite(estimate.value)) return "no data";
  if (!known(estimate)) return "unclear";
  const { value, low, high } = estimate;
  const slack = 1e-12;
  if (low > 0 && value >= margin - slack) return "higher";
  if (high < 0 && value <= -margin + slack) return "lower";
  if (low >= -margin - slack && high <= margin + slack) return "negligible";
  return "unclear";
}

export type NonInferiority = "non-inferior" | "inferior" | "unclear" | "no data";

export function nonInferiority(estimate: Interval, margin: number): NonInferiority {
  if (estimate.value === null || !Number.isFinite(estimate.value)) return "no data";
  if (!known(estimate)) return "unclear";
  if (estimate.low > -margin) return "non-inferior";
  if (estimate.high < -margin) return "inferior";
  return "unclear";
}

const Z_HALF = 1.959963984540054;
const Z_POWER = 0.8416212335729143;

/** The smallest difference the interval's width could detect at 80% power (null without an interval). */
export function detectableEffect(estimate: Interval): number | null {
  if (!known(estimate)) return null;
  return ((Z_HALF + Z_POWER) * (estimate.high - estimate.low)) / (2 * Z_HALF);
}
