// One path from a byte-level recognizer to the token masks of constrained decoding: JSON values of a schema
// (json-constraint.ts), a whole reply matching a regular expression (regex-constraint.ts) or a grammar
// (grammar-constraint.ts). A recognizer is a set of states stepped byte by byte; a token is allowed when its
// bytes keep some state alive, and preferred when a state after them can still finish within the tokens left
// (`rest`: the fewest bytes to a complete text, one token a byte at most, as the byte tokenizer and every byte
// fallback guarantee). The end tokens are allowed once some state is complete (and when nothing else is: a
// vocabulary that cannot write what comes next ends the reply).
//
// Tokens that fit come first: when none does and the text is not complete (max_tokens too small for the shortest
// completion), the mask is every token that keeps the text alive, and max_tokens cuts the reply (finish_reason "length", the text so far), as
// vLLM does. Multi-byte tokens are walked through a trie of the vocabulary's byte strings, so that tokens sharing
// a prefix step through it once.
import type { TokenConstraint } from "./token-masks.js";
import type { Vocabulary } from "./vocabulary.js";

export interface ByteMachine<S> {
  readonly initial: readonly S[];
  /** The states after byte b (none: b cannot come next). */
  step(state: S, b: number): readonly S[];
  /** True when the text so far is complete (the reply may end). */
  complete(state: S): boolean;
  /** The fewest bytes that complete the text (0 when complete; Infinity: never). */
  rest(state: S): number;
  /** The states with duplicates dropped (after each sampled token). */
  distinct(states: readonly S[]): S[];
}

interface TrieNode {
  readonly children: Map<number, TrieNode>;
  readonly tokens: number[];
}

const tries = new WeakMap<Vocabulary, Map<number, TrieNode>>();

/** The trie of the first `vocab` tokens' bytes (special tokens left out). */
function trieOf(vocabulary: Vocabulary, vocab: number): TrieNode {
  let byVocab = tries.get(vocabulary);
  if (byVocab === undefined) tries.set(vocabulary, (byVocab = new Map()));
  let root = byVocab.get(vocab);
  if (root !== undefined) return root;
  root = { children: new Map(), tokens: [] };
  for (let token = 0; token < vocab; token++) {
    let node = root;
    const bytes = vocabulary.bytes(token);
    if (bytes.length === 0) continue;
    for (const b of bytes) {
      let child = node.children.get(b);
      if (child === undefined) node.children.set(b, (child = { children: new Map(), tokens: [] }));
      node = child;
    }
    node.tokens.push(token);
  }
  byVocab.set(vocab, root);
  return root;
}

/** The constraint of one reply under the machine. */
export function machineConstraint<S>(machine: ByteMachine<S>, vocabulary: Vocabulary): TokenConstraint {
  let states: readonly S[] = machine.initial;
  let ended = false;
  return {
    mask(remaining, vocab) {
      const mask = new Uint8Array(vocab);
      if (ended) return mask.fill(1);
      const alive = new Uint8Array(vocab);
      // A token's bytes, then the rest of the text (a token a byte at most), then the end token.
      const fits = (state: S): boolean => machine.rest(state) + 2 <= remaining;
      const visit = (node: TrieNode, now: readonly S[]): void => {
        for (const [b, child] of node.children) {
          const next = now.flatMap((state) => machine.step(state, b));
          if (next.length === 0) continue;
          if (child.tokens.length > 0) {
            const fit = next.some(fits);
            for (const token of child.tokens) {
              alive[token] = 1;
              if (fit) mask[token] = 1;
            }
          }
          visit(child, next);
        }
      };
      visit(trieOf(vocabulary, vocab), states);
      const complete = states.some((state) => machine.complete(state));
      if (!complete && mask.every((allowed) => allowed === 0)) mask.set(alive);
      if (complete || mask.every((allowed) => allowed === 0))
        for (const end of vocabulary.endTokens) if (end < vocab) mask[end] = 1;
      return mask;
    },
    advance(token) {
      const bytes = vocabulary.bytes(token);
      if (bytes.length === 0) {
        ended = true;
        return;
      }
      for (const b of bytes) states = machine.distinct(states.flatMap((state) => machine.step(state, b)));
    },
  };
}

/** The fewest tokens of a reply under the machine: its fewest bytes and the end token. */
export function shortestText<S>(machine: ByteMachine<S>): number {
  return Math.min(...machine.initial.map((state) => machine.rest(state))) + 1;
}
