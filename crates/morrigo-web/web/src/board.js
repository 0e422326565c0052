// The board as SVG, drawn from the board graph /api/show gives (points
// with their layout, edges), with the pieces of a position.

const NS = "http://www.w3.org/2000/svg";
const NAMED = ["black", "white", "red", "blue", "green", "yellow", "orange", "purple"];
const SEAT = ["#222222", "#f4f4f4"];

export function pieceColour(players, seat) {
  const name = (players[seat] || "").toLowerCase();
  return NAMED.includes(name) ? name : SEAT[Math.min(seat, 1)];
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Draw `show.board` with `pos` (may be null) into `host`. `marks`:
// { selected: name, targets: Set of names }. `onClick(name)`.
export function drawBoard(host, show, pos, marks, onClick) {
  const b = show.board;
  host.innerHTML = "";
  const svg = el("svg", {
    viewBox: `0 0 ${b.width.toFixed(0)} ${b.height.toFixed(0)}`,
    width: "100%",
    "font-family": "sans-serif",
    "font-size": "11",
    role: "img",
    "aria-label": `board of ${show.name}`,
  });
  // Small boards are not blown up past 1.4 times their drawing size.
  svg.style.maxHeight = "560px";
  svg.style.maxWidth = `${(b.width * 1.4).toFixed(0)}px`;
  svg.style.display = "block";
  svg.style.margin = "0 auto";
  el("rect", { width: "100%", height: "100%", fill: "#e8c98f" }, svg);
  const edges = el("g", { stroke: "#3a2a10", "stroke-width": "2" }, svg);
  for (const [p, q] of b.edges) {
    const a = b.points[p], c = b.points[q];
    el("line", { x1: a.x, y1: a.y, x2: c.x, y2: c.y }, edges);
  }
  const labels = b.points.length <= 64;
  b.points.forEach((pt, i) => {
    const g = el("g", { class: "pt", "data-point": pt.name, "data-index": i }, svg);
    const title = el("title", {}, g);
    const owner = pos ? pos.board[i] : null;
    let hover = pt.name;
    if (owner === "mark") hover += ": marked";
    else if (owner !== null && owner !== undefined) hover += `: ${show.players[owner]}`;
    title.textContent = hover;
    // A generous invisible target so points are easy to click.
    el("circle", { cx: pt.x, cy: pt.y, r: 17, fill: "transparent", class: "hit" }, g);
    el("circle", { cx: pt.x, cy: pt.y, r: 4, fill: "#3a2a10" }, g);
    if (labels) {
      const t = el("text", { x: pt.x + 6, y: pt.y - 6, fill: "#5a4020", "pointer-events": "none" }, g);
      t.textContent = pt.name;
    }
    if (owner === "mark") {
      const d = 10;
      el("path", {
        d: `M${pt.x - d} ${pt.y - d}L${pt.x + d} ${pt.y + d}M${pt.x - d} ${pt.y + d}L${pt.x + d} ${pt.y - d}`,
        stroke: "#7a0000", "stroke-width": 4,
      }, g);
    } else if (owner !== null && owner !== undefined) {
      el("circle", {
        cx: pt.x, cy: pt.y, r: 15, fill: pieceColour(show.players, owner),
        stroke: "#000", "stroke-width": 1.5, class: `piece seat${owner}`,
      }, g);
    }
    if (marks && marks.selected === pt.name) {
      el("circle", { cx: pt.x, cy: pt.y, r: 19, fill: "none", stroke: "#0a7", "stroke-width": 3 }, g);
    }
    if (marks && marks.targets && marks.targets.has(pt.name)) {
      el("circle", { cx: pt.x, cy: pt.y, r: 6, fill: "#0a7", opacity: 0.7, class: "target" }, g);
    }
    g.addEventListener("click", () => onClick(pt.name));
  });
  host.appendChild(svg);
}
