"""The sector solver on Ray (morrigo.solve_sectors): one task per sector,
each started once the sectors it reads are finished, so it solves only
itself; the counts equal the in-process solve's, a rerun reads everything
back, the whole game's start value is the in-process one, and rules the
sector solver does not handle are refused with the reason before any Ray
starts."""

import json
import os
import subprocess
import sys

import pytest

import morrigo
from morrigo import _native

ray = pytest.importorskip("ray")

# Timings and where a count came from differ from run to run.
VARYING = {"millis", "loaded"}


def _counts(unit):
    return {k: v for k, v in unit.items() if k not in VARYING}


def _in_process(ruleset, db, max_pieces, min_pieces=0):
    """The reference: every planned sector solved in this process, in the
    plan's order (each solve solving or reading back what it reaches, as
    `morrigo-sector solve-sectors` does), no Ray. Each sector's own counts."""
    plan = json.loads(_native.sector_plan(ruleset, max_pieces, min_pieces))
    own = {}
    for e in plan["sectors"]:
        for unit in json.loads(_native.sector_solve(ruleset, str(db), e["w"], e["b"])):
            if unit["in_hand"] == [0, 0] and not unit["loaded"]:
                own[(unit["w"], unit["b"])] = unit
    return plan, own


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray of two workers on loopback for the module (the driver
    uses a Ray already initialised as it is)."""
    from morrigo._sweep import _loopback_mode

    with _loopback_mode(ray):
        ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
        try:
            yield ray
        finally:
            ray.shutdown()


def test_sectors_on_ray_equal_the_in_process_solve_and_a_rerun_reads_back(tmp_path, local_ray):
    # Six Men's Morris up to three pieces a side: removals lead to lower
    # sectors and the colours are alike, so sectors wait on their lower
    # neighbours and on their colour-swapped twins.
    plan, reference = _in_process("six-mens-morris", tmp_path / "single", 3)
    assert len(plan["sectors"]) == 16 and plan["colour_swap"]
    twin = next(e for e in plan["sectors"] if (e["w"], e["b"]) == (1, 2))
    assert twin["after"] == [[0, 2], [1, 1], [2, 1]]

    out = morrigo.solve_sectors("six-mens-morris", tmp_path / "ray", 3, progress=False)
    assert out["ruleset"] == "six-mens-morris"
    assert [(s["w"], s["b"]) for s in out["sectors"]] == [
        (e["w"], e["b"]) for e in plan["sectors"]]
    assert [_counts(s) for s in out["sectors"]] == [
        _counts(reference[(e["w"], e["b"])]) for e in plan["sectors"]]
    assert out["solved"] == 16 and out["read_back"] == 0
    # Every task started after the sectors it reads: it solved only its
    # own sector and read the others back from their files.
    for task in out["tasks"]:
        solved = [(u["w"], u["b"]) for u in task["units"] if not u["loaded"]]
        assert solved == [(task["w"], task["b"])], task
    assert sorted(os.listdir(tmp_path / "ray")) == sorted(os.listdir(tmp_path / "single"))

    # A rerun solves nothing: every unit of every task is read back.
    again = morrigo.solve_sectors("six-mens-morris", tmp_path / "ray", 3, progress=False)
    assert again["solved"] == 0 and again["read_back"] == 16
    assert all(u["loaded"] for task in again["tasks"] for u in task["units"])
    assert [_counts(s) for s in again["sectors"]] == [_counts(s) for s in out["sectors"]]

    # A narrower plan: sector 2-2 reads nothing planned, and the sectors
    # below it that a removal reaches are solved by its task.
    high = morrigo.solve_sectors("six-mens-morris", tmp_path / "high", 3, 2, progress=False)
    assert [s["sector"] for s in high["sectors"]] == ["2-2", "2-3", "3-2", "3-3"]
    assert [_counts(s) for s in high["sectors"]] == [
        _counts(reference[(s["w"], s["b"])]) for s in high["sectors"]]


def test_whole_game_gives_the_start_value_of_the_in_process_solve(tmp_path, local_ray):
    # The reference: GameTable::solve_in in this process, no Ray; the value
    # `morrigo-sector solve-game three-mens-morris` prints ("start Win(9); 6
    # units with pieces in hand, 1 without, 792 values").
    reference = json.loads(_native.game_solve("three-mens-morris", str(tmp_path / "single")))
    assert (reference["to_move"], reference["outcome"], reference["plies"]) == ("white", "win", 9)
    assert (reference["placing_units"], reference["moving_units"]) == (6, 1)

    # The entry point, starting its own local Ray.
    db = tmp_path / "ray"
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    run = subprocess.run(
        [sys.executable, "-m", "morrigo.solve_sectors", "three-mens-morris", "--db", str(db),
         "--max-pieces", "3", "--whole-game", "--num-cpus", "2", "--json"],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    game = out["game"]
    for key in ("to_move", "outcome", "plies", "placing_units", "moving_units", "values"):
        assert game[key] == reference[key], key
    assert out["solved"] == len(out["sectors"]) == 16
    # The last task read the moving-phase sectors back from their files and
    # solved the units with pieces in hand.
    moving = [u for u in game["units"] if u["in_hand"] == [0, 0]]
    assert moving and all(u["loaded"] for u in moving)
    assert any(not u["loaded"] for u in game["units"] if u["in_hand"] != [0, 0])
    assert (db / "game.tbl").exists()

    # Again, from Python: the sectors and game.tbl are read back.
    again = morrigo.solve_sectors("three-mens-morris", db, 3, whole_game=True, progress=False)
    assert again["solved"] == 0
    assert again["game"]["outcome"] == reference["outcome"]
    assert again["game"]["plies"] == reference["plies"]
    assert again["game"]["units"] == []


def test_rules_that_read_the_history_are_refused_with_the_reason(tmp_path):
    with pytest.raises(morrigo.SolveError) as e:
        morrigo.solve_sectors("morabaraba", tmp_path / "db", 3)
    assert "reads `turns_since_traded`" in e.value.reason
    assert str(e.value).startswith("morabaraba: the sector solver does not apply: ")
    assert e.value.reason in str(e.value)
    assert not (tmp_path / "db").exists()
    with pytest.raises(morrigo.SolveError, match="the sector solver does not apply"):
        _native.sector_solve("morabaraba", str(tmp_path / "db"), 3, 3)
    with pytest.raises(morrigo.RulesetError):
        morrigo.solve_sectors("nine-mens-moris", tmp_path / "db", 3)
    with pytest.raises(morrigo.SolveError, match="does not fit"):
        _native.sector_solve("three-mens-morris", str(tmp_path / "db"), 5, 5)
    # The entry point: one line, exit 1, no traceback.
    run = subprocess.run(
        [sys.executable, "-m", "morrigo.solve_sectors", "morabaraba", "--db",
         str(tmp_path / "db"), "--max-pieces", "3"],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    assert run.stderr.startswith("error: morabaraba: the sector solver does not apply: ")
    assert "Traceback" not in run.stderr
