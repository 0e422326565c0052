"""Speed of the Python API against the engine itself.

    python bench/bench.py [--cli PATH] [--games N] [--plies N]

1. Per-move overhead: plies/s of a random walk driven from Python (legal
   moves, apply, undo, apply again: the work of a search's inner loop) and of
   bare apply+undo pairs on a fixed list of moves (Move objects, action
   numbers, move texts), against the same walk inside the engine
   (``State.bench_apply_undo``, no Python between plies).
2. Bulk calls: ``morrigo.simulate`` (per-game records) and
   ``morrigo.simulate_report`` against ``morrigo simulate`` (the CLI) with
   the same ruleset, games and seed; interleaved, the best of five runs each.

Build both in release mode for meaningful numbers (``maturin build
--release`` and ``cargo build --release -p morrigo-cli``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time

import morrigo


def walk_python(game: morrigo.Game, plies: int, seed: int) -> float:
    """Plies/s of the random walk from Python."""
    rng = random.Random(seed)
    s = game.new_state()
    done = 0
    start = time.perf_counter()
    while done < plies:
        moves = s.legal_moves()
        if not moves:
            s = game.new_state()
            continue
        mv = moves[rng.randrange(len(moves))]
        s.apply(mv)
        s.undo()
        s.apply(mv)
        done += 1
    return done / (time.perf_counter() - start)


def walk_engine(game: morrigo.Game, plies: int, seed: int) -> float:
    s = game.new_state()
    start = time.perf_counter()
    done = s.bench_apply_undo(plies, seed)
    return done / (time.perf_counter() - start)


def pairs(game: morrigo.Game, kind: str, rounds: int) -> float:
    """apply+undo pairs/s on the legal moves of a fixed position."""
    s = game.new_state()
    moves = s.legal_moves()
    given = {"move": moves, "action": [m.action for m in moves], "text": [m.text for m in moves]}[kind]
    n = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for mv in given:
            s.apply(mv)
            s.undo()
            n += 1
    return n / (time.perf_counter() - start)


def best(f, runs=3):
    return min(f() for _ in range(runs))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="target/release/morrigo")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--plies", type=int, default=200000)
    ap.add_argument("--ruleset", default="nine-mens-morris")
    ap.add_argument("--size", default=None)
    args = ap.parse_args()
    game = morrigo.load(args.ruleset, size=args.size)
    label = args.ruleset + (f" --size {args.size}" if args.size else "")
    print(f"== per-move overhead, {label}")
    py = walk_python(game, args.plies, 1)
    rs = walk_engine(game, args.plies * 10, 1)
    print(f"  random walk from Python  {py:>12,.0f} plies/s (legal_moves + apply + undo + apply)")
    print(f"  same walk in the engine  {rs:>12,.0f} plies/s ({rs / py:.1f}x)")
    for kind in ("move", "action", "text"):
        rate = pairs(game, kind, max(1, args.plies // 50))
        print(f"  apply+undo by {kind:<6}     {rate:>12,.0f} pairs/s")

    print(f"== bulk: {args.games} games, seed 1, random agents, {label}")
    size = ["--size", args.size] if args.size else []

    def cli_run():
        t = time.perf_counter()
        out = subprocess.run(
            [args.cli, "simulate", args.ruleset, "--games", str(args.games), "--seed", "1", "--json", *size],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        wall = time.perf_counter() - t
        return wall, json.loads(out)

    def py_records():
        t = time.perf_counter()
        records = morrigo.simulate(game, games=args.games, seed=1)
        return time.perf_counter() - t, records

    def py_report():
        t = time.perf_counter()
        report = morrigo.simulate_report(game, games=args.games, seed=1)
        return time.perf_counter() - t, report

    # Interleaved, best of five each: the machine may be shared.
    runs = {"cli": [], "rec": [], "rep": []}
    for _ in range(5):
        runs["cli"].append(cli_run())
        runs["rec"].append(py_records())
        runs["rep"].append(py_report())
    cli, rec, rep = (min(runs[k], key=lambda r: r[0]) for k in ("cli", "rec", "rep"))
    wins = [sum(r["winner_seat"] == i for r in rec[1]) for i in (0, 1)]
    assert wins == cli[1]["wins"], (wins, cli[1]["wins"])
    assert rep[1]["wins"] == cli[1]["wins"]
    print(f"  morrigo simulate (CLI)    {cli[0]:7.3f} s wall (process included; simulation {cli[1]['elapsed_secs']:.3f} s)")
    print(f"  morrigo.simulate          {rec[0]:7.3f} s ({rec[0] / cli[0] * 100:.0f}% of the CLI; records for pandas)")
    print(f"  morrigo.simulate_report   {rep[0]:7.3f} s ({rep[0] / cli[0] * 100:.0f}% of the CLI)")
    print(f"  same games: wins {wins}, as the CLI's")


if __name__ == "__main__":
    main()
