// The compare charts as inline SVG: outcomes per row, game lengths, and
// the rules that came into play, from the reports of /api/compare/{job}.

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

const LABEL_W = 300;
const BAR_W = 420;
const ROW_H = 24;

function label(r) {
  return `${r.title || r.ruleset} (${r.agents[0]} vs ${r.agents[1]})`;
}

function frame(title, rows, extra = 0) {
  const h = 40 + rows * ROW_H + extra;
  const svg = el("svg", {
    width: LABEL_W + BAR_W + 80, height: h, "font-family": "sans-serif", "font-size": 12,
    class: "chart", role: "img", "aria-label": title,
  });
  el("text", { x: 4, y: 16, "font-weight": "bold" }, svg, title);
  return svg;
}

export function outcomesChart(reports) {
  const svg = frame("Outcomes (share of games)", reports.length, 24);
  const parts = (r) => [
    [r.wins[0], "#444", `${r.players[0]} wins`],
    [r.wins[1], "#bbb", `${r.players[1]} wins`],
    [r.draws, "#6a9fd8", "draws"],
    [(r.no_results || 0) + r.unfinished, "#e0a040", "no result / unfinished"],
  ];
  reports.forEach((r, i) => {
    const y = 28 + i * ROW_H;
    el("text", { x: 4, y: y + 14 }, svg, label(r));
    let x = LABEL_W;
    for (const [n, colour, what] of parts(r)) {
      const w = r.games ? (BAR_W * n) / r.games : 0;
      if (w <= 0) continue;
      const rect = el("rect", { x, y, width: w, height: ROW_H - 6, fill: colour, stroke: "#222", "stroke-width": 0.5 }, svg);
      el("title", {}, rect, `${what}: ${n} of ${r.games}`);
      x += w;
    }
  });
  // Legend: seat colours (the seats' player names differ per ruleset).
  const ly = 34 + reports.length * ROW_H;
  [["#444", "first seat wins"], ["#bbb", "second seat wins"], ["#6a9fd8", "draws"], ["#e0a040", "no result / unfinished"]]
    .forEach(([c, t], k) => {
      el("rect", { x: LABEL_W + k * 110, y: ly - 10, width: 10, height: 10, fill: c }, svg);
      el("text", { x: LABEL_W + k * 110 + 14, y: ly }, svg, t);
    });
  return svg;
}

export function lengthsChart(reports) {
  const svg = frame("Game length in plies (min, Q1, median, Q3, max; dot: mean)", reports.length, 20);
  const max = Math.max(1, ...reports.map((r) => r.length.max));
  const sx = (v) => LABEL_W + (BAR_W * v) / max;
  reports.forEach((r, i) => {
    const y = 28 + i * ROW_H, mid = y + (ROW_H - 6) / 2, L = r.length;
    el("text", { x: 4, y: y + 14 }, svg, label(r));
    el("line", { x1: sx(L.min), x2: sx(L.max), y1: mid, y2: mid, stroke: "#333" }, svg);
    const box = el("rect", { x: sx(L.q1), y, width: Math.max(1, sx(L.q3) - sx(L.q1)), height: ROW_H - 6, fill: "#9cc89c", stroke: "#333" }, svg);
    el("title", {}, box, `min ${L.min}, Q1 ${L.q1}, median ${L.median}, Q3 ${L.q3}, max ${L.max}, mean ${L.mean.toFixed(1)}`);
    el("line", { x1: sx(L.median), x2: sx(L.median), y1: y, y2: y + ROW_H - 6, stroke: "#000", "stroke-width": 2 }, svg);
    el("circle", { cx: sx(L.mean), cy: mid, r: 3, fill: "#c00" }, svg);
  });
  const ay = 34 + reports.length * ROW_H;
  el("text", { x: LABEL_W, y: ay }, svg, "0");
  el("text", { x: LABEL_W + BAR_W, y: ay, "text-anchor": "end" }, svg, String(max));
  return svg;
}

// Rules fired: the end rules that decided games and the rule events,
// per game, grouped by row.
export function rulesChart(reports) {
  const items = [];
  for (const r of reports) {
    items.push([label(r), null, 0, ""]);
    for (const [rule, n] of r.end_rules) if (n > 0) items.push([label(r), `ended by ${rule}`, n / r.games, `${n} games`]);
    for (const e of r.events) if (e.count > 0) items.push([label(r), e.event, e.count / r.games, `${e.count} in all`]);
  }
  const svg = frame("Rules fired (per game)", Math.max(items.length, 1));
  const max = Math.max(1e-9, ...items.map((it) => it[2]));
  items.forEach(([row, what, v, all], i) => {
    const y = 28 + i * ROW_H;
    if (what === null) {
      el("text", { x: 4, y: y + 14, "font-style": "italic" }, svg, row);
      return;
    }
    el("text", { x: 20, y: y + 14 }, svg, what);
    const w = (BAR_W * v) / max;
    const rect = el("rect", { x: LABEL_W, y, width: Math.max(1, w), height: ROW_H - 6, fill: "#c08850", class: "event" }, svg);
    el("title", {}, rect, `${row}: ${what}: ${v.toFixed(2)} per game (${all})`);
    el("text", { x: LABEL_W + w + 4, y: y + 14 }, svg, v.toFixed(2));
  });
  return svg;
}
