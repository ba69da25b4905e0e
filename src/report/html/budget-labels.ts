// The renderer's one edge for budgets: a StudyReport holds its budgets as labels (its JSON form, which the HTML may be
// rendered from after a round trip), so a chart that lays out budgets drawn from several analyses reads the labels
// back as budgets here, once, and orders them on the budget axis (kind, then size). Labels that are not budgets
// keep their order after the budgets.
import { isBudgetProblem, readBudgetSpec, type BudgetSpec } from "../../core/budget.js";
import { orderBudgets } from "../../metrics/budget-axis.js";

/** The distinct labels in axis order ("25%" < "50%" < "100%", then multiples, then turns); non-budgets last. */
export function budgetLabelOrder(labels: Iterable<string>): string[] {
  const budgets: BudgetSpec[] = [];
  const others: string[] = [];
  for (const label of new Set(labels)) {
    const spec = readBudgetSpec(label);
    if (isBudgetProblem(spec)) others.push(label);
    else budgets.push({ ...spec, label });
  }
  return [...orderBudgets(budgets).map((spec) => spec.label), ...others];
}
