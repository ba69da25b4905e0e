// The four grid moves shared by sokoban and frozenlake: canonical texts, aliases, and flat-index offsets.
// Canonical texts are exactly "Up", "Down", "Left", "Right" (what actions.valid and the oracles return);
// replies may also say "u", "north", "move up", "↑", ... in any case.
import { aliasTable, parseChoice } from "./answer.js";

export const DIRECTIONS = ["Up", "Down", "Left", "Right"] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Row and column change of each direction, indexed like DIRECTIONS. */
export const ROW_DELTA: readonly number[] = [-1, 1, 0, 0];
export const COLUMN_DELTA: readonly number[] = [0, 0, -1, 1];

const ALIASES = aliasTable({
  Up: ["u", "north", "n", "move up", "go up", "↑", "^"],
  Down: ["d", "south", "s", "move down", "go down", "↓", "v"],
  Left: ["l", "west", "w", "move left", "go left", "←", "<"],
  Right: ["r", "east", "e", "move right", "go right", "→", ">"],
});

const INDEX = new Map<string, number>(DIRECTIONS.map((direction, index) => [direction, index]));

/** Index into DIRECTIONS of the direction a reply names, or -1 when it names none. */
export function parseDirection(reply: string): number {
  const canonical = parseChoice(reply, ALIASES);
  return canonical === null ? -1 : (INDEX.get(canonical) ?? -1);
}

/** The canonical direction a reply message names, or null (the envs' actions.parse). */
export function directionOfReply(reply: { readonly content: string }): Direction | null {
  const index = parseDirection(typeof reply.content === "string" ? reply.content : "");
  return index < 0 ? null : DIRECTIONS[index]!;
}

/** Offset of each direction in a row-major flat grid of the given width. */
export function flatOffsets(width: number): readonly number[] {
  return DIRECTIONS.map((_, index) => ROW_DELTA[index]! * width + COLUMN_DELTA[index]!);
}

/** The directions of a 4-bit mask (bit d = DIRECTIONS[d]), in DIRECTIONS order; one frozen array per mask. */
const DIRECTIONS_BY_MASK: readonly (readonly Direction[])[] = Array.from({ length: 16 }, (_, mask) =>
  Object.freeze(DIRECTIONS.filter((_, direction) => (mask & (1 << direction)) !== 0)),
);

export function directionsOfMask(mask: number): readonly Direction[] {
  return DIRECTIONS_BY_MASK[mask & 15]!;
}
