// The report names a base whose teacher-forced step quality falls under the study's competence bar, cell by cell.
import { describe, expect, it } from "vitest";
import { baseCompetenceNotes } from "../../src/report/base-competence.js";
import type { StudyStepQuality } from "../../src/report/study-model.js";

const estimate = (value: number | null) => ({ value, low: value, high: value, tasks: 40, n: 40 });

function quality(model: string, mode: string, source: StudyStepQuality["source"], values: (number | null)[]) {
  return {
    model,
    env: "thinice",
    mode,
    source,
    overall: estimate(0.9),
    byTurn: [],
    byTurnsLeft: [],
    byBudget: values.map((value, i) => ({ budget: ["1.25x", "3x"][i]!, estimate: estimate(value) })),
    byBudgetAndTurnsLeft: [],
  } satisfies StudyStepQuality;
}

describe("baseCompetenceNotes", () => {
  const models = [
    { name: "base", role: "base" as const },
    { name: "GRPO-Full", role: "grpo" as const },
  ];

  it("lists the base's teacher-forced cells under 85%, and nothing else", () => {
    const notes = baseCompetenceNotes(models, [
      quality("base", "announced", "teacher-forced", [0.81, 0.95]),
      quality("base", "hidden", "teacher-forced", [0.8499, null]),
      quality("base", "announced", "self", [0.5, 0.5]),
      quality("GRPO-Full", "announced", "teacher-forced", [0.4, 0.4]),
    ]);
    expect(notes).toEqual([
      "the base (base): teacher-forced step quality under 85% (the competent base the study's design asks for) at thinice announced 1.25x 81.0%, thinice hidden 1.25x 84.99%; where its single steps are weak, RL's first gains are better single moves",
    ]);
  });

  it("says nothing of a competent base, or of a report without a base", () => {
    expect(baseCompetenceNotes(models, [quality("base", "announced", "teacher-forced", [0.85, 0.99])])).toEqual([]);
    expect(
      baseCompetenceNotes([models[1]!], [quality("GRPO-Full", "announced", "teacher-forced", [0.1, 0.1])]),
    ).toEqual([]);
  });
});
