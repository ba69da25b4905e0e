// The DFA of a regular expression's NFA (regex-automaton.ts), built lazily, state by state as decoding reaches
// them, with what constrained decoding asks of a state: its move on a code point, whether some code point of a
// range [lo, hi] leads on (a character whose first bytes are written), and the distances to an accepting state.
//
// Distances are the fewest characters, or the fewest bytes (a character costing its cheapest writing under an
// encoding: "json" inside a JSON string, "raw" as UTF-8), of a completion with at least `need` more characters; a
// DFA state's is the least of its NFA states' (one of them accepting is enough). They are computed on the NFA,
// backwards from the accepting states, in layers need = 0..N (N the largest asked so far), with Dijkstra's
// algorithm (costs 1..6).
import { contains, intersect, isEmpty, overlaps, type CharSet } from "./char-set.js";
import type { Nfa } from "./regex-automaton.js";

export type Encoding = "json" | "raw";

/** The cost in bytes of the characters of each class, per encoding (the cheapest class a set meets is its cost). */
const COSTS: Readonly<Record<Encoding, readonly (readonly [CharSet, number])[]>> = {
  json: [
    [[0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f], 1],
    [[0x08, 0x0a, 0x0c, 0x0d, 0x22, 0x22, 0x5c, 0x5c, 0x80, 0x7ff], 2],
    [[0x800, 0xd7ff, 0xe000, 0xffff], 3],
    [[0x10000, 0x10ffff], 4],
    [[0x00, 0x07, 0x0b, 0x0b, 0x0e, 0x1f], 6],
  ],
  raw: [
    [[0x00, 0x7f], 1],
    [[0x80, 0x7ff], 2],
    [[0x800, 0xd7ff, 0xe000, 0xffff], 3],
    [[0x10000, 0x10ffff], 4],
  ],
};

/** The fewest bytes of one character of the set under the encoding. */
export function cheapest(set: CharSet, encoding: Encoding): number {
  let best = Infinity;
  for (const [members, cost] of COSTS[encoding]) if (cost < best && !isEmpty(intersect(set, members))) best = cost;
  return best;
}

interface DfaState {
  readonly members: readonly number[];
  readonly accepting: boolean;
  /** Disjoint ranges [lo, hi] and their targets, in order; computed when first asked. */
  ranges: { readonly lo: number; readonly hi: number; readonly to: number }[] | undefined;
}

/** Per `need` 0..N, per NFA state, its distance (Infinity: none). */
type Layers = readonly Float64Array[];

export class LazyDfa {
  readonly start = 0;
  private readonly states: DfaState[] = [];
  private readonly ids = new Map<string, number>();
  private readonly layers = new Map<string, Layers>();
  private readonly fewestCache = new Map<string, number>();

  constructor(readonly nfa: Nfa) {
    this.stateOf([nfa.start]);
  }

  private stateOf(members: readonly number[]): number {
    const key = members.join(",");
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.states.length;
      this.states.push({ members, accepting: members.some((m) => this.nfa.accepting[m]!), ranges: undefined });
      this.ids.set(key, id);
    }
    return id;
  }

  accepts(state: number): boolean {
    return this.states[state]!.accepting;
  }

  private rangesOf(state: number): NonNullable<DfaState["ranges"]> {
    const found = this.states[state]!;
    if (found.ranges !== undefined) return found.ranges;
    const moves = found.members.flatMap((member) => this.nfa.moves[member]!);
    const cuts = new Set<number>();
    for (const move of moves)
      for (let i = 0; i < move.set.length; i += 2) cuts.add(move.set[i]!).add(move.set[i + 1]! + 1);
    const points = [...cuts].sort((a, b) => a - b);
    const ranges: NonNullable<DfaState["ranges"]> = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const lo = points[i]!;
      const hi = points[i + 1]! - 1;
      const targets = [...new Set(moves.filter((move) => contains(move.set, lo)).map((move) => move.to))];
      if (targets.length === 0) continue;
      const to = this.stateOf(targets.sort((a, b) => a - b));
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last.to === to && last.hi + 1 === lo)
        ranges[ranges.length - 1] = { lo: last.lo, hi, to };
      else ranges.push({ lo, hi, to });
    }
    found.ranges = ranges;
    return ranges;
  }

  /** The state after code point `cp`, or -1 (no move). */
  next(state: number, cp: number): number {
    const ranges = this.rangesOf(state);
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const range = ranges[mid]!;
      if (cp < range.lo) high = mid - 1;
      else if (cp > range.hi) low = mid + 1;
      else return range.to;
    }
    return -1;
  }

  /** The targets of the code points in [lo, hi] that have a move (each once). */
  targetsIn(state: number, lo: number, hi: number): number[] {
    const out = new Set<number>();
    for (const range of this.rangesOf(state)) if (range.lo <= hi && range.hi >= lo) out.add(range.to);
    return [...out];
  }

  /** The fewest characters (encoding undefined) or bytes of a completion with at least `need` more characters. */
  fewest(state: number, need: number, encoding?: Encoding): number {
    const key = `${state}/${need}/${encoding ?? "chars"}`;
    let found = this.fewestCache.get(key);
    if (found === undefined) {
      const layer = this.layersFor(need, encoding)[need]!;
      found = Math.min(...this.states[state]!.members.map((member) => layer[member]!));
      this.fewestCache.set(key, found);
    }
    return found;
  }

  private layersFor(need: number, encoding: Encoding | undefined): Layers {
    const name = encoding ?? "chars";
    let layers = this.layers.get(name);
    if (layers === undefined || layers.length <= need) {
      layers = distances(this.nfa, Math.max(need, 2 * ((layers?.length ?? 1) - 1)), encoding);
      this.layers.set(name, layers);
      this.fewestCache.clear();
    }
    return layers;
  }
}

/** dist[r][p]: the fewest (weighted) characters from NFA state p to acceptance with at least r more characters. */
function distances(nfa: Nfa, most: number, encoding: Encoding | undefined): Layers {
  const n = nfa.moves.length;
  const dist = Array.from({ length: most + 1 }, () => new Float64Array(n).fill(Infinity));
  const incoming: { from: number; cost: number }[][] = Array.from({ length: n }, () => []);
  nfa.moves.forEach((moves, from) =>
    moves.forEach((move) =>
      incoming[move.to]!.push({ from, cost: encoding === undefined ? 1 : cheapest(move.set, encoding) }),
    ),
  );
  // Dial's buckets: costs are small integers.
  const buckets: [number, number][][] = [];
  const push = (d: number, r: number, p: number): void => {
    if (d >= dist[r]![p]!) return;
    dist[r]![p] = d;
    (buckets[d] ??= []).push([r, p]);
  };
  nfa.accepting.forEach((accepts, p) => accepts && push(0, 0, p));
  for (let d = 0; d < buckets.length; d++)
    for (const [r, q] of buckets[d] ?? []) {
      if (dist[r]![q] !== d) continue;
      for (const { from, cost } of incoming[q]!) {
        if (r + 1 <= most) push(d + cost, r + 1, from);
        if (r === 0) push(d + cost, 0, from);
      }
    }
  return dist;
}

export { overlaps };
