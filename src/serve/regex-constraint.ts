// guided_regex (and structured_outputs.regex): the whole reply matches a regular expression, as vLLM's backends
// read it (the pattern matched whole; ^ and $ at its ends change nothing). A byte machine (byte-machine.ts) over the
// reply's UTF-8 text: the pattern's DFA (regex-dfa.ts) steps a character at a time, and a character's first bytes
// are allowed when some code point they can still become leads on. `rest` is exact: the fewest bytes to an
// accepting state, a character costing its UTF-8 length.
import type { ByteMachine } from "./byte-machine.js";
import { compileRegex } from "./regex-automaton.js";
import { LazyDfa } from "./regex-dfa.js";
import { parseRegex } from "./regex-syntax.js";
import { utf8Next, utf8Range, utf8Start } from "./utf8-steps.js";

interface RegexState {
  readonly state: number;
  /** A character's bits so far, bytes still due, and the range of the next one. */
  readonly bits: number;
  readonly pending: number;
  readonly lo: number;
  readonly hi: number;
}

/** The automaton of a pattern matched whole (a RegexProblem when it is not supported). */
export function wholeMatch(pattern: string): LazyDfa {
  return new LazyDfa(compileRegex(parseRegex(pattern), false));
}

export function regexMachine(dfa: LazyDfa): ByteMachine<RegexState> {
  const whole = (state: number, cp: number): RegexState[] => {
    const next = dfa.next(state, cp);
    return next < 0 ? [] : [{ state: next, bits: 0, pending: 0, lo: 0x80, hi: 0xbf }];
  };
  const partial = (state: RegexState): RegexState[] => {
    const [lo, hi] = utf8Range(state);
    return dfa.targetsIn(state.state, lo, hi).length > 0 ? [state] : [];
  };
  return {
    initial: [{ state: dfa.start, bits: 0, pending: 0, lo: 0x80, hi: 0xbf }],
    step(state, b) {
      if (state.pending > 0) {
        const next = utf8Next(state, b);
        if (next === undefined) return [];
        return typeof next === "number" ? whole(state.state, next) : partial({ state: state.state, ...next });
      }
      if (b < 0x80) return whole(state.state, b);
      const started = utf8Start(b);
      return started === undefined ? [] : partial({ state: state.state, ...started });
    },
    complete: (state) => state.pending === 0 && dfa.accepts(state.state),
    rest(state) {
      if (state.pending === 0) return dfa.fewest(state.state, 0, "raw");
      const [lo, hi] = utf8Range(state);
      return state.pending + Math.min(...dfa.targetsIn(state.state, lo, hi).map((to) => dfa.fewest(to, 0, "raw")));
    },
    distinct: (states) => [...new Map(states.map((state) => [JSON.stringify(state), state])).values()],
  };
}
