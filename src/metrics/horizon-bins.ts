// The bins of the horizon analysis (horizon.ts) and their labels, which say what each bin holds:
//   length bins  [2^b, 2^(b+1)) with b = floor(log2 L), L the task's optimal length (hanoi with d disks,
//                L = 2^d - 1, gets one bin per d); labelled by the lengths they hold: "6", "4-7", "9-13"
//   ratio bins   T / L, T the budget in turns. Few distinct ratios (at most MAX_EXACT_RATIOS: budgets that are
//                fixed multiples of L, such as 25%..100% of a 4 x L reference, give exactly 1, 2, 3, 4): one bin
//                per ratio, labelled by it ("1", "1.25", "1.33"). More: bins split at RATIO_EDGES ([1, 1.5),
//                [1.5, 2), ...), each labelled by the smallest and largest ratio it holds ("1.2-1.43"), not by
//                its edges: a bin that holds only ratio 1 reads "1", never "1-1.5".
// Numbers are written with 2 decimals at most, trailing zeros dropped, and more decimals (up to 6) only when
// two different values would otherwise read the same. A binning is built from every row that will be compared
// (one env, every model and mode), so each curve labels a bin the same way; a value it was not built from has
// no bin (a programmer error).
// Edge cases: no values give no bins; a bin holding one value is labelled by that value alone.
import { BudgetrlError } from "../core/errors.js";

/** What a bin holds: the smallest and largest value, and the label that says so. */
export interface BinSpan {
  readonly label: string;
  readonly low: number;
  readonly high: number;
}

export interface Binning {
  /** The key of a value's bin (its lower edge, or the value itself for exact bins); keys order the bins. */
  readonly keyOf: (value: number) => number;
  /** Each bin's span by key, in increasing key order. */
  readonly spans: ReadonlyMap<number, BinSpan>;
}

export interface HorizonBinning {
  readonly lengths: Binning;
  readonly ratios: Binning;
}

export const MAX_EXACT_RATIOS = 8;
export const RATIO_EDGES: readonly number[] = [1, 1.5, 2, 3, 4];
const MIN_DIGITS = 2;
const MAX_DIGITS = 6;

/** Lower bound of the power-of-two bin of an optimal length (>= 1). */
export function lengthBin(length: number): number {
  return 2 ** Math.floor(Math.log2(Math.max(1, length)));
}

/** Index of the ratio bin: 0 for ratio < edges[0], i for edges[i-1] <= ratio < edges[i], edges.length past the last. */
export function ratioBin(ratio: number, edges: readonly number[]): number {
  let bin = 0;
  while (bin < edges.length && ratio >= edges[bin]!) bin++;
  return bin;
}

/** A number with `digits` decimals at most, trailing zeros dropped: 1 -> "1", 1.25 -> "1.25", 4/3 -> "1.33". */
export function formatBinValue(value: number, digits = MIN_DIGITS): string {
  return String(Number(value.toFixed(digits)));
}

/** The fewest decimals (MIN_DIGITS..MAX_DIGITS) at which different values never read the same. */
export function distinctDigits(values: Iterable<number>): number {
  const distinct = [...new Set(values)];
  for (let digits = MIN_DIGITS; digits < MAX_DIGITS; digits++)
    if (new Set(distinct.map((value) => formatBinValue(value, digits))).size === distinct.length) return digits;
  return MAX_DIGITS;
}

/** Bins keyed by `keyOf` with the smallest and largest value each holds, labelled by them. */
export function binningOf(values: Iterable<number>, keyOf: (value: number) => number): Binning {
  const held = new Map<number, { low: number; high: number }>();
  for (const value of values) {
    const key = keyOf(value);
    const span = held.get(key);
    if (span === undefined) held.set(key, { low: value, high: value });
    else {
      span.low = Math.min(span.low, value);
      span.high = Math.max(span.high, value);
    }
  }
  const digits = distinctDigits([...held.values()].flatMap((span) => [span.low, span.high]));
  const label = (low: number, high: number): string =>
    low === high ? formatBinValue(low, digits) : `${formatBinValue(low, digits)}-${formatBinValue(high, digits)}`;
  const spans = new Map(
    [...held.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([key, { low, high }]) => [key, { label: label(low, high), low, high }]),
  );
  return { keyOf, spans };
}

/** Ratio bins: one per ratio when there are at most `maxExact` distinct ones, else ranges split at `edges`. */
export function ratioBinning(
  ratios: Iterable<number>,
  options: { readonly maxExact?: number; readonly edges?: readonly number[] } = {},
): Binning {
  const values = [...ratios];
  const edges = options.edges ?? RATIO_EDGES;
  if (new Set(values).size <= (options.maxExact ?? MAX_EXACT_RATIOS)) return binningOf(values, (ratio) => ratio);
  return binningOf(values, (ratio) => {
    const bin = ratioBin(ratio, edges);
    return bin === 0 ? -Infinity : edges[bin - 1]!;
  });
}

export function lengthBinning(lengths: Iterable<number>): Binning {
  return binningOf(lengths, lengthBin);
}

/** The span of a value's bin; a value the binning was not built from is a programmer error. */
export function spanOf(binning: Binning, value: number): { readonly key: number; readonly span: BinSpan } {
  const key = binning.keyOf(value);
  const span = binning.spans.get(key);
  if (span === undefined || value < span.low || value > span.high)
    throw new BudgetrlError(
      "horizon:unbinned",
      `value ${value} is outside the bins it was given`,
      "build the horizon binning from every row it bins (horizonBinning over all of them)",
    );
  return { key, span };
}
