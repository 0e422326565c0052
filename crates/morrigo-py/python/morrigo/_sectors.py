"""Sector solves on Ray: the moving-phase sectors of a Morris-family
ruleset (pieces on the board per side, nothing in hand), one Ray task per
sector, each solving its sector by retrograde analysis (morrigo-sector, the
engine of ``morrigo-sector solve-sectors``) into a database directory of
sealed unit files. A sector's task starts only once the sectors it reads
are finished (those of one piece fewer, and its colour-swapped twin when
the rules treat the players alike and it is read off it): their tasks'
results are its arguments. A unit file is written whole, so a worker
killed mid-sector leaves nothing behind and Ray retries the task
(``max_retries``); a rerun reads each finished sector back (its seal and
counts checked) instead of solving it. With ``whole_game``, a last task
solves the placing phase from the start, as ``morrigo solve RULESET --db
DIR`` does, reading the sectors from their files.

The database directory must be one every worker reaches at the same path
(a shared filesystem on a cluster): each task writes its sector there and
reads the lower ones back from there.

>>> import morrigo
>>> out = morrigo.solve_sectors("six-mens-morris", "six-db", max_pieces=6,
...                             whole_game=True)  # doctest: +SKIP
>>> out["game"]["outcome"]  # doctest: +SKIP
'draw'

From the shell::

    python -m morrigo.solve_sectors RULESET --db DIR --max-pieces N [--address ADDRESS] [--whole-game]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _native
from ._native import RulesetError, SolveError, SweepError
from ._sweep import ATTACH_TIMEOUT, _cluster, _Progress, _ray

PathLike = Union[str, "os.PathLike[str]"]

_NEEDS_RAY = "morrigo.solve_sectors runs sectors as Ray tasks"
_INSTEAD = "run `morrigo-sector solve-sectors RULESET --db DIR --max-pieces N` on one machine"


def _solve_sector(ruleset: str, db: str, w: int, b: int, max_memory: Optional[int],
                  *after: Any) -> Dict[str, Any]:
    """One Ray task: sector ``w``-``b`` solved (no GIL held) or read back.
    ``after`` are the results of the tasks of the sectors it reads: Ray
    starts it once they are finished; their files are what it reads."""
    units = json.loads(_native.sector_solve(ruleset, db, w, b, max_memory))
    return {"w": w, "b": b, "units": units, "pid": os.getpid()}


def _solve_game(ruleset: str, db: str, max_memory: Optional[int], *after: Any) -> Dict[str, Any]:
    """The last Ray task: the whole game from its start, once every planned
    sector is finished."""
    game = json.loads(_native.game_solve(ruleset, db, max_memory))
    game["pid"] = os.getpid()
    return game


def _own(task: Dict[str, Any]) -> Dict[str, Any]:
    """A sector task's counts of its own sector (the others it lists are
    lower units it read back, or solved when they lie below the plan)."""
    for unit in task["units"]:
        if unit["w"] == task["w"] and unit["b"] == task["b"] and unit["in_hand"] == [0, 0]:
            return unit
    raise SolveError(f"the task of sector {task['w']}-{task['b']} did not report it")


def _cause(ray, error: BaseException) -> BaseException:
    """A task's own SolveError or RulesetError rather than Ray's wrapper."""
    if isinstance(error, ray.exceptions.RayTaskError):
        cause = getattr(error, "cause", None)
        if isinstance(cause, (SolveError, RulesetError)):
            return cause
    return error


def _run(ray, plan: Dict[str, Any], ruleset: str, db: str, whole_game: bool,
         max_retries: int, max_memory: Optional[int],
         progress: bool) -> Tuple[Dict[Tuple[int, int], Dict[str, Any]], Optional[Dict[str, Any]]]:
    """Every planned sector as a Ray task after the ones it reads, then the
    game's task; the results by sector, and the game's."""
    options = {"max_retries": max_retries, "num_cpus": 1}
    sector_task = ray.remote(_solve_sector).options(**options)
    game_task = ray.remote(_solve_game).options(**options)
    entries = {(e["w"], e["b"]): e for e in plan["sectors"]}
    refs: Dict[Tuple[int, int], Any] = {}

    def submit(key: Tuple[int, int]):
        # The plan lists a twin after the sector read off it: its
        # dependencies are submitted first, whatever the order.
        if key not in refs:
            after = [submit(tuple(a)) for a in entries[key]["after"]]
            refs[key] = sector_task.remote(ruleset, db, key[0], key[1], max_memory, *after)
        return refs[key]

    for key in entries:
        submit(key)
    total = len(refs) + (1 if whole_game else 0)
    game_ref = game_task.remote(ruleset, db, max_memory, *refs.values()) if whole_game else None
    pending = list(refs.values()) + ([game_ref] if game_ref is not None else [])
    results: Dict[Tuple[int, int], Dict[str, Any]] = {}
    game = None
    bar = _Progress(total, 0, progress, unit="task", desc="solve-sectors")
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                out = ray.get(ready[0])
            except Exception as e:  # noqa: BLE001 - re-raised, unwrapped
                for ref in pending:
                    try:
                        ray.cancel(ref)
                    except Exception:  # noqa: BLE001 - best effort
                        pass
                raise _cause(ray, e) from None
            if game_ref is not None and ready[0] == game_ref:
                game = out
            else:
                results[(out["w"], out["b"])] = out
            bar.step()
    finally:
        bar.close()
    return results, game


def solve_sectors(
    ruleset: str,
    db: PathLike,
    max_pieces: int,
    min_pieces: int = 0,
    *,
    address: Optional[str] = None,
    whole_game: bool = False,
    max_retries: int = 3,
    num_cpus: Optional[int] = None,
    max_memory: Optional[int] = None,
    progress: bool = True,
    timeout: Optional[float] = None,
) -> Dict[str, Any]:
    """Solve the moving-phase sectors of ``ruleset`` (a built-in name or a
    YAML file) with at most ``max_pieces`` and at least ``min_pieces`` a
    side as Ray tasks, one per sector, into the database directory ``db``
    (created if missing), as ``morrigo-sector solve-sectors RULESET --db DB
    --max-pieces N --min-pieces M`` does in one process.

    ``db`` must be reachable at the same path by every worker: on a cluster,
    a shared filesystem. Each task writes its sector's file there (whole,
    sealed) and reads the lower sectors back from there; a sector already
    there costs only that read. A sector below ``min_pieces`` that a
    removal reaches is solved by the task that reaches it (each such task
    writes the same file). Each task takes one of Ray's CPUs; the solve
    inside it uses every core of its machine.

    ``address``, ``timeout`` and ``num_cpus`` are :func:`morrigo.sweep`'s:
    a running cluster's GCS address (``"10.0.0.1:6379"``, ``"auto"``),
    attached within ``timeout`` seconds (default 60), else a new local Ray
    on loopback of ``num_cpus`` workers. A task whose worker dies is retried
    up to ``max_retries`` times. ``max_memory`` (bytes) bounds the units a
    task holds in memory (default: the memory available on its machine).
    With ``whole_game``, a last task solves the game from its start
    (placing phase included, ``game.tbl`` written; a moving sector it
    reaches beyond ``max_pieces`` is solved there too), as ``morrigo solve
    RULESET --db DB`` does.

    Returns a dict: ``ruleset``, ``db``, ``plan`` (the sectors and what
    each reads, as :func:`morrigo._native.sector_plan` gives it),
    ``sectors`` (in the plan's order, each sector's counts: ``sector``,
    ``orbits``, ``positions``, ``wins``, ``losses``, ``draws`` for the
    player to move, ``longest_win``, ``digest``, ``loaded`` (read back
    rather than solved now), ``millis``), ``solved`` and ``read_back``
    (how many sectors were), ``tasks`` (each task's result: every unit it
    solved or read back), and ``game`` with ``whole_game`` (``to_move``,
    ``outcome`` — ``win``, ``loss`` or ``draw`` for the player to move at
    the start —, ``plies``, ``placing_units``, ``moving_units``,
    ``values``), else None.

    Raises :class:`RulesetError` for a ruleset that does not load,
    :class:`SolveError` for one the sector solver does not handle (its
    ``reason`` says why: rules that read the history, captures) or a solve
    that fails (a damaged unit file, named), :class:`SweepError` for a
    cluster that cannot be attached within ``timeout``, ImportError without
    Ray.
    """
    if timeout is not None and not timeout > 0:
        raise ValueError(f"solve_sectors(timeout={timeout!r}): the attach timeout is seconds > 0")
    # Workers may start elsewhere: a ruleset file and the directory by
    # their absolute paths.
    if os.path.exists(ruleset):
        ruleset = str(pathlib.Path(ruleset).resolve())
    plan = json.loads(_native.sector_plan(ruleset, max_pieces, min_pieces))
    out_dir = pathlib.Path(db).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    results: Dict[Tuple[int, int], Dict[str, Any]] = {}
    game = None
    if plan["sectors"] or whole_game:
        ray = _ray(_NEEDS_RAY, _INSTEAD)
        with _cluster(ray, address, num_cpus, timeout):
            results, game = _run(ray, plan, ruleset, str(out_dir), whole_game, max_retries,
                                 max_memory, progress)
    sectors = [_own(results[(e["w"], e["b"])]) for e in plan["sectors"]]
    read_back = sum(1 for s in sectors if s["loaded"])
    return {
        "ruleset": plan["ruleset"],
        "db": str(out_dir),
        "plan": plan,
        "sectors": sectors,
        "solved": len(sectors) - read_back,
        "read_back": read_back,
        "tasks": [results[(e["w"], e["b"])] for e in plan["sectors"]],
        "game": game,
    }


_HEADING = ("sector      orbits        positions     wins          losses        draws"
            "         longest  digest    ms")


def _line(s: Dict[str, Any]) -> str:
    """A sector's counts as ``morrigo-sector solve-sectors`` prints them."""
    return (f"{s['sector']:<11} {s['orbits']:<13} {s['positions']:<13} {s['wins']:<13} "
            f"{s['losses']:<13} {s['draws']:<13} {s['longest_win']:<8} {s['digest']}  "
            f"{s['millis']}{' (read back)' if s['loaded'] else ''}")


def _value_text(game: Dict[str, Any]) -> str:
    if game["outcome"] == "draw":
        return "a draw"
    verb = "wins" if game["outcome"] == "win" else "loses"
    return f"{game['to_move']} (to move) {verb} in {game['plies']} plies"


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m morrigo.solve_sectors RULESET --db DIR --max-pieces N
    [--min-pieces M] [--address ADDR] [--whole-game]``."""
    p = argparse.ArgumentParser(
        prog="python -m morrigo.solve_sectors",
        description="Solve the moving-phase sectors of a Morris-family ruleset as Ray tasks, "
        "one per sector (the book's Solving Morris games chapter, docs/src/morris-solving.md: "
        "on Ray).",
    )
    p.add_argument("ruleset", help="a built-in ruleset name or a YAML file")
    p.add_argument("--db", required=True,
                   help="the database directory (every worker must reach it at this path)")
    p.add_argument("--max-pieces", type=int, required=True, help="the most pieces a side")
    p.add_argument("--min-pieces", type=int, default=0, help="the fewest pieces a side")
    p.add_argument("--whole-game", action="store_true",
                   help="then solve the game from its start (placing phase, game.tbl)")
    p.add_argument("--address", help="a Ray cluster's address (default: a local Ray)")
    p.add_argument("--num-cpus", type=int, help="workers of a local Ray")
    p.add_argument("--max-retries", type=int, default=3,
                   help="retries of a sector whose worker dies")
    p.add_argument("--max-memory", type=int, metavar="BYTES",
                   help="memory a task may hold (default: what its machine has available)")

    def seconds(text: str) -> float:
        value = float(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text}: expected seconds > 0")
        return value

    p.add_argument("--timeout", type=seconds, default=ATTACH_TIMEOUT, metavar="SECS",
                   help=f"seconds to attach to --address before giving up (default {ATTACH_TIMEOUT:g})")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    args = p.parse_args(argv)
    try:
        out = solve_sectors(
            args.ruleset,
            args.db,
            args.max_pieces,
            args.min_pieces,
            address=args.address,
            whole_game=args.whole_game,
            max_retries=args.max_retries,
            num_cpus=args.num_cpus,
            max_memory=args.max_memory,
            progress=not args.json,
            timeout=args.timeout,
        )
    except (RulesetError, SweepError) as e:
        # These start with `error:` themselves.
        print(e, file=sys.stderr)
        return 1
    except (SolveError, ValueError, ImportError, ConnectionError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(_HEADING)
    for s in out["sectors"]:
        print(_line(s))
    print(f"{len(out['sectors'])} sectors in {out['db']} ({out['solved']} solved now, "
          f"{out['read_back']} read back)")
    game = out["game"]
    if game is not None:
        print(f"{out['ruleset']}: start {_value_text(game)}; {game['placing_units']} units with "
              f"pieces in hand, {game['moving_units']} without, {game['values']} values")
    return 0
