// Replies drawn under a constraint's masks, for the constrained-decoding tests: seeded draws among the allowed
// tokens of the byte vocabulary (printable ASCII favoured, so that keys, enums and literals get written), ended by
// the end token or cut at the budget.
import type { Rng } from "../../src/core/rng.js";
import { END } from "../../src/nn/tokenizer.js";
import type { TokenConstraint } from "../../src/serve/token-masks.js";

export interface Walked {
  readonly text: string;
  /** Tokens sampled, the end token included. */
  readonly tokens: number;
  /** True when the end token ended it (false: cut at the budget). */
  readonly ended: boolean;
}

export function walkConstraint(constraint: TokenConstraint, budget: number, rng: Rng, ascii = 0.8): Walked {
  const bytes: number[] = [];
  for (let k = 0; k < budget; k++) {
    const mask = constraint.mask(budget - k, 260);
    const allowed = [...mask.keys()].filter((token) => mask[token] === 1);
    const printable = allowed.filter((token) => token >= 0x20 && token < 0x7f);
    const pool = printable.length > 0 && rng.next() < ascii ? printable : allowed;
    const token = pool[rng.int(pool.length)]!;
    constraint.advance(token);
    if (token === END) return { text: Buffer.from(bytes).toString("utf8"), tokens: k + 1, ended: true };
    bytes.push(token);
  }
  return { text: Buffer.from(bytes).toString("utf8"), tokens: budget, ended: false };
}
