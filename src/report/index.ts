// Reports, the package entry "budgetrl/report": the terminal Pass@(K,T) table and run header, and the study report:
// built from runs in a store (plain data, StudyReport), its findings, its terminal tables, and its HTML rendering
// with Vega-Lite charts (one self-contained file). Left out: the HTML and chart-building helpers, the run and role
// selection details and the estimate formatting the tables are built from.
export {
  analysisPlanHash,
  analysisPlanSchema,
  checkAnalysisPlan,
  defaultAnalysisPlan,
  parseAnalysisPlan,
  type AnalysisPlan,
  type ClaimPlan,
  type PlanEnv,
} from "./analysis-plan.js";
export { OUTCOMES, type Outcome } from "./effect-outcome.js";
export { studyFindings, type FindingInputs, type FindingOptions, type FindingsResult } from "./findings.js";
export { planMarkdown } from "./plan-markdown.js";
export { renderStudyHtml, type StudyHtmlOptions } from "./html/index.js";
export { passTableJson, renderPassTable } from "./pass-table.js";
export { runHeader } from "./run-header.js";
export { buildStudyReport, type StudyReportOptions } from "./study-build.js";
export {
  FINDING_IDS,
  MODEL_ROLES,
  STUDY_REPORT_VERSION,
  type FindingId,
  type JsonEstimate,
  type ModelRole,
  type RunKind,
  type StudyBudgetTable,
  type StudyComparison,
  type StudyExample,
  type StudyFinding,
  type StudyFindingScope,
  type StudyHeldOut,
  type StudyHorizon,
  type StudyHorizonBin,
  type StudyInvalidTable,
  type StudyModel,
  type StudyPassTable,
  type StudyPerturbation,
  type StudyPlanHeader,
  type StudyRange,
  type StudyRecovery,
  type StudyRecoveryCells,
  type StudyReport,
  type StudyRun,
  type StudySensitivity,
  type StudyStepQuality,
  type StudyTraining,
  type Verdict,
  VERDICTS,
} from "./study-model.js";
export { selectRuns, type ModelSelection, type SelectedRun, type StudySelection } from "./study-runs.js";
export {
  renderAnalyses,
  renderBudgetTables,
  renderFindings,
  renderHorizon,
  renderRecovery,
  renderStepQuality,
  renderStepQualityByBudget,
} from "./study-tables.js";
export { readTraining, type StudyTaskList, type TrainingSelection } from "./training-curves.js";
