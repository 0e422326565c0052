"""Morrigo from Python: the rules-as-data engine for Morris-family and
Go-style games.

The engine is the Rust one (``morrigo._native``); nothing here implements a
rule. Load a ruleset, play it move by move, ask why a move is refused,
simulate games into pandas-ready records, or train agents through the
PettingZoo (:mod:`morrigo.pettingzoo_env`) and Gymnasium
(:mod:`morrigo.gym_env`) environments.

>>> import morrigo
>>> game = morrigo.load("nine-mens-morris")
>>> s = game.new_state()
>>> len(s.legal_moves())
24
>>> _ = s.apply("d2")
>>> s.explain("d2")["reason"]
'd2 is occupied'
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._native import (
    Agent,
    Game,
    IllegalMoveError,
    Move,
    RulesetError,
    SolveError,
    State,
    SweepError,
    load,
    rulesets,
    simulate,
    simulate_report_json,
)

__all__ = [
    "Agent",
    "Game",
    "IllegalMoveError",
    "Move",
    "RulesetError",
    "SolveError",
    "State",
    "SweepError",
    "compare",
    "load",
    "rulesets",
    "simulate",
    "simulate_report",
    "solve_sectors",
    "sweep",
]

__version__ = "0.1.0"


Size = Union[int, str, Tuple[int, int], None]
Agents = Union[str, Sequence[str], None]


def simulate_report(
    ruleset: Union[str, Game],
    games: int = 1000,
    seed: int = 1,
    agents: Agents = None,
    max_plies: int = 2000,
    threads: Optional[int] = None,
    size: Size = None,
    komi: Optional[float] = None,
) -> Dict[str, Any]:
    """The summary of a simulation, exactly ``morrigo simulate --json``'s
    report (a nested dict: wins by seat with 95% intervals, draws, end rules,
    lengths, rule events, speed). Same arguments as :func:`simulate`; runs
    without the GIL."""
    text = simulate_report_json(
        ruleset,
        games=games,
        seed=seed,
        agents=agents,
        max_plies=max_plies,
        threads=threads,
        size=size,
        komi=komi,
    )
    return json.loads(text)


def _flatten(report: Dict[str, Any]) -> Dict[str, Any]:
    """One flat row of a simulation report: scalar columns only."""
    first, second = report["players"]
    row: Dict[str, Any] = {
        "ruleset": report["ruleset"],
        "title": report["title"],
        "first_player": first,
        "second_player": second,
        "first_agent": report["agents"][0],
        "second_agent": report["agents"][1],
        "games": report["games"],
        "seed": report["seed"],
        "max_plies": report["max_plies"],
        "wins_first": report["wins"][0],
        "wins_second": report["wins"][1],
        "draws": report["draws"],
        "no_results": report.get("no_results"),
        "unfinished": report["unfinished"],
        "stuck": report.get("stuck", 0),
        "counted": report.get("counted", 0),
        "mean_plies": report["mean_plies"],
        "mean_turns": report["mean_turns"],
        "total_plies": report["total_plies"],
        "elapsed_secs": report["elapsed_secs"],
        "secs_per_game": report.get("secs_per_game"),
    }
    games = report["games"] or 1
    row["win_rate_first"] = report["wins"][0] / games
    row["win_rate_second"] = report["wins"][1] / games
    ci = report.get("wins_ci95")
    if ci:
        row["wins_first_ci95_low"], row["wins_first_ci95_high"] = ci[0]
        row["wins_second_ci95_low"], row["wins_second_ci95_high"] = ci[1]
    score = report.get("mean_score")
    row["mean_score_first"] = score[0] if score else None
    row["mean_score_second"] = score[1] if score else None
    for key, value in (report.get("length") or {}).items():
        row[f"length_{key}"] = value
    for outcome in report.get("outcomes", []):
        rule = outcome["rule"]
        row[f"end_{rule}"] = outcome["wins"][0] + outcome["wins"][1] + outcome["draws"]
        row[f"end_{rule}_wins_first"] = outcome["wins"][0]
        row[f"end_{rule}_wins_second"] = outcome["wins"][1]
        row[f"end_{rule}_draws"] = outcome["draws"]
    for event in report.get("events", []):
        row[f"event_{event['event']}"] = event["count"]
    return row


def compare(
    rulesets: Union[str, Game, Iterable[Union[str, Game]]],
    games: int = 1000,
    seed: int = 1,
    agents: Union[str, Sequence[str], None] = None,
    max_plies: int = 2000,
    threads: Optional[int] = None,
    size: Size = None,
    komi: Optional[float] = None,
) -> List[Dict[str, Any]]:
    """Compare rulesets from simulated games, as ``morrigo compare`` does:
    the same games and seed for each ruleset and pairing of agents. Returns
    one flat record (dict) per ruleset and pairing, ready for
    ``pandas.DataFrame(records)``: wins by seat (counts, rates and 95%
    intervals), draws, unfinished games, lengths (mean, quartiles), games
    decided by each end rule (``end_<rule>``, split by seat), rule events
    (``event_<name>``) and timings.

    ``agents`` is one pairing as the CLI's ``--agents`` takes it
    (``"random"``: the same agent on both seats; ``"greedy,random"``: first
    and second seat) or a list of such pairings (one row per ruleset and
    pairing; ``["greedy", "mcts:playouts=50,random"]``); by default
    ``random`` on both seats. Every ruleset is loaded
    before any game is played, so a bad one raises :class:`RulesetError`
    first."""
    if isinstance(rulesets, (str, Game)):
        rulesets = [rulesets]
    games_list = [r if isinstance(r, Game) else load(r, size=size, komi=komi) for r in rulesets]
    if agents is None:
        pairings: List[Agents] = ["random"]
    elif isinstance(agents, str):
        pairings = [agents]
    else:
        pairings = list(agents)
    rows = []
    for game in games_list:
        for pairing in pairings:
            report = simulate_report(
                game,
                games=games,
                seed=seed,
                agents=pairing,
                max_plies=max_plies,
                threads=threads,
            )
            rows.append(_flatten(report))
    return rows


# Last: it uses _flatten above. `morrigo.sweep` is the function; the module
# `morrigo/sweep.py` is only the `python -m morrigo.sweep` entry point (and
# `morrigo.solve_sectors` the function, `morrigo/solve_sectors.py` the
# `python -m morrigo.solve_sectors` one).
from ._sweep import sweep  # noqa: E402
from ._sectors import solve_sectors  # noqa: E402
