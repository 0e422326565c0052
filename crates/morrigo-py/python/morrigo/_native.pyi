"""Type stubs of ``morrigo._native``, the Rust half of the package."""

from typing import Any, Dict, Final, List, Optional, Protocol, Sequence, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

Size = Union[int, str, Tuple[int, int], None]
MoveLike = Union["Move", str, int]

# The attributes written `name: Final[T]` are read-only properties of the
# Rust classes (a State's change as moves are played).

class RulesetError(ValueError):
    """A ruleset that cannot be loaded or compiled; ``str(e)`` is the full diagnostic."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    message: str
    expected: Optional[str]
    notes: List[str]
    diagnostics: List[Dict[str, Any]]

class IllegalMoveError(ValueError):
    """A move the rules refuse, with the rule that refuses it."""

    move: str
    reason: str
    rule: Optional[str]
    location: Optional[str]
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]

class Move:
    """One ply; ``str(move)`` is its notation."""

    text: Final[str]
    kind: Final[str]
    from_point: Final[Optional[str]]
    to_point: Final[Optional[str]]
    pass_kind: Final[Optional[str]]
    action: Final[int]
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """A compiled ruleset."""

    name: Final[str]
    title: Final[str]
    players: Final[List[str]]
    points: Final[List[str]]
    num_points: Final[int]
    coords: Final[List[Tuple[int, int]]]
    neighbours: Final[List[List[int]]]
    lines: Final[List[List[int]]]
    phases: Final[List[str]]
    pass_kinds: Final[List[str]]
    is_go: Final[bool]
    action_size: Final[int]
    action_blocks: Final[List[Tuple[str, int, int]]]
    observation_shape: Final[Tuple[int, int]]
    observation_planes: Final[List[str]]
    history_shape: Final[Tuple[int, int]]
    history_features: Final[List[str]]
    def new_state(self) -> State: ...
    def action_text(self, action: int) -> str: ...
    def perft(self, depth: int, unit: str = "ply", max_nodes: int = 10_000_000_000) -> int: ...
    @staticmethod
    def rulesets() -> List[Dict[str, str]]: ...

class State:
    """A position of a game, with the moves that led to it."""

    game: Final[Game]
    to_move: Final[int]
    player: Final[str]
    phase: Final[str]
    ply: Final[int]
    turn: Final[int]
    in_hand: Final[Tuple[int, int]]
    on_board: Final[Tuple[int, int]]
    captured: Final[Tuple[int, int]]
    pending_removals: Final[int]
    history: Final[List[str]]
    def legal_moves(self) -> List[Move]: ...
    def legal_actions(self) -> List[int]: ...
    def action_mask(self) -> npt.NDArray[np.int8]: ...
    def apply(self, move: MoveLike) -> List[Move]: ...
    def undo(self) -> Move: ...
    def is_over(self) -> bool: ...
    def result(self) -> Dict[str, Any]: ...
    def explain(self, move: MoveLike) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def copy(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def board(self) -> npt.NDArray[np.int8]: ...
    def observation(self, seat: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def history_observation(self, seat: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The last completed turns, ``Game.history_shape``: who made each,
        its plies' action blocks, the move class the engine recorded."""
    def zobrist(self) -> int: ...
    def perft(self, depth: int, unit: str = "ply", max_nodes: int = 10_000_000_000) -> int: ...
    def bench_apply_undo(self, plies: int, seed: int = 0) -> int: ...

class Agent:
    """A built-in agent of morrigo-play."""

    spec: Final[str]
    def __init__(self, game: Game, spec: str = "random", seed: int = 0) -> None: ...
    def choose(self, state: State) -> Optional[Move]: ...

def load(ruleset: str, size: Size = None, komi: Optional[float] = None) -> Game: ...
def rulesets() -> List[Dict[str, str]]: ...

T = TypeVar("T", covariant=True)

class _Simulation(Protocol[T]):
    """The arguments of a simulation (see :func:`morrigo.simulate`)."""

    def __call__(
        self,
        ruleset: Union[str, Game],
        games: int = 1000,
        seed: int = 1,
        agents: Union[str, Sequence[str], None] = None,
        max_plies: int = 2000,
        threads: Optional[int] = None,
        size: Size = None,
        komi: Optional[float] = None,
    ) -> T: ...

simulate: _Simulation[List[Dict[str, Any]]]
simulate_report_json: _Simulation[str]

class SweepError(RuntimeError):
    """A sweep that cannot go on (a results directory holding another sweep's plan, unwritable, a bad shard file)."""

def sweep_plan(spec_path: str) -> str:
    """Read a sweep spec and split it into shards: the plan as JSON (``{"format", "spec", "shards"}``, ``shards`` a count). Raises RulesetError."""

def sweep_prepare(plan_json: str, dir: str) -> None:
    """Create the results directory and write the plan, or check the one there is this plan."""

def sweep_finished(plan_json: str, dir: str) -> List[bool]:
    """Whether each shard of the plan has its file in the results directory; a damaged file raises SweepError naming it."""

def sweep_run_shard(plan_json: str, k: int, dir: str) -> int:
    """Play shard ``k`` (without the GIL) and write its file whole; the number of games."""

def sweep_collect_json(dir: str) -> str:
    """The merged results as JSON: ``{"name", "reports", "missing", "shards"}``."""

class SolveError(RuntimeError):
    """A sector solve that cannot go on (rules the sector solver does not handle, a damaged or unwritable unit file, a memory budget refused)."""

    reason: str

def sector_plan(ruleset: str, max_pieces: int, min_pieces: int = 0) -> str:
    """The moving-phase sectors of at most ``max_pieces`` (and at least ``min_pieces``) a side, in ``solve-sectors``' order, as JSON: ``{"ruleset", "points", "colour_swap", "min_pieces", "max_pieces", "sectors": [{"w", "b", "after": [[w, b], ...]}]}``. Raises RulesetError, SolveError."""

def sector_solve(ruleset: str, db: str, w: int, b: int, max_memory: Optional[int] = None) -> str:
    """Solve sector ``w``-``b`` (without the GIL) into ``db``, reading back the units already there; the JSON list of the units solved or read back. Raises SolveError."""

def game_solve(ruleset: str, db: str, max_memory: Optional[int] = None) -> str:
    """Solve the whole game from its start into ``db`` (as ``morrigo solve --db``); JSON ``{"ruleset", "to_move", "outcome", "plies", "placing_units", "moving_units", "values", "units"}``. Raises SolveError."""
