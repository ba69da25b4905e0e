// Area under a Pass@(K,T) curve over the budget axis, normalised to [0, 1]:
//   AUC = (1 / x_max) * integral_0^{x_max} pass(x) dx,   trapezoids between the measured budgets,
// with pass(0) = 0 (no turns, no success). A policy that succeeds at every budget scores close to 1; one that
// only succeeds with generous budgets scores low. x is the fraction of the reference budget ("25%" -> 0.25) or
// the absolute number of turns, as budgetAxis orders them.

/** Normalised trapezoid area of points (x, y) sorted by x, starting from (0, 0). */
export function normalisedArea(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length || xs.length === 0) throw new RangeError("normalisedArea: need equal, non-empty x and y");
  let area = 0;
  let prevX = 0;
  let prevY = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    area += ((x - prevX) * (prevY + y)) / 2;
    prevX = x;
    prevY = y;
  }
  return prevX === 0 ? 0 : area / prevX;
}
