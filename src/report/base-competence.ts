// Whether a report's base model is competent at single steps, as the study's design asks: teacher-forced step
// quality at least BASE_COMPETENCE at every budget and mode (docs/study.md, "A competent base"). Finding 2 (RL's
// gains sit in recovery and long horizons, not single steps) is about such a base: below the bar, RL's first gains
// are better single moves, which help everywhere. A base under it is named in the report's notes, cell by cell;
// a report without a base or without teacher-forced runs says nothing here.
import type { StudyModel, StudyStepQuality } from "./study-model.js";

export const BASE_COMPETENCE = 0.85;

/** In %, one decimal as the tables show it; two where one would read as the bar (84.99% is 84.99%, not 85.0%). */
function percentBelow(value: number): string {
  const one = (100 * value).toFixed(1);
  return `${Number(one) >= 100 * BASE_COMPETENCE ? (100 * value).toFixed(2) : one}%`;
}

/** One note per base model with teacher-forced cells under the bar, listing them (env, mode, budget, value). */
export function baseCompetenceNotes(
  models: readonly Pick<StudyModel, "name" | "role">[],
  stepQuality: readonly StudyStepQuality[],
): string[] {
  const notes: string[] = [];
  for (const model of models.filter((candidate) => candidate.role === "base")) {
    const under = stepQuality
      .filter((entry) => entry.model === model.name && entry.source === "teacher-forced")
      .flatMap((entry) =>
        entry.byBudget.flatMap(({ budget, estimate }) =>
          estimate.value !== null && estimate.value < BASE_COMPETENCE
            ? [`${entry.env} ${entry.mode} ${budget} ${percentBelow(estimate.value)}`]
            : [],
        ),
      );
    if (under.length > 0)
      notes.push(
        `the base (${model.name}): teacher-forced step quality under ${100 * BASE_COMPETENCE}% (the competent base the study's design asks for) at ${under.join(", ")}; where its single steps are weak, RL's first gains are better single moves`,
      );
  }
  return notes;
}
