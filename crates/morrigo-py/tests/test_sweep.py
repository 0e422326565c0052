"""Sweeps on Ray (morrigo.sweep): a local Ray cluster of two worker
processes, one killed mid-shard, the results still complete and equal to the
single-process run; a re-run plays no finished shard; a running head on
loopback attached by address (from Python and `morrigo sweep --ray`), and
attaching bounded in time with errors naming the address."""

import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

import morrigo
from morrigo import _native

from conftest import ROOT

ray = pytest.importorskip("ray")

SPEC = ROOT / "tests" / "sweeps" / "ray.yaml"

# Timings differ from run to run (and so does a row's checksum, which
# covers its time); everything else is the seed's.
TIMING = {"elapsed_secs", "secs_per_game", "games_per_sec", "secs", "plies_per_sec", "crc32"}


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
    for k in range(json.loads(plan)["shards"]):
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
    shards = json.loads(plan)["shards"]
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


# ---- Attaching to a running Ray cluster by address ----------------------

CLUSTER_SPEC = ROOT / "tests" / "sweeps" / "cluster.yaml"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill_group(proc):
    """End a process group this test started (the head and its daemons)."""
    for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    # The head's daemons outlive `ray start` a moment: none may stay.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        time.sleep(0.2)


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    """A Ray head of two CPUs on loopback, as the book's Sweeps chapter
    (docs/src/sweeps.md) says to start one:
    `ray start --head` with RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 (Ray's
    single-machine mode: every address 127.0.0.1) and token authentication.
    Its own temp dir (short: Ray's socket paths have a length limit) and its
    own process group, ended in teardown whatever the test did."""
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="morrigo-ray-")
    log = tmp_path_factory.mktemp("head") / "head.log"
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    env.update(
        RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
        RAY_AUTH_MODE="token",
        RAY_AUTH_TOKEN=uuid.uuid4().hex,
        RAY_USAGE_STATS_ENABLED="0",
    )
    ray_cli = pathlib.Path(sys.executable).with_name("ray")
    cmd = [str(ray_cli)] if ray_cli.exists() else [sys.executable, "-m", "ray.scripts.scripts"]
    cmd += ["start", "--head", "--node-ip-address=127.0.0.1", "--port", str(port),
            "--num-cpus", "2", "--include-dashboard=false", "--disable-usage-stats",
            "--temp-dir", temp, "--block"]
    with open(log, "w") as out:
        head = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert head.poll() is None, f"ray start exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"no head after 120s:\n{log.read_text()}"
            if "Ray runtime started" in log.read_text():
                break
            time.sleep(0.5)
        yield f"127.0.0.1:{port}", env
    finally:
        _kill_group(head)
        # A daemon's last log lines may land while the tree is removed.
        for _ in range(3):
            shutil.rmtree(temp, ignore_errors=True)
            if not os.path.exists(temp):
                break
            time.sleep(1)


def test_attach_by_address_from_python_and_the_cli_equals_single_process(
        tmp_path, ray_head, cli):
    # The rule: a sweep on an existing cluster plays every shard there and
    # its results are the single-process run's for the same spec and seed.
    address, env = ray_head
    reference = _single_process(CLUSTER_SPEC, tmp_path / "single")
    assert len(_rows(tmp_path / "single")) == 20 * 4

    # The Python API, morrigo.sweep(address=...), in a fresh interpreter with
    # the head's token in its environment.
    api = tmp_path / "api"
    script = (
        "import json, sys, morrigo\n"
        "out = morrigo.sweep(sys.argv[1], results=sys.argv[2], address=sys.argv[3],"
        " progress=False)\n"
        "print(json.dumps({'played': out['played'], 'missing': out['missing']}))\n"
    )
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-c", script, str(CLUSTER_SPEC), str(api), address],
                         env=env, capture_output=True, text=True, timeout=300)
    api_secs = time.monotonic() - started
    assert run.returncode == 0, run.stderr
    said = json.loads(run.stdout.strip().splitlines()[-1])
    assert said["played"] == 8 and said["missing"] == []
    assert _rows(api) == _rows(tmp_path / "single")
    reports = json.loads(_native.sweep_collect_json(str(api)))["reports"]
    assert _strip(reports) == _strip(reference["reports"])

    # The CLI, `morrigo sweep SPEC --ray ADDRESS`, through the same Python.
    via_cli = tmp_path / "cli"
    cli_env = dict(env, MORRIGO_PYTHON=sys.executable)
    started = time.monotonic()
    run = subprocess.run([cli, "sweep", str(CLUSTER_SPEC), "--ray", address,
                          "--results", str(via_cli), "--format", "json"],
                         env=cli_env, capture_output=True, text=True, timeout=300)
    cli_secs = time.monotonic() - started
    assert run.returncode == 0, run.stderr
    assert _strip(json.loads(run.stdout)) == _strip(reference["reports"])
    assert _rows(via_cli) == _rows(tmp_path / "single")
    print(f"attach: python {api_secs:.1f}s, cli {cli_secs:.1f}s")

    # Without the head's token: refused, and said so (Ray's connect retries
    # cut to 2 so that the refusal comes in seconds, not 20).
    no_token = {k: v for k, v in cli_env.items() if k != "RAY_AUTH_TOKEN"}
    no_token.update(RAY_AUTH_MODE="disabled", RAY_NUM_REDIS_GET_RETRIES="2")
    run = subprocess.run([cli, "sweep", str(CLUSTER_SPEC), "--ray", address,
                          "--results", str(tmp_path / "refused")],
                         env=no_token, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert f"error: the Ray cluster at `{address}` wants a token" in run.stderr
    assert "Traceback" not in run.stderr


def test_attach_to_nothing_fails_fast_naming_the_address(tmp_path):
    # The limit: attaching is bounded; an unused loopback port is refused at
    # once and the error names the address and what was expected.
    address = f"127.0.0.1:{_free_port()}"
    started = time.monotonic()
    with pytest.raises(morrigo.SweepError) as e:
        morrigo.sweep(CLUSTER_SPEC, results=tmp_path / "none", address=address, progress=False)
    assert time.monotonic() - started < 10
    text = str(e.value)
    assert f"cannot reach the Ray cluster at `{address}`" in text
    assert "ray start --head --port PORT" in text
    with pytest.raises(morrigo.SweepError, match="expected HOST:PORT"):
        morrigo.sweep(CLUSTER_SPEC, results=tmp_path / "none", address="head-node")


def test_cli_attach_to_nothing_is_exit_1_without_traceback(tmp_path, cli):
    address = f"127.0.0.1:{_free_port()}"
    env = dict(os.environ, MORRIGO_PYTHON=sys.executable)
    started = time.monotonic()
    run = subprocess.run([cli, "sweep", str(CLUSTER_SPEC), "--ray", address,
                          "--results", str(tmp_path / "none")],
                         env=env, capture_output=True, text=True, timeout=120)
    assert time.monotonic() - started < 30
    assert run.returncode == 1, run.stderr
    assert f"error: cannot reach the Ray cluster at `{address}`" in run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr.count("error:") == 1, run.stderr


def test_a_listener_that_is_not_ray_is_given_up_after_the_timeout(tmp_path, cli):
    # Something accepts connections on the port but never answers as Ray's
    # GCS: Ray alone would retry for many minutes; the sweep gives up after
    # --ray-timeout seconds with the address in the message.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        address = "127.0.0.1:%d" % listener.getsockname()[1]
        env = dict(os.environ, MORRIGO_PYTHON=sys.executable)
        started = time.monotonic()
        run = subprocess.run([cli, "sweep", str(CLUSTER_SPEC), "--ray", address,
                              "--ray-timeout", "3", "--results", str(tmp_path / "silent")],
                             env=env, capture_output=True, text=True, timeout=120)
        secs = time.monotonic() - started
    assert run.returncode == 1, run.stderr
    assert f"error: the Ray cluster at `{address}` did not answer within 3s" in run.stderr
    assert "Traceback" not in run.stderr
    assert secs < 30, f"gave up after {secs:.1f}s"
