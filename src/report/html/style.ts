// The report's stylesheet: system fonts, a calm palette, cards for findings, readable tables.
export const REPORT_CSS = `
:root { --ink: #1d2733; --muted: #5f6b7a; --line: #e3e8ef; --paper: #ffffff; --wash: #f5f7fa; --accent: #4e79a7;
  --good: #2e7d32; --bad: #c62828; --maybe: #b26a00; --flat: #8d6e63; --none: #78909c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: var(--wash); }
header.top { background: linear-gradient(120deg, #22364d, #3d5f84); color: #fff; padding: 28px 0 22px; }
header.top h1 { margin: 0 0 6px; font-size: 28px; letter-spacing: -0.01em; }
header.top .meta { opacity: 0.85; font-size: 13px; }
.wrap { max-width: 1240px; margin: 0 auto; padding: 0 24px; }
nav.toc { position: sticky; top: 0; z-index: 5; background: rgba(255,255,255,0.96); border-bottom: 1px solid var(--line); }
nav.toc a { display: inline-block; padding: 10px 12px; color: var(--ink); text-decoration: none; font-size: 14px; }
nav.toc a:hover { color: var(--accent); }
section { background: var(--paper); margin: 22px 0; padding: 22px 26px; border-radius: 10px; box-shadow: 0 1px 3px rgba(20,30,50,0.08); }
section > h2 { margin: 0 0 4px; font-size: 21px; }
section > p.lead { margin: 0 0 16px; color: var(--muted); max-width: 70em; }
h3 { font-size: 16px; margin: 22px 0 8px; }
h4.invalid-replies { font-size: 14px; margin: 4px 0 4px; color: var(--muted); font-weight: 600; }
figure.chart-box { margin: 14px 0 22px; overflow-x: auto; }
figure.chart-box h4 { margin: 0 0 6px; font-size: 15px; }
figure.chart-box figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
.chart { min-height: 40px; }
.chart[data-rendered="error"] { color: var(--bad); }
.findings { display: grid; grid-template-columns: 1fr; gap: 16px; }
.finding { border: 1px solid var(--line); border-left: 6px solid var(--none); border-radius: 8px; padding: 14px 18px; }
.finding.v-supported { border-left-color: var(--good); }
.finding.v-not-supported { border-left-color: var(--bad); }
.finding.v-inconclusive { border-left-color: var(--maybe); }
.finding.v-negligible { border-left-color: var(--flat); }
.finding.v-tied { border-left-color: var(--flat); }
.finding h3 { margin: 0 0 4px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.finding .claim { color: var(--muted); margin: 0 0 8px; }
.plan { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; margin: 0 0 16px; background: var(--wash); }
.finding ul { margin: 6px 0 0; padding-left: 18px; }
.finding li { margin: 3px 0; font-size: 14px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 2px 9px; border-radius: 999px; color: #fff; background: var(--none); text-transform: uppercase; letter-spacing: 0.03em; }
.badge.v-supported { background: var(--good); }
.badge.v-not-supported { background: var(--bad); }
.badge.v-inconclusive { background: var(--maybe); }
.badge.v-negligible { background: var(--flat); }
.badge.v-tied { background: var(--flat); }
.badge.small { font-size: 11px; padding: 1px 7px; text-transform: none; }
table.data { border-collapse: collapse; font-size: 13.5px; margin: 6px 0 14px; }
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: right; white-space: nowrap; vertical-align: top; }
table.data th { background: var(--wash); font-weight: 600; }
table.data td.name, table.data th.name { text-align: left; }
table.data th { white-space: normal; }
table.data td.wrap-text { white-space: normal; text-align: left; max-width: 46em; }
table.data td.path { white-space: normal; overflow-wrap: anywhere; text-align: left; }
table.data td.model { white-space: normal; overflow-wrap: anywhere; text-align: left; max-width: 16em; }
table.data .ci { color: var(--muted); font-size: 12px; display: block; }
.seed-strip { display: block; margin: 2px 0 0 auto; }
.seed-strip line { stroke: var(--muted); stroke-width: 1; }
.seed-strip circle { fill: var(--accent); fill-opacity: 0.55; }
table.data td.best { font-weight: 700; }
.scroll { overflow-x: auto; }
.note { color: var(--muted); font-size: 13px; }
ul.notes li { margin: 3px 0; color: var(--muted); }
details { margin: 4px 0; }
details summary { cursor: pointer; color: var(--accent); }
pre { background: var(--wash); padding: 10px 12px; border-radius: 6px; overflow-x: auto; font-size: 12.5px; line-height: 1.4; max-height: 28em; }
.episode { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 10px 0; }
.episode ol { margin: 6px 0 0; padding-left: 26px; }
.episode li { margin: 2px 0; font-size: 13.5px; }
.episode code { white-space: pre-wrap; word-break: break-word; background: var(--wash); padding: 1px 4px; border-radius: 4px; }
.ok { color: var(--good); } .bad { color: var(--bad); }
footer { color: var(--muted); font-size: 12.5px; padding: 10px 0 40px; }
`;
