// The Pass@(K,T) table as a heatmap, drawn on the server as inline SVG (no charting library, nothing to load): one
// row per K, one column per budget T in axis order, then the AUC; each cell coloured by its estimate (0% pale, 100%
// deep blue) and labelled with it and its bootstrap interval, the numbers `show` prints, in %.
import { html, type SafeHtml } from "../report/html/escape.js";
import type { PassAtKTTable, PassCell } from "../metrics/pass-at-kt.js";

const CELL = { width: 118, height: 46 };
const MARGIN = { left: 58, top: 26 };
const PALE = [247, 251, 255] as const;
const DEEP = [8, 81, 156] as const;

/** The fill of a value in [0, 1] (grey when there is none). */
export function heatColour(value: number): string {
  if (!Number.isFinite(value)) return "rgb(230,230,230)";
  const share = Math.min(1, Math.max(0, value));
  const channel = (i: 0 | 1 | 2): number => Math.round(PALE[i] + (DEEP[i] - PALE[i]) * share);
  return `rgb(${channel(0)},${channel(1)},${channel(2)})`;
}

const pct = (value: number): string => (value * 100).toFixed(1);

function cell(entry: PassCell | null, x: number, y: number): SafeHtml {
  const value = entry?.value ?? NaN;
  const ink = Number.isFinite(value) && value > 0.55 ? "#fff" : "#1d2430";
  const interval =
    entry !== null && Number.isFinite(entry.low) ? `[${pct(entry.low)}, ${pct(entry.high)}]` : "no interval";
  return html`<g>
    <rect x="${x}" y="${y}" width="${CELL.width - 2}" height="${CELL.height - 2}" rx="3" fill="${heatColour(value)}" />
    <text x="${x + CELL.width / 2 - 1}" y="${y + 19}" text-anchor="middle" fill="${ink}">
      ${Number.isFinite(value) ? `${pct(value)}%` : "-"}
    </text>
    <text class="small" x="${x + CELL.width / 2 - 1}" y="${y + 35}" text-anchor="middle" fill="${ink}"
      >${interval}</text
    >
  </g>`;
}

export function passHeatmap(table: PassAtKTTable): SafeHtml {
  const columns = [...table.budgets.map((spec) => `T = ${spec.label}`), "AUC"];
  const width = MARGIN.left + columns.length * CELL.width;
  const height = MARGIN.top + table.ks.length * CELL.height;
  const head = columns.map(
    (label, j) =>
      html`<text x="${MARGIN.left + j * CELL.width + CELL.width / 2}" y="16" text-anchor="middle">${label}</text>`,
  );
  const rows = table.ks.map((k, i) => {
    const y = MARGIN.top + i * CELL.height;
    const cells = [...(table.cells[i] ?? []), table.auc[i] ?? null].map((entry, j) =>
      cell(entry, MARGIN.left + j * CELL.width, y),
    );
    return html`<text x="${MARGIN.left - 10}" y="${y + CELL.height / 2 + 4}" text-anchor="end">K = ${k}</text>${cells}`;
  });
  return html`<svg
    class="heatmap"
    id="pass-heatmap"
    role="img"
    aria-label="Pass@(K,T) heatmap"
    width="${width}"
    height="${height}"
    viewBox="0 0 ${width} ${height}"
    xmlns="http://www.w3.org/2000/svg"
  >
    ${head}${rows}
  </svg>`;
}
