"""Sweeps on Ray: every ruleset × params × agent pairing × game of a spec,
split into seeded shards (morrigo-sweep, the engine of ``morrigo sweep``),
each shard one Ray task that plays it and writes its file whole to the
results directory. A worker killed mid-shard leaves no file; Ray retries the
task (``max_retries``), and a re-run plays only the shards with no file. The
results are those of a single-process run with the same seed: game *i* of a
cell depends on the seed and *i* only.

>>> import morrigo
>>> out = morrigo.sweep("tests/sweeps/flying.yaml", results="flying.results")  # doctest: +SKIP
>>> out["records"][0]["ruleset"]  # doctest: +SKIP
'nine-mens-morris fly_at=3'

From the shell (what ``morrigo sweep SPEC --ray ADDRESS`` runs)::

    python -m morrigo.sweep SPEC --address ADDRESS --results DIR
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import os
import pathlib
import socket
import sys
import threading
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _native
from ._native import SweepError

PathLike = Union[str, "os.PathLike[str]"]

#: Seconds that attaching to a Ray cluster by address may take, from the
#: first TCP connection to ``ray.init`` returning (``timeout=`` overrides).
ATTACH_TIMEOUT = 60.0

# Ray's switch for single-machine mode (its default on macOS and Windows):
# every address is 127.0.0.1. On Linux Ray otherwise replaces 127.0.0.1 by
# the machine's outward address, so a head bound to loopback is unreachable.
_LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _ray(
    what: str = "morrigo.sweep runs shards as Ray tasks",
    instead: str = "run `morrigo sweep SPEC --jobs N` on one machine",
):
    """The ``ray`` module, or an ImportError saying ``what`` needs it and
    what to do ``instead`` without it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            f"{what} and Ray is not installed: `pip install ray` (or {instead})"
        ) from e
    return ray


def _endpoint(address: str) -> Optional[tuple]:
    """``(host, port)`` of a ``host:port`` or ``ray://host:port`` address;
    None for Ray's own words (``auto``, ``local``). SweepError for an
    address that is neither."""
    rest = address.strip()
    if rest in ("auto", "local"):
        return None
    if rest.startswith("ray://"):
        rest = rest[len("ray://"):]
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SweepError(
            f"error: Ray address `{address}`: expected HOST:PORT, the GCS address "
            "`ray start --head --port PORT` printed (e.g. 127.0.0.1:6379), or `auto`"
        )
    return host, int(port)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@contextlib.contextmanager
def _loopback_mode(ray):
    """Ray on 127.0.0.1 only, for the duration of an attach or a local run;
    the process's previous setting is restored after."""
    try:
        # Read by Ray when it is imported; set here as the import is done.
        from ray._private import ray_constants
    except ImportError:  # another Ray layout: the variable alone
        ray_constants = None
    before_env = os.environ.get(_LOOPBACK_ENV)
    before = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    os.environ[_LOOPBACK_ENV] = "0"
    if before is not None:
        ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        if before_env is None:
            os.environ.pop(_LOOPBACK_ENV, None)
        else:
            os.environ[_LOOPBACK_ENV] = before_env
        if before is not None:
            ray_constants.ENABLE_RAY_CLUSTER = before


def _attach(ray, address: str, timeout: float) -> None:
    """``ray.init(address)`` within ``timeout`` seconds, or SweepError.

    Ray itself retries an address that does not answer for many minutes: a
    TCP connection first (refused or silent: fails at once or after
    ``timeout``), then ``ray.init`` in a thread, waited for ``timeout``."""
    start = time.monotonic()
    endpoint = _endpoint(address)
    if endpoint is not None:
        host, port = endpoint
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as e:
            why = "timed out" if isinstance(e, socket.timeout) else (e.strerror or str(e))
            raise SweepError(
                f"error: cannot reach the Ray cluster at `{address}` ({why} after "
                f"{time.monotonic() - start:.1f}s; limit {timeout:g}s): expected the GCS "
                "address of a running head, as `ray start --head --port PORT` printed it "
                "(the book's Sweeps chapter, docs/src/sweeps.md: attaching to a running cluster)"
            ) from None
    # outcome["attached"] is set once, under the lock: True by the thread if
    # it attached first, False by the caller if it gave up first.
    outcome: Dict[str, Any] = {}
    decided = threading.Lock()

    def init() -> None:
        try:
            ray.init(address=address, logging_level="ERROR")
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            with decided:
                outcome.setdefault("error", e)
            return
        with decided:
            gave_up = outcome.setdefault("attached", True) is not True
        if gave_up:
            # Attached after the caller gave up: leave no Ray behind.
            ray.shutdown()

    worker = threading.Thread(target=init, name="morrigo-ray-attach", daemon=True)
    worker.start()
    worker.join(max(0.0, timeout - (time.monotonic() - start)))
    with decided:
        settled = "error" in outcome or outcome.setdefault("attached", False)
    if not settled:
        raise SweepError(
            f"error: the Ray cluster at `{address}` did not answer within {timeout:g}s "
            "(the attach limit): something listens there but it is not a Ray head's "
            "GCS port, or the head is on loopback without "
            f"{_LOOPBACK_ENV}=0 (the book's Sweeps chapter, docs/src/sweeps.md: attaching to a "
            "running cluster)"
        )
    error = outcome.get("error")
    if error is None:
        return
    # Ray wraps the refusal in a RuntimeError whose text holds the traceback.
    chain, cause = [], error
    while cause is not None and len(chain) < 8:
        chain.append(f"{type(cause).__name__}: {cause}")
        cause = cause.__cause__ or cause.__context__
    if any("AuthenticationError" in c or "InvalidAuthToken" in c for c in chain):
        raise SweepError(
            f"error: the Ray cluster at `{address}` wants a token: set RAY_AUTH_MODE=token "
            "and give the head's token (RAY_AUTH_TOKEN or ~/.ray/auth_token)"
        ) from error
    raise SweepError(
        f"error: cannot attach to the Ray cluster at `{address}`: {error}"
    ) from error


@contextlib.contextmanager
def _cluster(ray, address: Optional[str], num_cpus: Optional[int], timeout: Optional[float]):
    """Ray for the duration of the block: the one this process already
    initialised, as it is; else the cluster at ``address`` attached
    (:func:`_attach`, in loopback mode for a loopback address), or without
    an address a new local Ray on loopback of ``num_cpus`` workers; shut
    down after."""
    with contextlib.ExitStack() as stack:
        if not ray.is_initialized():
            endpoint = None if address is None else _endpoint(address)
            if address is None or (endpoint is not None and _is_loopback(endpoint[0])):
                stack.enter_context(_loopback_mode(ray))
            if address is None:
                # "local": a new Ray here, never one a `ray start` left behind.
                ray.init(
                    address="local",
                    num_cpus=num_cpus,
                    include_dashboard=False,
                    logging_level="ERROR",
                )
            else:
                _attach(ray, address, ATTACH_TIMEOUT if timeout is None else timeout)
            stack.callback(ray.shutdown)
        yield


def _run_shard(plan_json: str, k: int, results: str) -> Dict[str, int]:
    """One Ray task: play shard ``k`` and write its file (no GIL held)."""
    games = _native.sweep_run_shard(plan_json, k, results)
    return {"shard": k, "games": games, "pid": os.getpid()}


class _Progress:
    """tqdm when installed, else one line rewritten on stderr."""

    def __init__(self, total: int, done: int, show: bool, unit: str = "shard",
                 desc: str = "sweep") -> None:
        self.total, self.done, self.show, self.bar = total, done, show, None
        self.unit, self.desc = unit, desc
        if not show:
            return
        try:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=done, unit=unit, desc=desc)
        except ImportError:
            self._line()

    def _line(self) -> None:
        end = "\n" if self.done >= self.total else ""
        print(f"\r{self.desc}: {self.done}/{self.total} {self.unit}s", end=end,
              file=sys.stderr, flush=True)

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif self.show:
            self._line()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _spec_file(
    results: Optional[PathLike],
    rulesets: Sequence[str],
    params: Optional[Mapping[str, Sequence[Any]]],
    agents: Optional[Sequence[str]],
    games: Optional[int],
    seed: Optional[int],
    shard_games: Optional[int],
    max_plies: Optional[int],
    name: Optional[str],
) -> tuple:
    """Write the keyword form of a sweep as a spec file in the results
    directory (JSON is YAML), so the Rust side checks it like any spec."""
    spec: Dict[str, Any] = {"name": name or "sweep", "rulesets": list(rulesets)}
    if params:
        spec["params"] = {k: list(v) for k, v in params.items()}
    if agents is not None:
        spec["agents"] = [agents] if isinstance(agents, str) else list(agents)
    for key, value in (
        ("games", games),
        ("seed", seed),
        ("shard_games", shard_games),
        ("max_plies", max_plies),
    ):
        if value is not None:
            spec[key] = value
    out = pathlib.Path(results if results is not None else f"{spec['name']}.results")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "spec.yaml"
    path.write_text(json.dumps(spec, indent=2) + "\n")
    return path, out


def _play(ray, plan_json: str, todo: List[int], shards: int, out, max_retries: int,
          progress: bool) -> int:
    """The missing shards as Ray tasks; returns how many were played."""
    task = ray.remote(_run_shard).options(max_retries=max_retries, num_cpus=1)
    plan_ref = ray.put(plan_json)
    directory = str(pathlib.Path(out).resolve())
    pending = [task.remote(plan_ref, k, directory) for k in todo]
    bar = _Progress(shards, shards - len(todo), progress)
    played = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            ray.get(ready)
            played += 1
            bar.step()
    finally:
        bar.close()
    return played


def sweep(
    spec: Optional[PathLike] = None,
    *,
    results: Optional[PathLike] = None,
    address: Optional[str] = None,
    rulesets: Optional[Sequence[str]] = None,
    params: Optional[Mapping[str, Sequence[Any]]] = None,
    agents: Union[str, Sequence[str], None] = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    shard_games: Optional[int] = None,
    max_plies: Optional[int] = None,
    name: Optional[str] = None,
    max_retries: int = 3,
    num_cpus: Optional[int] = None,
    progress: bool = True,
    timeout: Optional[float] = None,
) -> Dict[str, Any]:
    """Run a sweep as Ray tasks and return its merged results.

    ``spec`` is a sweep spec file (the book's Sweeps chapter,
    docs/src/sweeps.md); or give its keys as arguments
    (``rulesets=[...]``, ``params={name: [values]}``, ``agents=[...]``,
    ``games=``, ``seed=``, ``shard_games=``, ``max_plies=``), written as
    ``spec.yaml`` in the results directory.
    ``results`` defaults to ``<name>.results``. ``address`` is a running
    Ray cluster's GCS address, as ``ray start --head --port PORT`` printed
    it (``"10.0.0.1:6379"``, ``"127.0.0.1:6379"``, ``"auto"``); attaching
    may take ``timeout`` seconds (default :data:`ATTACH_TIMEOUT`, 60), then
    :class:`SweepError` names the address. A loopback address attaches in
    Ray's single-machine mode (the head must be started with
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``: the book's Sweeps chapter).
    Without ``address`` a new local Ray on loopback is started
    (``num_cpus`` workers). A shard whose worker dies is retried up to
    ``max_retries`` times; shards already in the directory are not played.

    Returns a dict: ``records`` (one flat row per ruleset × params ×
    pairing, as :func:`morrigo.compare` returns, for
    ``pandas.DataFrame``), ``reports`` (``morrigo compare --json``'s nested
    reports), ``results`` (the directory; its ``shard-*.jsonl`` files hold
    one line per game), ``shards``, ``played`` (shards run now) and
    ``missing`` (shards with no file: empty unless a task failed for good).

    Raises :class:`RulesetError` for a bad spec, :class:`SweepError` for a
    results directory holding another sweep, a damaged plan or shard file
    (named; delete a damaged shard to play it again), or a cluster that
    cannot be attached within ``timeout``, ImportError without Ray.
    """
    if timeout is not None and not timeout > 0:
        raise ValueError(f"sweep(timeout={timeout!r}): the attach timeout is seconds > 0")
    if spec is None:
        if not rulesets:
            raise TypeError("sweep() needs a spec file or rulesets=[...]")
        spec_path, out = _spec_file(
            results, rulesets, params, agents, games, seed, shard_games, max_plies, name
        )
    else:
        given = {
            "rulesets": rulesets,
            "params": params,
            "agents": agents,
            "games": games,
            "seed": seed,
            "shard_games": shard_games,
            "max_plies": max_plies,
            "name": name,
        }
        extra = [k for k, v in given.items() if v is not None]
        if extra:
            raise TypeError(f"sweep() takes a spec file or {', '.join(extra)}=, not both")
        spec_path, out = pathlib.Path(spec), None
    plan_json = _native.sweep_plan(str(spec_path))
    if out is None:
        default = f"{json.loads(plan_json)['spec']['name']}.results"
        out = pathlib.Path(results if results is not None else default)
    _native.sweep_prepare(plan_json, str(out))
    done = _native.sweep_finished(plan_json, str(out))
    todo = [k for k, d in enumerate(done) if not d]
    played = 0
    if todo:
        ray = _ray()
        with _cluster(ray, address, num_cpus, timeout):
            played = _play(ray, plan_json, todo, len(done), out, max_retries, progress)
    merged = json.loads(_native.sweep_collect_json(str(out)))
    from . import _flatten

    return {
        "records": [_flatten(r) for r in merged["reports"]],
        "reports": merged["reports"],
        "results": str(out),
        "shards": merged["shards"],
        "played": played,
        "missing": merged["missing"],
    }


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m morrigo.sweep SPEC [--address ADDR] [--results DIR] [--timeout SECS]``."""
    p = argparse.ArgumentParser(
        prog="python -m morrigo.sweep",
        description="Run a Morrigo sweep spec as Ray tasks (the book's Sweeps chapter, "
        "docs/src/sweeps.md).",
    )
    p.add_argument("spec", help="the sweep spec (YAML)")
    p.add_argument("--address", help="a Ray cluster's address (default: a local Ray)")
    p.add_argument("--results", help="the results directory (default: NAME.results)")
    p.add_argument("--num-cpus", type=int, help="workers of a local Ray")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a shard whose worker dies")
    def seconds(text: str) -> float:
        value = float(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text}: expected seconds > 0")
        return value

    p.add_argument(
        "--timeout",
        type=seconds,
        default=ATTACH_TIMEOUT,
        metavar="SECS",
        help=f"seconds to attach to --address before giving up (default {ATTACH_TIMEOUT:g})",
    )
    p.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = p.parse_args(argv)
    from . import RulesetError, SweepError

    try:
        out = sweep(
            args.spec,
            results=args.results,
            address=args.address,
            num_cpus=args.num_cpus,
            max_retries=args.max_retries,
            timeout=args.timeout,
        )
    except (RulesetError, SweepError) as e:
        # The diagnostic starts with `error:` itself.
        print(e, file=sys.stderr)
        return 1
    except (ImportError, ConnectionError) as e:
        # No Ray, or no cluster at the address.
        print(f"error: {e}", file=sys.stderr)
        return 1
    if out["missing"]:
        print(f"error: shards with no results: {out['missing']}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(out["reports"], indent=2))
    else:
        print(f"{out['shards']} shards in {out['results']} ({out['played']} played now)")
    return 0
