#!/usr/bin/env python3
"""Match driver: Morrigo (`morrigo play`, which referees) against
Sanmill's `tgf uci` at a fixed depth. Usage:
  match.py MORRIGO AGENT GAMES DEPTH OUT.jsonl
Game g: Morrigo plays white when g is even, black when odd (colours swapped).
Environment: TGF, the `tgf` binary (Sanmill's crates/tgf-cli, built with
`cargo build --release -p tgf-cli` in a checkout of calcitem/Sanmill);
RULESET, the Morrigo ruleset (default nine-mens-morris). Each game is a
JSON line in OUT: the result, Morrigo's score, and the mean milliseconds a
move each side took (Morrigo's measured at the pipe, so it includes the
terminal output).

Measured (issue 21): TGF=... python3 match.py target/release/morrigo
alphabeta:time=20 20 8 out.jsonl -> 18.5/20, 20.8 ms against 27.6 ms a move."""
import json, os, re, select, subprocess, sys, time

MORRIGO, AGENT, GAMES, DEPTH, OUT = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
TGF = os.environ.get("TGF", "tgf")
# Sanmill options matching rulesets/morris/nine-mens-morris.yaml: fly at 3,
# threefold repetition, 50 plies without removal (both of Sanmill's N-move
# rules), lose below 3 pieces, blocked loses.
OPTS = {"MoveTime": "0", "MoveTimeMs": "0", "NMoveRule": "50", "EndgameNMoveRule": "50",
        "ThreefoldRepetitionRule": "true", "MayFly": "true", "flyPieceCount": "3",
        "PiecesAtLeastCount": "3", "PiecesCount": "9", "Threads": "1"}

class Tgf:
    def __init__(self):
        self.p = subprocess.Popen([TGF, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci"); self.wait("uciok")
        for k, v in OPTS.items():
            self.send(f"setoption name {k} value {v}")
        self.send("isready"); self.wait("readyok")
    def send(self, s):
        self.p.stdin.write(s + "\n"); self.p.stdin.flush()
    def wait(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("tgf died")
            if word in line:
                return line.strip()
    def best(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        t = time.perf_counter()
        self.send(f"go depth {DEPTH}")
        line = self.wait("bestmove")
        return line.split("bestmove")[1].split()[0], time.perf_counter() - t

def split_turn(text):
    # Morrigo's turn text `g1xd2` / `a1-a4xd2` / `xd2` into Sanmill tokens.
    out = []
    for i, part in enumerate(text.split("x")):
        if i == 0:
            if part:
                out.append(part)
        else:
            out.append("x" + part)
    return out

def play(g, tgf):
    ours = "white" if g % 2 == 0 else "black"
    theirs = "black" if ours == "white" else "white"
    p = subprocess.Popen([MORRIGO, "play", os.environ.get("RULESET", "nine-mens-morris"), "--as", theirs, "--agent", AGENT, "--seed", str(g + 1)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=False, bufsize=0)
    tgf.send("ucinewgame")
    moves, buf, result = [], b"", None
    our_t, their_t, our_n, their_n = 0.0, [], 0, 0
    last_prompt_end = 0
    t_ours = time.perf_counter()
    prompt = (theirs + "> ").encode()
    while True:
        r, _, _ = select.select([p.stdout], [], [], 120)
        if not r:
            raise RuntimeError("morrigo timed out")
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        buf += chunk
        text = buf.decode(errors="replace")
        m = re.search(r"game over: (.*)", text)
        if m and "\n" in text[m.start():]:
            result = m.group(1).strip()
            break
        if text.endswith(theirs + "> "):
            # Our agent's turns since the last prompt.
            for mm in re.finditer(rf"^{ours} plays (\S+)", text, re.M):
                moves.extend(split_turn(mm.group(1)))
                our_n += 1
            if "error" in text.lower() or "refused" in text or "illegal" in text.lower():
                raise RuntimeError("move refused: " + text[-600:])
            our_t += time.perf_counter() - t_ours
            mv, dt = tgf.best(moves)
            their_t.append(dt)
            their_n += 1
            moves.append(mv)
            buf = b""
            p.stdin.write((mv + "\n").encode())
            t_ours = time.perf_counter()
    p.kill()
    if result is None:
        result = "unfinished"
    winner = "draw" if result.startswith("draw") else result.split()[0]
    score = 1.0 if winner == ours else 0.5 if winner == "draw" else 0.0
    return dict(game=g, ours=ours, result=result, score=score, plies=len(moves),
                our_ms=1000 * our_t / max(our_n, 1), their_ms=1000 * sum(their_t) / max(len(their_t), 1))

def main():
    tgf = Tgf()
    total = 0.0
    with open(OUT, "w") as f:
        for g in range(GAMES):
            r = play(g, tgf)
            total += r["score"]
            f.write(json.dumps(r) + "\n"); f.flush()
            print(r, flush=True)
    print(f"score {total}/{GAMES}")

main()
