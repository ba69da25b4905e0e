// Interventions: rollouts in which some actions are not the policy's own, for the study's controlled analyses.
//   none            the policy plays every turn (ordinary evaluation).
//   teacher-forced  every turn the policy answers and its answer is judged against the oracle's optimal set in
//                   that state (within the turns left); then an optimal action is played instead (the expert's),
//                   so the policy always sees the expert's history: single-step decision quality on states of
//                   oracle trajectories, separate from the states the policy reaches itself.
//   perturb:J       the policy plays, except at turn J, where a uniformly random valid action outside the optimal
//                   set is played in place of its reply (it is still asked, and its reply judged); control is then
//                   handed back. Paired with an ordinary run of the
//                   same seeds (common random numbers: the same states up to turn J), it measures recovery from
//                   one forced error. When every valid action at turn J is optimal, nothing is forced (the
//                   episode carries no forced turn and the analysis leaves the pair out).
// Choices are seeded by the episode seed, on a stream of their own, so the policy's randomness is untouched.
import { z } from "zod";
import type { ForcedAction } from "../core/episode.js";
import type { Message } from "../core/message.js";
import type { Rng } from "../core/rng.js";

export type Intervention = { readonly kind: "none" } | { readonly kind: "teacher-forced" } | { readonly kind: "perturb"; readonly turn: number };

/** What an intervention needs to know about the current state. */
export interface InterventionView {
  /** The optimal actions within the turns left. */
  optimal(): readonly string[];
  validActions(): readonly string[];
  toMessage(action: string): Message;
  /** The canonical action a reply would play here, without playing it (null: it does not parse). */
  parse(reply: Message): string | null;
}

const PERTURB = /^perturb:(\d{1,5})$/;

/** "none", "teacher-forced" or "perturb:J" (J >= 1), or the problem with the text. */
export function readIntervention(text: string): Intervention | { readonly problem: string } {
  const trimmed = text.trim();
  if (trimmed === "none") return { kind: "none" };
  if (trimmed === "teacher-forced") return { kind: "teacher-forced" };
  const match = PERTURB.exec(trimmed);
  if (match !== null && Number(match[1]) >= 1) return { kind: "perturb", turn: Number(match[1]) };
  return { problem: `"${text}" is not an intervention: use none, teacher-forced or perturb:J (J >= 1, the turn whose action is forced)` };
}

export function interventionText(intervention: Intervention): string {
  return intervention.kind === "perturb" ? `perturb:${intervention.turn}` : intervention.kind;
}

/** A config field holding an intervention, written as text and decoded once (a decoded one is read back from its text). */
export function interventionField() {
  const decoded = z.object({ kind: z.string(), turn: z.number().optional() }).transform((value) => (value.kind === "perturb" ? `perturb:${value.turn ?? ""}` : value.kind));
  return z.codec(z.union([z.string(), decoded]), z.custom<Intervention>(), {
    decode: (text, context) => {
      const read = readIntervention(text);
      if (!("problem" in read)) return read;
      context.issues.push({ code: "custom", message: read.problem, input: text });
      return z.NEVER;
    },
    encode: interventionText,
  });
}

/** The policy's reply judged against the optimal set of the state it was given in. */
function judged(by: ForcedAction["by"], reply: Message, optimal: readonly string[], view: InterventionView): ForcedAction {
  const policyParsed = view.parse(reply);
  return { by, policyAction: reply, policyParsed, policyOptimal: policyParsed !== null && optimal.includes(policyParsed) };
}

/** The message played at this turn and, when it is not the policy's reply, what was forced. */
export function playedAction(intervention: Intervention, turn: number, reply: Message, view: InterventionView, rng: Rng): { readonly message: Message; readonly forced?: ForcedAction } {
  if (intervention.kind === "teacher-forced") {
    const optimal = view.optimal();
    const choices = optimal.length > 0 ? optimal : view.validActions();
    if (choices.length === 0) return { message: reply };
    return { message: view.toMessage(rng.pick(choices)), forced: judged("expert", reply, optimal, view) };
  }
  if (intervention.kind === "perturb" && intervention.turn === turn) {
    const optimal = view.optimal();
    const wrong = view.validActions().filter((action) => !optimal.includes(action));
    if (wrong.length > 0) return { message: view.toMessage(rng.pick(wrong)), forced: judged("perturbation", reply, optimal, view) };
  }
  return { message: reply };
}
