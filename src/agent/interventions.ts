// Interventions: rollouts in which some actions are not the policy's own, for the study's controlled analyses.
//   none            the policy plays every turn (ordinary evaluation).
//   teacher-forced  every turn the policy answers and its answer is judged against the oracle's optimal set in
//                   that state (within the turns left); then an optimal action is played instead (the expert's),
//                   so the policy always sees the expert's history: single-step decision quality on states of
//                   oracle trajectories, separate from the states the policy reaches itself.
//   recover:J       the expert plays turns 1..J-1 as in teacher-forced (the policy answers and is judged), at turn
//                   J a uniformly random valid action outside the optimal set is played in place of the policy's
//                   reply (its reply is still judged), and from turn J+1 the policy plays on within the budget:
//                   recovery from one forced error, on states that do not depend on the policy. With the same
//                   seeds, every model meets exactly the same perturbed states (the expert's and the forced
//                   choices use the episode's intervention stream, the env's randomness its reset seed), so
//                   models are compared on them paired, never conditioned on each surviving to turn J. When the
//                   expert finishes before J, or every valid action at J is optimal, nothing is forced (the episode
//                   carries no forced turn J and the analysis leaves it out, for every model alike).
// "perturb:J" (a forced error on the policy's own states, paired with its own run) was retired for recover:J: its
// states differed between models, so a comparison conditioned on each model reaching turn J.
// Choices are seeded by the episode seed, on a stream of their own, so the policy's randomness is untouched.
import { z } from "zod";
import type { ForcedAction } from "../core/episode.js";
import type { Message } from "../core/message.js";
import type { Rng } from "../core/rng.js";

export type Intervention =
  { readonly kind: "none" } | { readonly kind: "teacher-forced" } | { readonly kind: "recover"; readonly turn: number };

/** What an intervention needs to know about the current state. */
export interface InterventionView {
  /** The optimal actions within the turns left. */
  optimal(): readonly string[];
  validActions(): readonly string[];
  toMessage(action: string): Message;
  /** The canonical action a reply would play here, without playing it (null: it does not parse). */
  parse(reply: Message): string | null;
}

const RECOVER = /^recover:(\d{1,5})$/;
const RETIRED_PERTURB = /^perturb:/;

/** "none", "teacher-forced" or "recover:J" (J >= 1), or the problem with the text. */
export function readIntervention(text: string): Intervention | { readonly problem: string } {
  const trimmed = text.trim();
  if (trimmed === "none") return { kind: "none" };
  if (trimmed === "teacher-forced") return { kind: "teacher-forced" };
  const match = RECOVER.exec(trimmed);
  if (match !== null && Number(match[1]) >= 1) return { kind: "recover", turn: Number(match[1]) };
  if (RETIRED_PERTURB.test(trimmed))
    return {
      problem: `"${text}" was retired: perturb:J forced an error on each model's own states; use recover:J (the expert plays up to J, the error is forced at J on states every model shares)`,
    };
  return {
    problem: `"${text}" is not an intervention: use none, teacher-forced or recover:J (J >= 1, the turn whose action is forced after the expert's turns)`,
  };
}

export function interventionText(intervention: Intervention): string {
  return intervention.kind === "recover" ? `recover:${intervention.turn}` : intervention.kind;
}

/** A config field holding an intervention, written as text and decoded once (a decoded one is read back from its text). */
export function interventionField() {
  const decoded = z
    .object({ kind: z.string(), turn: z.number().optional() })
    .transform((value) => (value.kind === "recover" ? `recover:${value.turn ?? ""}` : value.kind));
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
function judged(
  by: ForcedAction["by"],
  reply: Message,
  optimal: readonly string[],
  view: InterventionView,
): ForcedAction {
  const policyParsed = view.parse(reply);
  return {
    by,
    policyAction: reply,
    policyParsed,
    policyOptimal: policyParsed !== null && optimal.includes(policyParsed),
  };
}

/** The expert's move: an optimal action (uniformly among ties), or a valid one where none is optimal. */
function expertMove(
  reply: Message,
  view: InterventionView,
  rng: Rng,
): { readonly message: Message; readonly forced?: ForcedAction } {
  const optimal = view.optimal();
  const choices = optimal.length > 0 ? optimal : view.validActions();
  if (choices.length === 0) return { message: reply };
  return { message: view.toMessage(rng.pick(choices)), forced: judged("expert", reply, optimal, view) };
}

/** The message played at this turn and, when it is not the policy's reply, what was forced. */
export function playedAction(
  intervention: Intervention,
  turn: number,
  reply: Message,
  view: InterventionView,
  rng: Rng,
): { readonly message: Message; readonly forced?: ForcedAction } {
  if (intervention.kind === "teacher-forced" || (intervention.kind === "recover" && turn < intervention.turn))
    return expertMove(reply, view, rng);
  if (intervention.kind === "recover" && intervention.turn === turn) {
    const optimal = view.optimal();
    const wrong = view.validActions().filter((action) => !optimal.includes(action));
    if (wrong.length > 0)
      return { message: view.toMessage(rng.pick(wrong)), forced: judged("perturbation", reply, optimal, view) };
  }
  return { message: reply };
}
