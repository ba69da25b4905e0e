// What an env's oracle knows about a state: its answer (the optimal next actions, the optimal turns left to success,
// the success probability under optimal play) and, for envs whose progress signal depends on the horizon, the
// progress within the turns left. Optional on an env (Env.oracle): callers that need one ask `requireOracle`.

/** What an oracle knows about a state: the optimal next actions, the optimal number of turns left to success,
 * and the success probability under optimal play. Asked with `turnsLeft` (the turns left in the budget), the
 * answer is budget-aware: `optimal` maximises the probability of success within those turns and `value` is
 * that probability. Asked without, it is for an unlimited horizon. Either way, among equally valued actions
 * the optimal ones minimise the expected number of turns to success (exact ties stay ties); when success
 * within the turns left is impossible, the unlimited-horizon optimal actions are given. For deterministic
 * envs the set is the shortest-path moves at every horizon, and the value is 1 when `remaining <= turnsLeft`. */
export interface OracleAnswer {
  /** Canonical texts of every optimal action (empty in a terminal or dead state). */
  readonly optimal: readonly string[];
  /** Optimal number of remaining turns to success (the fewest with a positive chance); Infinity when success
   * is impossible. It does not depend on `turnsLeft`. */
  readonly remaining: number;
  /** Success probability under optimal play: within `turnsLeft` turns when asked with it, else with unlimited
   * time; 1 or 0 for deterministic envs. Optional: envs that cannot say omit it. */
  readonly value?: number;
}

export interface Oracle<TState = unknown> {
  /** Optimal actions, remaining turns and value from any state: within `turnsLeft` turns (an integer >= 0)
   * when given, else for an unlimited horizon (see OracleAnswer). Envs whose answers do not depend on the
   * horizon may ignore `turnsLeft`. */
  answer(state: TState, turnsLeft?: number): OracleAnswer;
  /** Progress of a state when `turnsLeft` turns remain, for envs whose progress signal depends on the horizon
   * (frozenlake: the success probability within the turns left). The rollout engine records it in place of
   * `info.progress`, which is the unlimited-horizon progress; envs without it have budget-free progress. */
  progressWithin?(state: TState, turnsLeft: number): number;
}
