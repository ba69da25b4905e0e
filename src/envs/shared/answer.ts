// Reading an action out of a model's reply, the same way in every env. The reply may be bare ("Up") or
// wrapped ("<answer>Up</answer>"); when an <answer> tag is present (any ASCII case) its LAST opening decides,
// and the answer runs to the next </answer> or to the end of the text. The answer is then normalised
// (trimmed, lower-cased, decorations such as quotes, backticks, bold markers and a final full stop removed,
// inner whitespace collapsed) so that envs only look it up in a table of aliases.
// Linear time on any input; never throws. Answers longer than MAX_ANSWER_LENGTH are refused outright, so a
// huge or hostile reply costs no more than a scan.

/** Longest answer (after extraction, before normalisation) that is looked at at all. */
export const MAX_ANSWER_LENGTH = 200;

const OPEN_TAG = /<answer>/gi;
const CLOSE_TAG = /<\/answer>/gi;

/** The text that decides the action: the content of the last <answer> tag, or the whole reply. */
export function extractAnswer(reply: string): string {
  let lastOpen = -1;
  OPEN_TAG.lastIndex = 0;
  for (let match = OPEN_TAG.exec(reply); match !== null; match = OPEN_TAG.exec(reply)) lastOpen = match.index;
  if (lastOpen < 0) return reply;
  const start = lastOpen + "<answer>".length;
  CLOSE_TAG.lastIndex = start;
  const close = CLOSE_TAG.exec(reply);
  return reply.slice(start, close === null ? reply.length : close.index);
}

// Characters stripped from both ends of an answer: whitespace, quotes, markdown decorations, brackets and
// sentence punctuation.
const DECORATION = /^[\s"'`*_.,;:!?()[\]{}]+|[\s"'`*_.,;:!?()[\]{}]+$/g;
const INNER_SPACE = /\s+/g;

/** Normalised answer text, or null when the reply holds nothing usable (empty or too long). */
export function normalizeAnswer(reply: string): string | null {
  const answer = extractAnswer(reply);
  if (answer.length > MAX_ANSWER_LENGTH) return null;
  const normalized = answer.replace(DECORATION, "").replace(INNER_SPACE, " ").toLowerCase();
  return normalized === "" ? null : normalized;
}

/** Look a reply up in a table from normalised aliases to canonical action texts. */
export function parseChoice(reply: string, aliases: ReadonlyMap<string, string>): string | null {
  const direct = aliases.get(reply);
  if (direct !== undefined) return direct;
  const key = normalizeAnswer(reply);
  return key === null ? null : (aliases.get(key) ?? null);
}

/** Build an alias table from canonical texts to their aliases. Keys are normalised answers, plus each
 * canonical text as written (a fast path for exact replies; it gives the same result as normalising). */
export function aliasTable(entries: Readonly<Record<string, readonly string[]>>): ReadonlyMap<string, string> {
  const table = new Map<string, string>();
  for (const [canonical, aliases] of Object.entries(entries)) {
    table.set(canonical, canonical);
    table.set(canonical.toLowerCase(), canonical);
    for (const alias of aliases) table.set(alias.toLowerCase(), canonical);
  }
  return table;
}
