// guided_grammar (and structured_outputs.grammar): the whole reply is a text of the grammar (grammar.ts), read by an
// Earley recognizer over its code points (left recursion, ambiguity and empty rules included; empty rules by Aycock
// and Horspool's rule: predicting a rule that derives the empty text also moves past it) as a byte machine
// (byte-machine.ts): a character's first bytes are allowed when some class the recognizer may read next meets the
// code points they can still become. Every rule left derives some text, so a prefix the recognizer accepts can
// always be finished.
//
// A state is the chart so far: the sets committed (shared, append-only) and the sets of the bytes tried since, so
// that trying every token of the vocabulary copies nothing. `rest` is the fewest bytes that finish the text: an
// item's own rest (grammar.ts: `suffix`) and then its parents', found back through the sets where they wait (per
// set, a fixed point over the rules predicted there), so that replies fit max_tokens where they can.
import type { ByteMachine } from "./byte-machine.js";
import { contains, overlaps, type CharSet } from "./char-set.js";
import type { Grammar, GrammarSymbol } from "./grammar.js";
import { utf8Next, utf8Range, utf8Start } from "./utf8-steps.js";

interface Item {
  readonly rule: number;
  readonly alternative: number;
  readonly dot: number;
  readonly origin: number;
}

interface EarleySet {
  readonly items: Item[];
  /** Items waiting for a rule, by rule. */
  readonly waiting: Map<number, Item[]>;
  /** Items whose next symbol is a character class. */
  readonly scanners: Item[];
  accepting: boolean;
  /** Per rule, the fewest bytes that finish the text once the rule completes here (computed when first asked). */
  after: Map<number, number> | undefined;
}

interface ChartState {
  readonly base: EarleySet[];
  readonly baseLength: number;
  readonly tail: readonly EarleySet[];
  /** A character's bits so far, bytes still due, and the range of the next one. */
  readonly bits: number;
  readonly pending: number;
  readonly lo: number;
  readonly hi: number;
}

const nextSymbol = (grammar: Grammar, item: Item): GrammarSymbol | undefined =>
  grammar.rules[item.rule]![item.alternative]![item.dot];
const charsOf = (grammar: Grammar, item: Item): CharSet => (nextSymbol(grammar, item) as { chars: CharSet }).chars;

/** The set at `index` built from its first items (scanned, or the start), closed under prediction and completion. */
function closeSet(grammar: Grammar, first: readonly Item[], index: number, setAt: (i: number) => EarleySet): EarleySet {
  const set: EarleySet = { items: [], waiting: new Map(), scanners: [], accepting: false, after: undefined };
  const keys = new Set<string>();
  const todo: Item[] = [];
  const add = (item: Item): void => {
    const key = `${item.rule},${item.alternative},${item.dot},${item.origin}`;
    if (keys.has(key)) return;
    keys.add(key);
    set.items.push(item);
    todo.push(item);
  };
  first.forEach(add);
  while (todo.length > 0) {
    const item = todo.pop()!;
    const symbol = nextSymbol(grammar, item);
    if (symbol === undefined) {
      if (item.rule === grammar.start && item.origin === 0) set.accepting = true;
      const parents = (item.origin === index ? set : setAt(item.origin)).waiting.get(item.rule) ?? [];
      for (const parent of [...parents]) add({ ...parent, dot: parent.dot + 1 });
    } else if ("rule" in symbol) {
      const list = set.waiting.get(symbol.rule) ?? [];
      list.push(item);
      set.waiting.set(symbol.rule, list);
      grammar.rules[symbol.rule]!.forEach((_, alternative) =>
        add({ rule: symbol.rule, alternative, dot: 0, origin: index }),
      );
      if (grammar.nullable[symbol.rule]) add({ ...item, dot: item.dot + 1 });
    } else set.scanners.push(item);
  }
  return set;
}

/** Per rule waited for in set `index`, the fewest bytes that finish the text once the rule completes there. */
function afterRules(grammar: Grammar, index: number, setAt: (i: number) => EarleySet): Map<number, number> {
  const set = setAt(index);
  if (set.after !== undefined) return set.after;
  const after = new Map<number, number>();
  if (index === 0) after.set(grammar.start, 0);
  for (let changed = true; changed;) {
    changed = false;
    for (const [rule, parents] of set.waiting) {
      let best = after.get(rule) ?? Infinity;
      for (const parent of parents) {
        const own = grammar.suffix[parent.rule]![parent.alternative]![parent.dot + 1]!;
        const above =
          parent.origin === index
            ? (after.get(parent.rule) ?? Infinity)
            : (afterRules(grammar, parent.origin, setAt).get(parent.rule) ?? Infinity);
        best = Math.min(best, own + above);
      }
      if (best < (after.get(rule) ?? Infinity)) {
        after.set(rule, best);
        changed = true;
      }
    }
  }
  set.after = after;
  return after;
}

/** The fewest bytes that finish the text from an item with its dot moved by `moved` symbols. */
function itemRest(grammar: Grammar, item: Item, moved: number, setAt: (i: number) => EarleySet): number {
  const own = grammar.suffix[item.rule]![item.alternative]![item.dot + moved]!;
  return own + (afterRules(grammar, item.origin, setAt).get(item.rule) ?? Infinity);
}

const length = (state: ChartState): number => state.baseLength + state.tail.length;
const setAt = (state: ChartState, i: number): EarleySet =>
  i < state.baseLength ? state.base[i]! : state.tail[i - state.baseLength]!;
const last = (state: ChartState): EarleySet => setAt(state, length(state) - 1);

export function grammarMachine(grammar: Grammar): ByteMachine<ChartState> {
  const settled = { bits: 0, pending: 0, lo: 0x80, hi: 0xbf };
  const scan = (state: ChartState, cp: number): ChartState[] => {
    const moved = last(state)
      .scanners.filter((item) => contains(charsOf(grammar, item), cp))
      .map((item) => ({ ...item, dot: item.dot + 1 }));
    if (moved.length === 0) return [];
    const set = closeSet(grammar, moved, length(state), (i) => setAt(state, i));
    return [{ ...state, ...settled, tail: [...state.tail, set] }];
  };
  const partial = (state: ChartState): ChartState[] => {
    const [lo, hi] = utf8Range(state);
    const reads = last(state).scanners.some((item) => overlaps(charsOf(grammar, item), lo, hi));
    return reads ? [state] : [];
  };
  const first = closeSet(grammar, [{ rule: grammar.start, alternative: 0, dot: 0, origin: 0 }], 0, () => {
    throw new Error("grammar-constraint: no set before the first");
  });
  return {
    initial: [{ base: [first], baseLength: 1, tail: [], ...settled }],
    step(state, b) {
      if (state.pending > 0) {
        const next = utf8Next(state, b);
        if (next === undefined) return [];
        return typeof next === "number" ? scan(state, next) : partial({ ...state, ...next });
      }
      if (b < 0x80) return scan(state, b);
      const started = utf8Start(b);
      return started === undefined ? [] : partial({ ...state, ...started });
    },
    complete: (state) => state.pending === 0 && last(state).accepting,
    rest(state) {
      const at = (i: number): EarleySet => setAt(state, i);
      if (state.pending === 0) return Math.min(...last(state).items.map((item) => itemRest(grammar, item, 0, at)));
      const [lo, hi] = utf8Range(state);
      const reading = last(state).scanners.filter((item) => overlaps(charsOf(grammar, item), lo, hi));
      return state.pending + Math.min(...reading.map((item) => itemRest(grammar, item, 1, at)));
    },
    /** One chart at most: commits its tried sets to the shared ones. */
    distinct: (states) =>
      states.slice(0, 1).map((state) => {
        if (state.tail.length === 0) return state;
        const base = state.base.length === state.baseLength ? state.base : state.base.slice(0, state.baseLength);
        base.push(...state.tail);
        return { ...state, base, baseLength: base.length, tail: [] };
      }),
  };
}
