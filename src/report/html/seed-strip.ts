// A strip of dots beside a pooled Pass@1: each seed's own Pass@1 on a 0-100% line (seed-spread.ts), so a collapse in
// some seeds shows in the budget table itself. Each dot's title says its seed, its Pass@1 and its invalid replies.
import type { StudySeedPoint } from "../study-model.js";
import { html, type SafeHtml } from "./escape.js";

const WIDTH = 80;
const PAD = 3;

const percentText = (value: number | null): string => (value === null ? "-" : `${(100 * value).toFixed(1)}%`);

/** The strip, or null with fewer than two seeds that have a value. */
export function seedStrip(points: readonly StudySeedPoint[]): SafeHtml | null {
  const shown = points.filter((point): point is StudySeedPoint & { pass1: number } => point.pass1 !== null);
  if (shown.length < 2) return null;
  const x = (value: number): string => (PAD + value * (WIDTH - 2 * PAD)).toFixed(1);
  const label = `Pass@1 by seed: ${shown.map((point) => `seed ${point.seed} ${percentText(point.pass1)}`).join(", ")}`;
  return html`<svg
    class="seed-strip"
    width="${WIDTH}"
    height="12"
    viewBox="0 0 ${WIDTH} 12"
    role="img"
    aria-label="${label}"
  >
    <line x1="${PAD}" y1="6" x2="${WIDTH - PAD}" y2="6"></line>
    ${shown.map((point) => {
      const title = `seed ${point.seed}: Pass@1 ${percentText(point.pass1)}, invalid replies ${percentText(point.invalid)}`;
      return html`<circle cx="${x(point.pass1)}" cy="6" r="2.6"><title>${title}</title></circle>`;
    })}
  </svg>`;
}
