// The Morrigo playground page: editor, summary, board, play, compare.

import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { yaml } from "@codemirror/lang-yaml";
import { linter, lintGutter, setDiagnostics } from "@codemirror/lint";
import { get, post, del, ApiError } from "./api.js";
import { drawBoard } from "./board.js";
import { outcomesChart, lengthsChart, rulesChart } from "./charts.js";

const $ = (sel) => document.querySelector(sel);

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

const AGENTS = ["human", "uniform", "random", "greedy", "alphabeta:depth=3", "mcts:playouts=300", "perfect"];

const app = {
  name: "nine-mens-morris.yaml",
  editor: null,
  show: null, // /api/show of the rules in play
  pos: null, // position of the game
  record: "",
  selected: null,
  rulesOk: false,
  generation: 0, // bumps on every new game or undo: stale agent moves are dropped
  thinking: false,
  builtins: [],
  files: [],
  directory: null,
  comparePoll: null, // the running compare's job URL, for Cancel
};
window.morrigo = app;

// ---------------------------------------------------------------- layout

function layout() {
  $("#app").replaceChildren(
    h("header", {},
      h("h1", {}, "Morrigo playground"),
      h("label", {}, "built-in ", h("select", { id: "builtin", onchange: (e) => openBuiltin(e.target.value) })),
      h("label", {}, "file ", h("select", { id: "file", onchange: (e) => e.target.value && openFile(e.target.value) })),
      h("label", { title: "grid rulesets: 9 or 7x5" }, "size ", h("input", { id: "size", size: 4, placeholder: "as file", onchange: () => recheck() })),
      h("label", { title: "rulesets with scoring" }, "komi ", h("input", { id: "komi", size: 4, placeholder: "as file", onchange: () => recheck() })),
      h("label", {}, "save as ", h("input", { id: "save-name", size: 18 })),
      h("button", { id: "save", onclick: save }, "Save"),
      h("span", { id: "save-status", class: "status" }),
    ),
    h("main", {},
      h("section", { id: "edit" },
        h("h2", {}, "Ruleset ", h("span", { id: "check-status", class: "status" })),
        h("div", { id: "editor" }),
        h("div", { id: "diagnostics" }),
        h("details", { id: "summary-box", open: true }, h("summary", {}, "Compiled rules (show)"), h("pre", { id: "summary" })),
      ),
      h("section", { id: "play" },
        h("h2", {}, "Board ", h("span", { id: "title", class: "status" })),
        h("div", { id: "seats" }),
        h("div", { id: "board" }),
        h("div", { id: "status-line" }),
        h("div", { id: "passes" }),
        h("div", { id: "exact" }),
        h("div", { id: "refusal", role: "alert" }),
        h("div", { class: "buttons" },
          h("button", { id: "new-game", onclick: () => newGame("") }, "New game"),
          h("button", { id: "undo", onclick: undo }, "Undo"),
        ),
      ),
      h("section", { id: "record-panel" },
        h("h2", {}, "Moves"),
        h("ol", { id: "moves" }),
        h("div", { id: "result" }),
        h("h3", {}, "Record"),
        h("textarea", { id: "record", rows: 3, spellcheck: "false" }),
        h("div", { class: "buttons" },
          h("button", { id: "load-record", onclick: () => newGame($("#record").value) }, "Load record"),
          h("button", { id: "save-record", onclick: saveRecord }, "Save record"),
          h("button", { id: "export-sgf", onclick: exportSgf }, "Save SGF"),
          h("label", { class: "file-button" }, "Load SGF ", h("input", { id: "import-sgf", type: "file", accept: ".sgf", onchange: importSgf })),
        ),
        h("div", { id: "record-status", class: "status" }),
      ),
    ),
    h("section", { id: "compare" },
      h("h2", {}, "Compare"),
      h("div", { class: "compare-form" },
        h("div", {},
          h("label", {}, h("input", { type: "checkbox", id: "cmp-editor", checked: true }), " the editor's ruleset"),
          h("div", {}, "and built-ins:"),
          h("select", { id: "cmp-builtins", multiple: true, size: 6 }),
        ),
        h("div", { id: "cmp-pairings" }),
        h("div", {},
          h("button", { onclick: () => addPairing("random", "random") }, "+ pairing"), " ",
          h("label", {}, "games per row ", h("input", { id: "cmp-games", type: "number", value: 20, min: 1, style: "width:5em" })), " ",
          h("label", {}, "seed ", h("input", { id: "cmp-seed", type: "number", value: 1, style: "width:5em" })), " ",
          h("button", { id: "compare-run", onclick: runCompare }, "Run compare"), " ",
          h("button", { id: "compare-cancel", onclick: cancelCompare, disabled: true }, "Cancel"),
        ),
      ),
      h("progress", { id: "compare-progress", max: 1, value: 0 }),
      h("span", { id: "compare-status", class: "status" }),
      h("div", { id: "compare-charts" }),
      h("details", {}, h("summary", {}, "Table"), h("pre", { id: "compare-table" })),
    ),
  );
  addPairing("random", "greedy");
}

function addPairing(a, b) {
  const row = h("div", { class: "pairing" },
    "agents: ", h("input", { class: "agent-a", value: a, size: 18 }), " vs ", h("input", { class: "agent-b", value: b, size: 18 }),
    h("button", { onclick: () => row.remove(), title: "remove" }, "×"));
  $("#cmp-pairings").append(row);
}

// ---------------------------------------------------------------- rulesets

function rulesetRef() {
  const r = { text: app.editor.state.doc.toString(), name: app.name };
  const size = $("#size").value.trim();
  const komi = $("#komi").value.trim();
  if (size) r.size = size;
  if (komi) r.komi = Number(komi);
  return r;
}

function setEditorText(text) {
  app.editor.dispatch({ changes: { from: 0, to: app.editor.state.doc.length, insert: text } });
}

async function openBuiltin(name) {
  if (!name) return;
  const src = await get(`/api/source?builtin=${encodeURIComponent(name)}`);
  app.name = `${src.name}.yaml`;
  $("#save-name").value = app.name;
  $("#file").value = "";
  setEditorText(src.text);
}

async function openFile(name) {
  const src = await get(`/api/source?file=${encodeURIComponent(name)}`);
  app.name = name;
  $("#save-name").value = name;
  $("#builtin").value = "";
  setEditorText(src.text);
}

async function save() {
  const file = $("#save-name").value.trim();
  try {
    const r = await post("/api/save", { file, text: app.editor.state.doc.toString() });
    app.name = file;
    $("#save-status").textContent = `saved ${r.saved}${r.ok ? "" : " (with errors)"}`;
    await refreshLists();
    $("#file").value = file;
  } catch (e) {
    $("#save-status").textContent = e.message;
  }
}

async function refreshLists() {
  const r = await get("/api/rulesets");
  app.builtins = r.builtins;
  app.files = r.files;
  app.directory = r.directory;
  const pick = $("#builtin");
  const keep = pick.value;
  pick.replaceChildren(h("option", { value: "" }, "—"),
    ...r.builtins.map((b) => h("option", { value: b.name }, `${b.family ? b.family + "/" : ""}${b.name}`)));
  pick.value = keep;
  $("#file").replaceChildren(h("option", { value: "" }, r.directory ? "—" : "(no directory)"),
    ...r.files.map((f) => h("option", { value: f }, f)));
  $("#save").disabled = !r.directory;
  $("#save").title = r.directory ? `save into ${r.directory}` : "start the server as `morrigo serve DIR` to save";
  const cmp = $("#cmp-builtins");
  if (!cmp.options.length) cmp.replaceChildren(...r.builtins.map((b) => h("option", { value: b.name }, b.name)));
}

// The lint source: /api/check on the buffer; diagnostics of this file at
// their line and column, the others (in a parent file) listed below.
async function checkSource(view) {
  const doc = view.state.doc;
  let r;
  try {
    r = await post("/api/check", { ruleset: rulesetRef() });
  } catch (e) {
    showDiagnostics([e.diagnostic], false);
    return [];
  }
  const mine = (loc) => loc && (loc.file === app.name || loc.file.endsWith("/" + app.name));
  const out = [];
  for (const d of r.diagnostics) {
    if (!mine(d.location)) continue;
    const line = doc.line(Math.min(Math.max(d.location.line, 1), doc.lines));
    const from = Math.min(line.from + d.location.col - 1, line.to);
    const word = /^[\w.]+/.exec(doc.sliceString(from, line.to));
    const to = Math.min(line.to, from + (word ? word[0].length : 1));
    out.push({ from, to: Math.max(to, from), severity: "error", message: diagnosticText(d) });
  }
  showDiagnostics(r.diagnostics, r.ok);
  if (r.ok) rulesChanged();
  else app.rulesOk = false;
  return out;
}

function diagnosticText(d) {
  let t = d.message;
  if (d.expected) t += `\nexpected ${d.expected}`;
  for (const n of d.notes || []) t += `\nnote: ${n}`;
  return t;
}

function showDiagnostics(ds, ok) {
  $("#check-status").textContent = ok ? "✓ checks" : `${ds.length} error${ds.length === 1 ? "" : "s"}`;
  $("#check-status").className = ok ? "status ok" : "status bad";
  $("#diagnostics").replaceChildren(...ds.map((d) =>
    h("div", { class: "diagnostic" },
      h("code", {}, d.location ? `${d.location.file}:${d.location.line}:${d.location.col}` : ""), " ",
      h("span", { class: "message" }, d.message),
      d.expected ? h("div", { class: "expected" }, `expected ${d.expected}`) : "",
      ...(d.notes || []).map((n) => h("div", { class: "note" }, n)))));
}

// Size or komi changed: the text did not, so the linter would not run.
async function recheck() {
  const diagnostics = await checkSource(app.editor);
  app.editor.dispatch(setDiagnostics(app.editor.state, diagnostics));
}

// The rules compiled: redraw the summary and board, keep the game if its
// record still plays under the new rules.
let lastRules = null;
async function rulesChanged() {
  const ref = rulesetRef();
  const key = JSON.stringify(ref);
  if (key === lastRules) return;
  lastRules = key;
  try {
    app.show = await post("/api/show", { ruleset: ref });
  } catch (e) {
    showDiagnostics([e.diagnostic], false);
    return;
  }
  app.rulesOk = true;
  $("#summary").textContent = app.show.summary;
  $("#title").textContent = app.show.title;
  drawSeats();
  await newGame(app.record, true);
}

// ---------------------------------------------------------------- play

function seatAgent(seat) {
  const s = document.querySelector(`#seat-${seat}`);
  return s ? s.value : "human";
}

function drawSeats() {
  const prev = [0, 1].map(seatAgent);
  $("#seats").replaceChildren(...app.show.players.map((p, i) =>
    h("label", {}, `${p}: `, h("select", { id: `seat-${i}`, onchange: () => maybeAgent() },
      ...AGENTS.map((a) => h("option", { value: a, selected: a === prev[i] }, a))), " ")));
}

async function newGame(record, quiet) {
  app.generation++;
  app.selected = null;
  if (!quiet) refusal(null);
  try {
    setPosition(await post("/api/position", { ruleset: rulesetRef(), record }));
  } catch (e) {
    if (quiet && record) return newGame("", true);
    refusal({ text: e.message });
  }
}

function setPosition(pos) {
  app.pos = pos;
  app.record = pos.record;
  $("#record").value = pos.record;
  app.selected = null;
  render();
  maybeAgent();
}

function targetsOf(from) {
  return new Set(app.pos.legal.filter((m) => m.from === from).map((m) => m.to));
}

function render() {
  const pos = app.pos, show = app.show;
  if (!pos || !show) return;
  // Targets: where the selected piece may go; while a removal is owed,
  // the pieces that may be removed.
  const removals = new Set(pos.legal.filter((m) => m.kind === "remove").map((m) => m.to));
  const marks = { selected: app.selected, targets: app.selected ? targetsOf(app.selected) : removals };
  drawBoard($("#board"), show, pos, marks, clickPoint);
  const pl = show.players;
  let status;
  if (pos.over) status = `game over: ${pos.result.summary}`;
  else if (show.go) status = `${pl[pos.to_move]} to move; captured: ${pl[0]} ${pos.captured[0]}, ${pl[1]} ${pos.captured[1]}`;
  else status = `${pl[pos.to_move]} to move, phase ${pos.phase}${pos.pending ? ` (${pos.pending} removal${pos.pending > 1 ? "s" : ""} owed)` : ""}; in hand: ${pl[0]} ${pos.in_hand[0]}, ${pl[1]} ${pos.in_hand[1]}`;
  $("#status-line").textContent = status + (app.thinking ? " — thinking…" : "");
  $("#passes").replaceChildren(...pos.passes.map((p) =>
    h("button", {
      class: p.legal ? "pass" : "pass forbidden", "data-pass": p.text,
      title: p.legal ? "legal" : p.forbidden_by ? `forbidden by rule ${p.forbidden_by}` : "not legal now",
      onclick: () => play(p.text),
    }, p.text)));
  drawExact(pos, pl);
  const plies = pos.transcript.plies;
  $("#moves").replaceChildren(...plies.map((p) =>
    h("li", { class: p.d ? "d" : "" },
      h("span", { class: "who" }, p.player), " ", h("b", {}, p.move),
      p.class ? h("span", { class: "class", title: "move class" }, ` ${p.class}`) : "",
      p.d ? h("span", { class: "dmark", title: "a D ends here" }, " D") : "",
      h("span", { class: "phase" }, ` [${p.phase}]`),
      p.note ? h("span", { class: "note" }, ` ${p.note}`) : "",
      p.legal_passes ? h("span", { class: "passes-next", title: "passes the next player may use" }, ` next may pass: ${p.legal_passes.join(", ") || "none"}`) : "")));
  $("#moves").scrollTop = 1e9;
  $("#result").textContent = pos.result.status === "over" ? pos.result.summary : "";
}

// A database's value (`morrigo serve --db`), for the player it is for.
function valueText(v) {
  if (v.outcome === "draw") return "draws";
  return `${v.outcome === "win" ? "wins" : "loses"} in ${v.plies}`;
}

// Best first: quick wins, draws, slow losses.
function valueRank(v) {
  if (!v) return -Infinity;
  if (v.outcome === "win") return 1e6 - v.plies;
  if (v.outcome === "draw") return 0;
  return -1e6 + v.plies;
}

// The database's value of the position and of each legal move (best
// first; a click plays it), when the server has one for these rules.
function drawExact(pos, pl) {
  const box = $("#exact");
  const ex = pos.exact;
  if (!ex) { box.replaceChildren(); return; }
  if (!ex.value) {
    box.replaceChildren(h("span", { class: "exact-none" }, `database: ${ex.error}`));
    return;
  }
  const moves = pos.legal.filter((m) => m.value).sort((a, b) => valueRank(b.value) - valueRank(a.value));
  box.replaceChildren(
    h("div", { class: "exact-here" }, `database: ${pl[pos.to_move]} (to move) ${valueText(ex.value)}${ex.value.plies === null ? "" : " plies"}`),
    h("div", { class: "exact-moves" }, ...moves.map((m) =>
      h("button", {
        class: `exact-move ${m.value.outcome}`, "data-move": m.text,
        title: `${m.text} ${valueText(m.value)}`, onclick: () => play(m.text),
      }, `${m.text} ${valueText(m.value)}`))));
}

function clickPoint(name) {
  const pos = app.pos;
  if (!pos) return;
  if (pos.over) return refusal({ text: "the game is over" });
  if (seatAgent(pos.to_move) !== "human") return refusal({ text: `${app.show.players[pos.to_move]} is played by an agent` });
  const legal = pos.legal;
  if (app.selected) {
    const from = app.selected;
    if (name === from) {
      app.selected = null;
      return render();
    }
    const mv = legal.find((m) => m.from === from && m.to === name);
    if (mv) return play(mv.text);
    if (legal.some((m) => m.from === name)) {
      app.selected = name;
      return render();
    }
    return play(`${from}-${name}`);
  }
  const direct = legal.find((m) => m.from === null && m.to === name);
  if (direct) return play(direct.text);
  if (legal.some((m) => m.from === name)) {
    app.selected = name;
    refusal(null);
    return render();
  }
  // Not legal: ask the server why (it quotes the rule).
  return play(pos.pending > 0 ? `x${name}` : name);
}

async function play(move) {
  const gen = app.generation;
  try {
    const r = await post("/api/apply", { ruleset: rulesetRef(), record: app.record, move });
    if (gen !== app.generation) return;
    if (r.accepted) {
      refusal(null);
      setPosition(r.position);
    } else {
      app.selected = null;
      render();
      refusal(r.refusal);
    }
  } catch (e) {
    refusal({ text: e.message });
  }
}

function refusal(r) {
  const box = $("#refusal");
  if (!r) {
    box.replaceChildren();
    box.className = "";
    return;
  }
  box.className = "shown";
  const parts = [h("div", { class: "message" }, r.message ? `${r.move ? `\`${r.move}\`: ` : ""}${r.message}` : r.text)];
  if (r.rule) {
    const at = r.rule.file ? `${r.rule.file}:${r.rule.line}:${r.rule.col}` : "";
    parts.push(h("div", { class: "rule" }, "rule: ", h("code", {}, r.rule.text), at ? ` (${at})` : ""));
    if (r.rule.source_line) {
      parts.push(h("pre", { class: "source-line" }, `${r.rule.line} | ${r.rule.source_line}`));
    }
    const mine = r.rule.file && (r.rule.file === app.name || r.rule.file.endsWith("/" + app.name));
    if (mine) {
      parts.push(h("button", { onclick: () => goToLine(r.rule.line, r.rule.col) }, "show in editor"));
    }
  } else {
    for (const n of r.notes || []) parts.push(h("div", { class: "note" }, n));
  }
  box.replaceChildren(...parts);
}

function goToLine(line, col) {
  const doc = app.editor.state.doc;
  const l = doc.line(Math.min(line, doc.lines));
  const at = Math.min(l.from + col - 1, l.to);
  app.editor.dispatch({ selection: { anchor: at, head: l.to }, scrollIntoView: true });
  app.editor.focus();
}

async function maybeAgent() {
  const pos = app.pos;
  if (!pos || pos.over || app.thinking) return;
  const agent = seatAgent(pos.to_move);
  if (agent === "human") return;
  const gen = app.generation;
  app.thinking = true;
  render();
  try {
    const r = await post("/api/agent", { ruleset: rulesetRef(), record: app.record, agent, seed: pos.transcript.plies.length });
    app.thinking = false;
    // A new game or an undo came meanwhile: drop this move, and let the
    // agent (if any) move in the new position.
    if (gen !== app.generation) return maybeAgent();
    setPosition(r.position);
  } catch (e) {
    app.thinking = false;
    if (gen !== app.generation) return maybeAgent();
    refusal({ text: e.message });
    render();
  }
}

async function undo() {
  const plies = app.pos ? app.pos.transcript.plies.slice() : [];
  if (!plies.length) return;
  const seatOf = (name) => app.show.players.indexOf(name);
  // Take back the agents' replies, then the person's own move.
  while (plies.length && seatAgent(seatOf(plies[plies.length - 1].player)) !== "human") plies.pop();
  plies.pop();
  await newGame(plies.map((p) => p.move).join(" "));
}

function download(name, text, type) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

function saveRecord() {
  download(`${app.show ? app.show.name : "game"}.txt`, app.record + "\n", "text/plain");
}

async function exportSgf() {
  try {
    const r = await post("/api/sgf/export", { ruleset: rulesetRef(), record: app.record });
    download(`${app.show.name}.sgf`, r.sgf, "application/x-go-sgf");
    $("#record-status").textContent = "SGF written";
  } catch (e) {
    $("#record-status").textContent = e.message;
  }
}

async function importSgf(ev) {
  const f = ev.target.files[0];
  if (!f) return;
  try {
    const r = await post("/api/sgf/import", { ruleset: rulesetRef(), sgf: await f.text() });
    app.generation++;
    setPosition(r.position);
    $("#record-status").textContent = r.warnings.length ? r.warnings.map((w) => w.message).join("; ") : `read ${f.name}`;
  } catch (e) {
    $("#record-status").textContent = e.message;
  }
  ev.target.value = "";
}

// ---------------------------------------------------------------- compare

async function runCompare() {
  const rulesets = [];
  if ($("#cmp-editor").checked) rulesets.push(rulesetRef());
  const extra = { };
  if ($("#size").value.trim()) extra.size = $("#size").value.trim();
  for (const o of $("#cmp-builtins").selectedOptions) rulesets.push({ builtin: o.value, ...extra });
  const pairings = [...document.querySelectorAll(".pairing")].map((row) =>
    [row.querySelector(".agent-a").value.trim(), row.querySelector(".agent-b").value.trim()]);
  const body = { rulesets, pairings, games: Number($("#cmp-games").value), seed: Number($("#cmp-seed").value) };
  const status = $("#compare-status"), bar = $("#compare-progress");
  $("#compare-charts").replaceChildren();
  $("#compare-table").textContent = "";
  $("#compare-run").disabled = true;
  try {
    const job = await post("/api/compare", body);
    app.comparePoll = job.poll;
    $("#compare-cancel").disabled = false;
    bar.max = job.total;
    for (;;) {
      const p = await get(job.poll);
      bar.value = p.done;
      status.textContent = `${p.done} / ${p.total} games${p.status === "cancelling" ? ", cancelling…" : ""}`;
      if (p.status === "done") {
        status.textContent = `done: ${p.total} games`;
        $("#compare-charts").replaceChildren(outcomesChart(p.reports), lengthsChart(p.reports), rulesChart(p.reports));
        $("#compare-table").textContent = p.table;
        break;
      }
      if (p.status === "failed") {
        status.textContent = p.error;
        break;
      }
      if (p.status === "cancelled") {
        status.textContent = `cancelled after ${p.done} of ${p.total} games`;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (e) {
    status.textContent = e.message;
  } finally {
    app.comparePoll = null;
    $("#compare-cancel").disabled = true;
    $("#compare-run").disabled = false;
  }
}

// The compare stops once the games in flight end; the poll loop above
// then sees `cancelled`.
async function cancelCompare() {
  if (!app.comparePoll) return;
  $("#compare-cancel").disabled = true;
  try {
    await del(app.comparePoll);
  } catch (e) {
    // 409: it ended meanwhile; the poll loop shows how.
    if (e.status !== 409) $("#compare-status").textContent = e.message;
  }
}

// ---------------------------------------------------------------- start

async function start() {
  layout();
  app.editor = new EditorView({
    parent: $("#editor"),
    state: EditorState.create({
      doc: "",
      extensions: [basicSetup, yaml(), lintGutter(), linter(checkSource, { delay: 400 })],
    }),
  });
  await refreshLists();
  const first = new URLSearchParams(location.search).get("ruleset") || "nine-mens-morris";
  $("#builtin").value = first;
  await openBuiltin(first);
}

start();
