// The view's two assets, served from memory (nothing from a CDN: the view works offline): its stylesheet and one
// small script. Pages are complete without the script (links and GET forms do everything); it adds keys: j or the
// right arrow opens the next episode (the page's rel="next" link), k or the left arrow the previous one, and a
// filter's select submits its form when changed. It never reads page text into markup.

export const VIEW_CSS = `
:root { --ink: #1d2430; --muted: #5b6576; --line: #d9dee7; --soft: #f4f6f9; --accent: #2357c6; --good: #1a7f45;
  --bad: #b42318; --warn: #a15c00; --mark: #fff4c2; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Liberation Sans", sans-serif; color: var(--ink);
  background: #fff; }
header.top { display: flex; gap: 18px; align-items: baseline; padding: 10px 24px; border-bottom: 1px solid var(--line);
  background: var(--soft); }
header.top .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header.top .where { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
main { padding: 16px 24px 48px; max-width: 1500px; }
h1 { font-size: 20px; margin: 4px 0 8px; overflow-wrap: anywhere; }
h2 { font-size: 16px; margin: 26px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 18px 0 6px; }
a { color: var(--accent); }
.muted { color: var(--muted); }
.facts { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 4px 0 10px; color: var(--muted); }
.facts b { color: var(--ink); font-weight: 600; }
table.data { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left;
  vertical-align: top; }
table.data th { background: var(--soft); font-weight: 600; }
table.data td.num, table.data th.num { text-align: right; }
table.data tr.group th { background: #e8ecf3; text-align: left; }
table.data td.id, table.data th.id { overflow-wrap: break-word; max-width: 300px; }
table.data td.policy { max-width: 230px; }
td.pass { min-width: 190px; }
td.when { white-space: nowrap; }
.scroll { overflow-x: auto; }
.ok { color: var(--good); font-weight: 600; }
.fail { color: var(--bad); font-weight: 600; }
.warn { color: var(--warn); font-weight: 600; }
.tag { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 12px; border: 1px solid var(--line);
  background: var(--soft); white-space: nowrap; }
.tag.ok { border-color: #a6d8b8; background: #ecf8f0; }
.tag.fail { border-color: #f1b5ae; background: #fdf0ee; }
.tag.warn { border-color: #f0cf94; background: #fff6e5; }
.tag.forced { border-color: #b7c5ef; background: #eef2fd; color: #233f8f; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin: 8px 0; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
form.filters input, form.filters select { font: inherit; padding: 3px 6px; min-width: 90px; }
button { font: inherit; padding: 3px 12px; }
.pager { display: flex; gap: 12px; align-items: center; margin: 8px 0; color: var(--muted); }
pre.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; padding: 8px 10px; background: var(--soft);
  border: 1px solid var(--line); border-radius: 4px; font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", "Liberation Mono",
  monospace; }
pre.config { max-height: 420px; overflow: auto; }
.turn { border: 1px solid var(--line); border-radius: 6px; margin: 12px 0; padding: 8px 12px; }
.turn.forced { border-color: #b7c5ef; }
.turn > .body { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 4px 18px; }
.turn h3 { margin: 4px 0; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
tr.diverge > th, td.diverge { background: var(--mark); }
.turn > .head { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: baseline; margin-bottom: 6px; }
.turn > .head .index { font-weight: 700; }
.message { margin: 6px 0; }
.message .role { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.nav { display: flex; gap: 16px; align-items: center; margin: 8px 0 4px; }
.nav .keys { color: var(--muted); font-size: 12px; }
.heatmap text { font: 12px system-ui, sans-serif; }
.heatmap text.small { font-size: 10.5px; }
.side-table td { min-width: 240px; max-width: 520px; }
details > summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
.calls td, .calls th { font-size: 12.5px; }
@media (max-width: 900px) { .turn > .body { grid-template-columns: minmax(0, 1fr); } main { padding: 12px; } }
`;

export const VIEW_SCRIPT = `(function () {
  var KEYS = { j: "next", ArrowRight: "next", k: "prev", ArrowLeft: "prev" };
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName)) return;
    var rel = KEYS[event.key];
    if (rel === undefined) return;
    var link = document.querySelector('a[rel="' + rel + '"]');
    if (link === null) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
  document.querySelectorAll("form[data-autosubmit] select").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
`;
