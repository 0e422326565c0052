"""Sweeps on Ray (morrigo.sweep): a local Ray cluster of two worker
processes, one killed mid-shard, the results still complete and equal to the
single-process run; a re-run plays no finished shard."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

import morrigo
from morrigo import _native

from conftest import ROOT

ray = pytest.importorskip("ray")

SPEC = ROOT / "tests" / "sweeps" / "ray.yaml"

# Timings differ from run to run; everything else is the seed's.
TIMING = {"elapsed_secs", "secs_per_game", "games_per_sec", "secs", "plies_per_sec"}


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _rows(results):
    rows = []
    for path in sorted(pathlib.Path(results).glob("shard-*.jsonl")):
        rows += [_strip(json.loads(line)) for line in path.read_text().splitlines()]
    return rows


def _single_process(spec, results):
    """The reference: every shard played in this process, one after another."""
    plan = _native.sweep_plan(str(spec))
    _native.sweep_prepare(plan, str(results))
    for k in range(len(json.loads(plan)["shards"])):
        _native.sweep_run_shard(plan, k, str(results))
    return json.loads(_native.sweep_collect_json(str(results)))


def _shard_workers():
    """PIDs of Ray workers running a shard (Ray names a busy worker's
    process after its task: `ray::_run_shard`)."""
    pids = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if cmd.startswith(b"ray::_run_shard"):
            pids.append(int(entry.name))
    return pids


def test_killed_worker_loses_only_its_shard_which_is_retried(tmp_path):
    # The driver is `python -m morrigo.sweep` (what `morrigo sweep --ray`
    # runs), starting a local Ray with two worker processes on loopback.
    results = tmp_path / "ray"
    env = dict(os.environ, RAY_NODE_IP_ADDRESS="127.0.0.1")
    env.pop("RAY_ADDRESS", None)
    driver = subprocess.Popen(
        [sys.executable, "-m", "morrigo.sweep", str(SPEC), "--results", str(results),
         "--num-cpus", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    killed = None
    deadline = time.monotonic() + 240
    while killed is None and driver.poll() is None and time.monotonic() < deadline:
        busy = _shard_workers()
        if busy:
            killed = busy[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.05)
    out, err = driver.communicate(timeout=300)
    assert killed is not None, f"no worker ran a shard to kill; driver said: {err}"
    assert driver.returncode == 0, err
    # Ray reports the dead worker on the driver's output; the results are
    # the directory's.
    reports = json.loads(_native.sweep_collect_json(str(results)))["reports"]

    reference = _single_process(SPEC, tmp_path / "single")
    plan = json.loads(_native.sweep_plan(str(SPEC)))
    assert all(_native.sweep_finished(json.dumps(plan), str(results)))
    assert _rows(results) == _rows(tmp_path / "single")
    assert len(_rows(results)) == plan["spec"]["games"] * len(plan["spec"]["cells"])
    assert _strip(reports) == _strip(reference["reports"])


def test_rerun_skips_finished_shards(tmp_path):
    # Half the shards finished before (as after an interrupted run): the
    # sweep plays only the others, and leaves the finished files untouched.
    results = tmp_path / "out"
    plan = _native.sweep_plan(str(SPEC))
    _native.sweep_prepare(plan, str(results))
    shards = len(json.loads(plan)["shards"])
    for k in range(0, shards, 2):
        _native.sweep_run_shard(plan, k, str(results))
    before = {p.name: p.stat().st_mtime_ns for p in results.glob("shard-*.jsonl")}
    out = morrigo.sweep(SPEC, results=results, num_cpus=2, progress=False)
    assert out["played"] == shards - len(before)
    assert out["missing"] == []
    after = {p.name: p.stat().st_mtime_ns for p in results.glob("shard-*.jsonl")}
    assert {k: after[k] for k in before} == before
    assert len(after) == shards
    # Nothing left: a second run starts no Ray at all.
    again = morrigo.sweep(SPEC, results=results, progress=False)
    assert again["played"] == 0
    assert [r["ruleset"] for r in again["records"]] == ["nine-mens-morris", "morabaraba"]


def test_keyword_form_and_errors(tmp_path):
    out = morrigo.sweep(
        rulesets=["nine-mens-morris"], params={"fly_at": [3, 4]}, agents=["random"],
        games=4, seed=3, shard_games=2, results=tmp_path / "kw", num_cpus=2, progress=False,
    )
    assert out["shards"] == 4 and out["missing"] == []
    assert [r["ruleset"] for r in out["records"]] == [
        "nine-mens-morris fly_at=3", "nine-mens-morris fly_at=4"]
    with pytest.raises(morrigo.RulesetError) as e:
        morrigo.sweep(rulesets=["nine-mens-moris"], games=4, results=tmp_path / "bad")
    assert "nine-mens-morris" in str(e.value)
    with pytest.raises(morrigo.SweepError, match="another sweep"):
        morrigo.sweep(SPEC, results=tmp_path / "kw")
