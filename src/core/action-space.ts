// An env's action space, a function of the state: the actions a state offers, how a reply reads as one without
// playing it, the message that plays one, and the state's key (equal keys: the same state, so the same actions and
// oracle answers). Env.actions holds one of these; actions are canonical texts ("Up", "A->C", "check").
import type { Message } from "./message.js";

export interface ActionSpace<TState = unknown> {
  /** Canonical texts of the actions available in a state (what a random policy chooses from). */
  valid(state: TState): readonly string[];
  /** Canonical hash of a state: equal states give equal keys (GiGPO groups by it; StepInfo.stateKey is this). */
  stateKey(state: TState): string;
  /** The canonical action a reply would play in this state, without playing it (null: it does not parse).
   * Teacher-forced rollouts judge the policy's answer with it while the expert's action is played. */
  parse?(state: TState, action: Message): string | null;
  /** The message a scripted policy sends for a canonical action text (envs with tools turn it into tool calls);
   * without it the text is sent as the assistant's content. */
  message?(state: TState, action: string): Message;
}
