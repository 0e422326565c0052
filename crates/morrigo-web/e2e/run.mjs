// End-to-end tests of the playground in Chromium: start `morrigo serve` on
// a free loopback port, drive the page, assert what a user sees, and keep
// a screenshot of each test in target/e2e/.
//
//   node run.mjs [path/to/morrigo]     (default: target/debug/morrigo)

import { chromium } from "playwright-core";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = resolve(process.argv[2] || join(root, "target/debug/morrigo"));
const shots = join(root, "target/e2e");
mkdirSync(shots, { recursive: true });
const rulesetDir = mkdtempSync(join(tmpdir(), "morrigo-e2e-rules-"));
const profile = mkdtempSync(join(tmpdir(), "morrigo-e2e-profile-"));
// A database for `serve --db`: Three Men's Morris, solved in a moment.
const dbDir = mkdtempSync(join(tmpdir(), "morrigo-e2e-db-"));
const solved = spawnSync(bin, ["solve", "three-mens-morris", "--db", dbDir], { stdio: ["ignore", "ignore", "inherit"] });
if (solved.status !== 0) throw new Error(`morrigo solve three-mens-morris --db exited with ${solved.status}`);

function startServer() {
  return new Promise((ok, fail) => {
    const p = spawn(bin, ["serve", "--port", "0", "--db", dbDir, rulesetDir], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/[\d.]+:\d+\//.exec(out);
      if (m) ok({ proc: p, url: m[0] });
    });
    p.on("exit", (code) => fail(new Error(`morrigo serve exited with ${code}: ${out}`)));
    setTimeout(() => fail(new Error("morrigo serve did not print its address in 20 s")), 20000);
  });
}

const results = [];
async function test(name, page, body) {
  const started = Date.now();
  try {
    await body();
    results.push([name, "ok", Date.now() - started]);
  } catch (e) {
    results.push([name, `FAILED: ${e.message.split("\n")[0]}`, Date.now() - started]);
    console.error(e);
  } finally {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  }
}

function expect(cond, what) {
  if (!cond) throw new Error(what);
}

const server = await startServer();
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1500, height: 1000 },
});
const page = ctx.pages()[0] || (await ctx.newPage());
page.setDefaultTimeout(20000);
const requests = [];
page.on("request", (r) => requests.push(r.url()));
page.on("pageerror", (e) => console.error("page error:", e.message));

// Select `word` at its first occurrence after `after` in the editor and
// type `text` over it, key by key, as a person would.
async function typeOver(after, word, text) {
  await page.evaluate(([after, word]) => {
    const v = window.morrigo.editor;
    const doc = v.state.doc.toString();
    const at = doc.indexOf(word, doc.indexOf(after));
    v.dispatch({ selection: { anchor: at, head: at + word.length } });
    v.focus();
  }, [after, word]);
  await page.keyboard.type(text, { delay: 20 });
}

async function clickPoint(name) {
  await page.locator(`#board [data-point="${name}"]`).click();
}

async function movesText() {
  return page.locator("#moves").innerText();
}

try {
  await page.goto(server.url);

  await test("01-loaded", page, async () => {
    await page.locator("#check-status", { hasText: "checks" }).waitFor();
    await page.locator('#board [data-point="a1"]').waitFor();
    expect((await page.locator("#summary").innerText()).includes("ruleset nine-mens-morris"), "the summary shows the compiled rules");
    expect((await page.locator("#board [data-point]").count()) === 24, "Nine Men's Morris has 24 points on the board");
    expect((await page.locator(".cm-content").innerText()).includes("fly_at"), "the editor holds the ruleset");
  });

  await test("02-typo-located", page, async () => {
    await typeOver("fly:", "on_board", "on_bord");
    const diag = page.locator("#diagnostics .diagnostic").first();
    await diag.waitFor();
    const text = await diag.innerText();
    expect(text.includes(":31:"), `the error is at line 31: ${text}`);
    expect(text.includes("unknown name `on_bord`"), `the message names the typo: ${text}`);
    expect(text.includes("did you mean `on_board`?"), `did you mean: ${text}`);
    await page.locator(".cm-lintRange-error").first().waitFor();
    // The lint marker sits on the typo itself.
    expect((await page.locator(".cm-lintRange-error").first().innerText()).startsWith("on_bord"), "the marker covers the typo");
    await page.locator(".cm-lintRange-error").first().hover();
    await page.locator(".cm-tooltip-lint").waitFor();
    await page.screenshot({ path: join(shots, "02-typo-tooltip.png") });
    await typeOver("fly:", "on_bord", "on_board");
    await page.locator("#check-status", { hasText: "checks" }).waitFor();
  });

  await test("02b-save", page, async () => {
    await page.locator("#save-name").fill("my-morris.yaml");
    await page.locator("#save").click();
    await page.locator("#save-status", { hasText: "saved" }).waitFor();
    expect(readFileSync(join(rulesetDir, "my-morris.yaml"), "utf8").includes("on_board(me) <= fly_at"), "the file holds the editor's text");
    // The file list is fetched again after the save: wait for it (a fixed
    // read raced the fetch).
    await page
      .waitForFunction(() => document.querySelector("#file")?.value === "my-morris.yaml", null, { timeout: 5000 })
      .catch(() => {});
    expect(await page.locator("#file").inputValue() === "my-morris.yaml", "the file list offers it");
  });

  await test("03-mill-and-removal", page, async () => {
    await page.locator("#new-game").click();
    for (const p of ["a1", "d2", "d1", "b4", "g1"]) {
      const before = (await page.locator("#moves li").count());
      await clickPoint(p);
      await page.waitForFunction((n) => document.querySelectorAll("#moves li").length > n, before);
    }
    await page.locator("#status-line", { hasText: "phase removing" }).waitFor();
    expect((await movesText()).includes("completes a line"), "g1 closes the mill a1-d1-g1");
    // A refused removal first: white's own piece.
    await clickPoint("a1");
    await page.locator("#refusal.shown").waitFor();
    expect((await page.locator("#refusal").innerText()).includes("a1"), "the refusal is about a1");
    await page.screenshot({ path: join(shots, "03-removal-refused.png"), fullPage: true });
    await clickPoint("d2");
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 6);
    expect((await movesText()).includes("xd2"), "the removal is in the move list");
    expect((await page.locator('#board [data-point="d2"] .piece').count()) === 0, "d2 is empty after the removal");
    expect((await page.locator('#board [data-point="g1"] .piece').count()) === 1, "g1 holds white's piece");
    await page.locator("#status-line", { hasText: "black to move" }).waitFor();
  });

  await test("04-undo-and-agent", page, async () => {
    await page.locator("#undo").click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 5);
    await page.locator("#status-line", { hasText: "phase removing" }).waitFor();
    await page.locator("#seat-1").selectOption("greedy");
    await clickPoint("d2");
    // Black (greedy) answers on its own.
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 7);
    await page.locator("#seat-1").selectOption("human");
  });

  await test("05-jk-pass-refused", page, async () => {
    await page.locator("#builtin").selectOption("jk-final");
    await page.locator("#title", { hasText: "JK" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll("#board [data-point]").length === 361);
    // --size 5, as on the command line: the board is redrawn.
    await page.locator("#size").fill("5");
    await page.locator("#size").press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#board [data-point]").length === 25);
    await page.locator("#new-game").click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 0);
    await clickPoint("C3");
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 1);
    expect((await movesText()).includes(" N"), "the move list shows the class N");
    await page.locator('#passes button[data-pass="pass:P"]').click();
    const box = page.locator("#refusal.shown");
    await box.waitFor();
    const text = await box.innerText();
    expect(text.includes("forbidden here by rule `no_normal_pass`"), `the refusal names the rule: ${text}`);
    expect(text.includes("after('N | P | E | E C C')"), `the refusal quotes the rule: ${text}`);
    expect(/jk-final\.yaml:\d+:\d+/.test(text), `the refusal says where the rule is written: ${text}`);
    expect((await page.locator("#moves li").count()) === 1, "the refused pass is not played");
    await page.screenshot({ path: join(shots, "05-jk-pass-refusal-shown.png"), fullPage: true });
    // An allowed ending pass is played, with its class.
    await page.locator('#passes button[data-pass="pass:E"]').click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 2);
    expect((await movesText()).includes("pass:E E"), "pass:E is played with class E");
  });

  await test("05b-jk-d-mark", page, async () => {
    // The triple ko of tests/scenarios/go/jk-final-kos.yaml, built from the
    // empty 7x7 board, then its four ko captures: a D (JK Art. 2.7).
    await page.locator("#size").fill("7");
    await page.locator("#size").press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#board [data-point]").length === 49);
    await page.locator("#record").fill("C2 A1 D1 B2 C6 C1 D7 A7 G3 B6 F4 C7 G5 F5 E4 G6 B1 G4 B7 C1");
    await page.locator("#load-record").click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 20);
    const last = page.locator("#moves li").last();
    expect((await last.locator(".class").innerText()).trim() === "C", "the last move is a ko capture C");
    expect((await last.locator(".dmark").count()) === 1, "the fourth ko capture ends a D");
    expect((await page.locator("#moves .dmark").count()) === 1, "only that move carries the D mark");
    // JK Art. 2.7.1: no pass just after D P.
    await page.locator('#passes button[data-pass="pass:P"]').click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 21);
    await page.locator('#passes button[data-pass="pass:E"]').click();
    await page.locator("#refusal.shown").waitFor();
    expect((await page.locator("#refusal").innerText()).includes("no_pass_after_d"), "the pass after DP is refused by no_pass_after_d");
  });

  await test("05c-record-and-sgf-export", page, async () => {
    await page.locator("#builtin").selectOption("tromp-taylor");
    await page.locator("#title", { hasText: "Tromp-Taylor" }).waitFor();
    await page.locator("#size").fill("9");
    await page.locator("#size").press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#board [data-point]").length === 81);
    await page.locator("#new-game").click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 0);
    for (const [i, p] of ["C3", "E5", "G7"].entries()) {
      await clickPoint(p);
      await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, i + 1);
    }
    // The record as text: the moves as played.
    const [txt] = await Promise.all([page.waitForEvent("download"), page.locator("#save-record").click()]);
    expect(txt.suggestedFilename() === "tromp-taylor.txt", `record file name: ${txt.suggestedFilename()}`);
    const record = readFileSync(await txt.path(), "utf8");
    expect(record === "C3 E5 G7\n", `the record file holds the moves: ${JSON.stringify(record)}`);
    // SGF: C3 E5 G7 on 9x9 are cg ee gc (SGF rows count from the top).
    const [dl] = await Promise.all([page.waitForEvent("download"), page.locator("#export-sgf").click()]);
    expect(dl.suggestedFilename() === "tromp-taylor.sgf", `SGF file name: ${dl.suggestedFilename()}`);
    const sgf = readFileSync(await dl.path(), "utf8");
    expect(sgf.includes("RU[tromp-taylor]") && sgf.includes("SZ[9]"), `the SGF names the rules and size: ${sgf}`);
    expect(/;B\[cg\]\s*;W\[ee\]\s*;B\[gc\]/.test(sgf), `the SGF holds the three moves in order: ${sgf}`);
    await page.locator("#record-status", { hasText: "SGF written" }).waitFor();
  });

  await test("05d-sgf-import", page, async () => {
    // Another game, read through the file input: E5 C7 G3 and a pass.
    const sgf = "(;GM[1]FF[4]SZ[9]RU[tromp-taylor];B[ee];W[cc];B[gg];W[])";
    await page.locator("#import-sgf").setInputFiles({ name: "imported.sgf", mimeType: "application/x-go-sgf", buffer: Buffer.from(sgf) });
    await page.locator("#record-status", { hasText: "read imported.sgf" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 4);
    expect((await page.locator("#record").inputValue()) === "E5 C7 G3 pass", `the record shows the game: ${await page.locator("#record").inputValue()}`);
    for (const [p, seat] of [["E5", 0], ["C7", 1], ["G3", 0]]) {
      expect((await page.locator(`#board [data-point="${p}"] .piece.seat${seat}`).count()) === 1, `${p} holds a stone of seat ${seat}`);
    }
    expect((await page.locator("#board .piece").count()) === 3, "only the imported stones are on the board");
    expect((await page.locator('#board [data-point="C3"] .piece').count()) === 0, "the exported game's stones are gone");
    await page.locator("#status-line", { hasText: "black to move" }).waitFor();
  });

  await test("05e-da-san-qi-mark", page, async () => {
    // A delayed removal leaves a mark (drawn as a cross) while hands hold
    // pieces; the page never showed it (the API sent no "mark").
    await page.locator("#size").fill("");
    await page.locator("#builtin").selectOption("da-san-qi");
    await page.waitForFunction(() => document.querySelectorAll("#board [data-point]").length === 24);
    await page.locator("#record").fill("a1 a4 d1 b4 g1xa4");
    await page.locator("#load-record").click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 6);
    const a4 = page.locator('#board [data-point="a4"]');
    expect((await a4.locator("path").count()) === 1, "a4 shows the mark's cross");
    expect((await a4.locator("title").textContent()).includes("marked"), "a4's hover says it is marked");
    expect((await page.locator("#board path").count()) === 1, "only a4 is marked");
  });

  await test("05f-database-values", page, async () => {
    // `serve --db`: the position's value and each move's, best first; a
    // click on one plays it. Three Men's Morris is a first-player win.
    await page.locator("#builtin").selectOption("three-mens-morris");
    await page.waitForFunction(() => document.querySelectorAll("#board [data-point]").length === 9);
    await page.locator("#new-game").click();
    await page.locator("#exact .exact-here", { hasText: "database: white (to move) wins in" }).waitFor();
    const first = page.locator("#exact .exact-move").first();
    expect((await first.innerText()).startsWith("b2 wins in"), `the centre is the best first move: ${await first.innerText()}`);
    expect((await page.locator("#exact .exact-move").count()) === 9, "every first move has its value");
    await first.click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 1);
    await page.locator("#exact .exact-here", { hasText: "database: black (to move) loses in" }).waitFor();
    // Rules the database was not solved for say so (Achi: four pieces).
    await page.locator("#builtin").selectOption("achi");
    await page.locator("#exact .exact-none", { hasText: "solved for other rules" }).waitFor();
  });

  await test("06-compare", page, async () => {
    await page.locator("#cmp-editor").uncheck();
    await page.locator("#cmp-builtins").selectOption(["three-mens-morris", "six-mens-morris"]);
    await page.locator("#size").fill("");
    await page.locator("#cmp-games").fill("30");
    await page.locator("#compare-run").click();
    await page.locator("#compare-status", { hasText: "done" }).waitFor({ timeout: 120000 });
    expect((await page.locator("#compare-charts svg").count()) === 3, "three charts: outcomes, lengths, rules fired");
    expect(await page.locator("#compare-progress").evaluate((p) => p.value === p.max && p.max === 60), "the progress bar is full: 60 games");
    const table = await page.locator("#compare-table").textContent();
    expect(table.includes("Three Men's Morris") && table.includes("Six Men's Morris"), "the table has both rulesets");
    await page.locator("#compare").scrollIntoViewIfNeeded();
  });

  await test("06b-compare-cancel", page, async () => {
    expect(await page.locator("#compare-cancel").isDisabled(), "Cancel is disabled while no compare runs");
    // Searching agents: far longer than the test waits, unless cancelled.
    await page.locator("#cmp-builtins").selectOption(["nine-mens-morris"]);
    await page.locator(".pairing .agent-a").first().fill("mcts:playouts=20");
    await page.locator(".pairing .agent-b").first().fill("mcts:playouts=20");
    await page.locator("#cmp-games").fill("100");
    await page.locator("#compare-run").click();
    await page.locator("#compare-cancel:enabled").waitFor();
    expect(await page.locator("#compare-run").isDisabled(), "Run is disabled while the compare runs");
    await page.locator("#compare-cancel").click();
    await page.locator("#compare-status", { hasText: "cancelled after" }).waitFor({ timeout: 120000 });
    const text = await page.locator("#compare-status").innerText();
    expect(/cancelled after \d+ of 100 games/.test(text), `the status says how far it got: ${text}`);
    expect(await page.locator("#compare-cancel").isDisabled(), "Cancel is disabled again");
    expect(await page.locator("#compare-run").isEnabled(), "a new compare can be run");
    expect((await page.locator("#compare-charts svg").count()) === 0, "no charts for a cancelled compare");
  });

  const outside = requests.filter((u) => !u.startsWith(server.url) && !u.startsWith("blob:") && !u.startsWith("data:"));
  results.push(["no-network", outside.length ? `FAILED: ${outside.join(", ")}` : "ok", 0]);
} finally {
  await ctx.close();
  server.proc.kill();
  rmSync(profile, { recursive: true, force: true });
  rmSync(rulesetDir, { recursive: true, force: true });
  rmSync(dbDir, { recursive: true, force: true });
}

let failed = 0;
for (const [name, status, ms] of results) {
  console.log(`${status === "ok" ? "ok  " : "FAIL"} ${name} (${ms} ms)${status === "ok" ? "" : ": " + status}`);
  if (status !== "ok") failed++;
}
console.log(`e2e: ${results.length - failed} passed, ${failed} failed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
