// A regular expression (regex-syntax.ts) as an automaton over code points, for constrained decoding: JSON Schema
// `pattern`s and `format`s inside strings (json-string.ts), and guided_regex over a whole reply
// (regex-constraint.ts). Built in three steps:
//   1. Thompson's construction from the tree (counted repeats unrolled), with ^ and $ as guarded empty moves: ^
//      only before the first character, $ only at the end;
//   2. an NFA without empty moves whose states are the "positions" (the start and every character move's target),
//      each with its character moves and whether it accepts; positions that cannot reach an accepting one are
//      dropped, so every state left can still finish;
//   3. a DFA built lazily (subset construction on demand): a state's moves are disjoint code point ranges.
// `search` wraps a pattern in "anything" on both sides where it is not anchored, as JSON Schema's `pattern` is
// matched (somewhere in the string); guided_regex is matched whole. Two automata intersect (a string with two
// patterns, or a pattern and a format) by the product of their NFAs.
//
// Distances for constrained decoding: the fewest characters to an accepting state with at least n more (a string's
// minLength), and the fewest bytes, a character costing what its cheapest writing costs (costs.ts of the caller).
import { ANY_CHAR, charSet, contains, intersect, isEmpty, MAX_CODE_POINT, union, type CharSet } from "./char-set.js";
import { RegexProblem, type RegexNode } from "./regex-syntax.js";

/** The most NFA states one automaton may have (a count like {1000} of a large group passes it: a 400). */
export const MAX_STATES = 20_000;

export interface Move {
  readonly set: CharSet;
  readonly to: number;
}

/** An NFA without empty moves: state `start`, every state's moves, and which accept. */
export interface Nfa {
  readonly start: number;
  readonly moves: readonly (readonly Move[])[];
  readonly accepting: readonly boolean[];
}

// ---- 1. Thompson -------------------------------------------------------------------------------------------

interface Thompson {
  readonly chars: { from: number; set: CharSet; to: number }[];
  readonly empty: number[][];
  readonly startOnly: number[][];
  readonly endOnly: number[][];
}

function newState(graph: Thompson): number {
  if (graph.empty.length >= MAX_STATES) throw new RegexProblem(`the pattern needs more than ${MAX_STATES} states`);
  graph.empty.push([]);
  graph.startOnly.push([]);
  graph.endOnly.push([]);
  return graph.empty.length - 1;
}

/** Adds the node between states `from` and `to`. */
function build(graph: Thompson, node: RegexNode, from: number, to: number): void {
  switch (node.t) {
    case "set":
      if (!isEmpty(node.set)) graph.chars.push({ from, set: node.set, to });
      return;
    case "assert":
      (node.at === "start" ? graph.startOnly : graph.endOnly)[from]!.push(to);
      return;
    case "look":
      throw new RegexProblem(
        `a lookahead ${node.negate ? "(?!" : "(?="} is supported only at the start of a pattern anchored with ^`,
      );
    case "seq": {
      let at = from;
      node.items.forEach((item, i) => {
        const next = i === node.items.length - 1 ? to : newState(graph);
        build(graph, item, at, next);
        at = next;
      });
      if (node.items.length === 0) graph.empty[from]!.push(to);
      return;
    }
    case "alt":
      for (const option of node.options) build(graph, option, from, to);
      return;
    case "repeat": {
      let at = from;
      for (let i = 0; i < node.min; i++) {
        const next = newState(graph);
        build(graph, node.node, at, next);
        at = next;
      }
      if (node.max === Infinity) {
        const loop = newState(graph);
        graph.empty[at]!.push(loop);
        build(graph, node.node, loop, loop);
        graph.empty[loop]!.push(to);
        return;
      }
      for (let i = node.min; i < node.max; i++) {
        const next = newState(graph);
        graph.empty[at]!.push(to);
        build(graph, node.node, at, next);
        at = next;
      }
      graph.empty[at]!.push(to);
      return;
    }
  }
}

// ---- 2. without empty moves --------------------------------------------------------------------------------

function closure(graph: Thompson, from: number, atStart: boolean, atEnd: boolean): number[] {
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length > 0) {
    const state = todo.pop()!;
    const next = [
      ...graph.empty[state]!,
      ...(atStart ? graph.startOnly[state]! : []),
      ...(atEnd ? graph.endOnly[state]! : []),
    ];
    for (const target of next) if (!seen.has(target)) (seen.add(target), todo.push(target));
  }
  return [...seen];
}

function withoutEmptyMoves(graph: Thompson, start: number, accept: number): Nfa {
  const charsFrom = new Map<number, { set: CharSet; to: number }[]>();
  for (const move of graph.chars) {
    const list = charsFrom.get(move.from) ?? [];
    list.push(move);
    charsFrom.set(move.from, list);
  }
  const index = new Map<number, number>();
  const positions: { thompson: number; initial: boolean }[] = [];
  const positionOf = (thompson: number, initial: boolean): number => {
    const key = initial ? -1 : thompson;
    let id = index.get(key);
    if (id === undefined) index.set(key, (id = positions.push({ thompson, initial }) - 1));
    return id;
  };
  positionOf(start, true);
  const moves: Move[][] = [];
  const accepting: boolean[] = [];
  for (let p = 0; p < positions.length; p++) {
    const { thompson, initial } = positions[p]!;
    accepting[p] = closure(graph, thompson, initial, true).includes(accept);
    moves[p] = closure(graph, thompson, initial, false).flatMap((state) =>
      (charsFrom.get(state) ?? []).map((move) => ({ set: move.set, to: positionOf(move.to, false) })),
    );
  }
  return prune({ start: 0, moves, accepting });
}

/** The NFA with only the states that can reach an accepting one (renumbered); a RegexProblem if none is left. */
export function prune(nfa: Nfa): Nfa {
  const reverse: number[][] = nfa.moves.map(() => []);
  nfa.moves.forEach((moves, from) => moves.forEach((move) => reverse[move.to]!.push(from)));
  const live = new Set<number>();
  const todo = nfa.accepting.flatMap((accepts, state) => (accepts ? [state] : []));
  for (const state of todo) live.add(state);
  while (todo.length > 0)
    for (const from of reverse[todo.pop()!]!) if (!live.has(from)) (live.add(from), todo.push(from));
  if (!live.has(nfa.start)) throw new RegexProblem("the pattern matches no string");
  const order = [...live].sort((a, b) => a - b);
  const renumber = new Map(order.map((state, i) => [state, i]));
  return {
    start: renumber.get(nfa.start)!,
    moves: order.map((state) =>
      nfa.moves[state]!.filter((move) => live.has(move.to)).map((move) => ({
        set: move.set,
        to: renumber.get(move.to)!,
      })),
    ),
    accepting: order.map((state) => nfa.accepting[state]!),
  };
}

function thompsonNfa(tree: RegexNode, search: boolean): Nfa {
  const graph: Thompson = { chars: [], empty: [], startOnly: [], endOnly: [] };
  const start = newState(graph);
  const accept = newState(graph);
  build(graph, search ? { t: "seq", items: [ANYTHING, tree, ANYTHING] } : tree, start, accept);
  return withoutEmptyMoves(graph, start, accept);
}

const ANYTHING: RegexNode = { t: "repeat", node: { t: "set", set: ANY_CHAR }, min: 0, max: Infinity };

/** The pattern's leading lookaheads and the rest, when they stand at its start (after ^, or matched whole). */
function leadingLookaheads(
  tree: RegexNode,
  search: boolean,
): { looks: Extract<RegexNode, { t: "look" }>[]; rest: RegexNode } {
  const items = tree.t === "seq" ? tree.items : [tree];
  const anchored = items[0]?.t === "assert" && items[0].at === "start";
  let at = anchored ? 1 : 0;
  const looks: Extract<RegexNode, { t: "look" }>[] = [];
  while (items[at]?.t === "look" && (anchored || !search)) looks.push(items[at++] as Extract<RegexNode, { t: "look" }>);
  if (looks.length === 0) return { looks, rest: tree };
  return { looks, rest: { t: "seq", items: [...items.slice(0, anchored ? 1 : 0), ...items.slice(at)] } };
}

/** The NFA of a pattern matched whole (guided_regex), or somewhere in the text (`search`: JSON Schema). Lookaheads
 * at the start of an anchored pattern intersect it with what they ask of the whole text (a negative one with its
 * complement). */
export function compileRegex(tree: RegexNode, search: boolean): Nfa {
  const { looks, rest } = leadingLookaheads(tree, search);
  let nfa = thompsonNfa(rest, search);
  for (const look of looks) {
    const prefix = thompsonNfa({ t: "seq", items: [look.node, ANYTHING] }, false);
    nfa = intersectNfa(nfa, look.negate ? complementNfa(prefix) : prefix);
  }
  return nfa;
}

/** The NFA of the strings the NFA refuses (determinized whole: a RegexProblem past MAX_STATES). */
export function complementNfa(nfa: Nfa): Nfa {
  const ids = new Map<string, number>();
  const sets: number[][] = [];
  const idOf = (members: number[]): number => {
    const key = members.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      if (sets.length >= MAX_STATES) throw new RegexProblem(`a lookahead needs more than ${MAX_STATES} states`);
      ids.set(key, (id = sets.push(members) - 1));
    }
    return id;
  };
  idOf([nfa.start]);
  const moves: Move[][] = [];
  const accepting: boolean[] = [];
  for (let d = 0; d < sets.length; d++) {
    const members = sets[d]!;
    accepting[d] = !members.some((m) => nfa.accepting[m]);
    const all = members.flatMap((m) => nfa.moves[m]!);
    const cuts = new Set([0, MAX_CODE_POINT + 1]);
    for (const move of all)
      for (let i = 0; i < move.set.length; i += 2) cuts.add(move.set[i]!).add(move.set[i + 1]! + 1);
    const points = [...cuts].sort((a, b) => a - b);
    moves[d] = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const set = charSet([[points[i]!, points[i + 1]! - 1]]);
      if (isEmpty(set)) continue;
      const targets = [...new Set(all.filter((move) => contains(move.set, points[i]!)).map((move) => move.to))];
      moves[d]!.push({ set, to: idOf(targets.sort((a, b) => a - b)) });
    }
  }
  return prune({ start: 0, moves, accepting });
}

/** The NFA of the strings both accept. */
export function intersectNfa(a: Nfa, b: Nfa): Nfa {
  const index = new Map<string, number>();
  const pairs: [number, number][] = [];
  const id = (x: number, y: number): number => {
    const key = `${x},${y}`;
    let found = index.get(key);
    if (found === undefined) {
      if (pairs.length >= MAX_STATES)
        throw new RegexProblem(`the patterns together need more than ${MAX_STATES} states`);
      index.set(key, (found = pairs.push([x, y]) - 1));
    }
    return found;
  };
  id(a.start, b.start);
  const moves: Move[][] = [];
  const accepting: boolean[] = [];
  for (let p = 0; p < pairs.length; p++) {
    const [x, y] = pairs[p]!;
    accepting[p] = a.accepting[x]! && b.accepting[y]!;
    moves[p] = [];
    for (const ma of a.moves[x]!)
      for (const mb of b.moves[y]!) {
        const set = intersect(ma.set, mb.set);
        if (!isEmpty(set)) moves[p]!.push({ set, to: id(ma.to, mb.to) });
      }
  }
  return prune({ start: 0, moves, accepting });
}

/** The code points some move of the state takes. */
export function firstChars(nfa: Nfa, state: number): CharSet {
  return nfa.moves[state]!.reduce<CharSet>((set, move) => union(set, move.set), []);
}
