// Outcome summaries that the store produces and the metrics consume, so that neither depends on the other.

/** Outcome counts of one task under one budget: n finished episodes, c of them successful. */
export interface OutcomeCounts {
  readonly taskIndex: number;
  readonly budget: string;
  readonly n: number;
  readonly c: number;
}

/** One episode's outcome as protocol (b) needs it. */
export interface FirstSuccess {
  readonly taskIndex: number;
  /** Turn of first success, or null when the episode never succeeded. */
  readonly successTurn: number | null;
}
