"""A Gymnasium single-agent environment: one seat of a Morrigo ruleset
against a built-in agent of morrigo-play.

>>> from morrigo.gym_env import MorrigoEnv
>>> e = MorrigoEnv("nine-mens-morris", opponent="greedy")
>>> obs, info = e.reset(seed=1)
>>> obs["observation"].shape
(9, 24)

Observations and actions are those of :mod:`morrigo.pettingzoo_env` (a dict
of ``observation`` planes, the ``history`` of recent turns and the legal
``action_mask``; one ``Discrete`` action space per ruleset). The learner plays ``seat`` (0: the first player);
the opponent (``uniform``, ``random``, ``greedy``, ``alphabeta:depth=N``,
``mcts:playouts=N``, ``perfect``) answers inside :meth:`step`, seeded from
the seed given to :meth:`reset`, so a seeded episode is reproducible.

Rewards: +1 for a win, -1 for a loss, 0 otherwise, at the end. An illegal
action ends the episode with reward -1 and ``info["illegal_move"]`` (the
engine's reason) unless ``illegal="raise"``, which raises
:class:`morrigo.IllegalMoveError`. After ``max_plies`` plies, or when the
rules leave the game stuck, the episode is truncated.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np

import morrigo

from . import _env


class MorrigoEnv(gymnasium.Env):
    """One seat of a Morrigo game against a built-in agent."""

    metadata = {"render_modes": _env.RENDER_MODES}

    def __init__(
        self,
        ruleset: Union[str, "morrigo.Game"],
        seat: int = 0,
        opponent: str = "random",
        size: Union[int, str, tuple, None] = None,
        komi: Optional[float] = None,
        max_plies: int = 2000,
        illegal: str = "lose",
        render_mode: Optional[str] = None,
    ) -> None:
        self.game = _env.game_of(ruleset, size, komi)
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 (first player) or 1 (second player), not {seat!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        _env.check_render_mode(render_mode)
        # Checked now: a bad agent name fails here, not in the first reset.
        morrigo.Agent(self.game, opponent, 0)
        self.seat = seat
        self.opponent_spec = opponent
        self.max_plies = max_plies
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = _env.observation_space(self.game)
        self.action_space = gymnasium.spaces.Discrete(self.game.action_size)
        self.state_: Optional[morrigo.State] = None
        self._opponent: Optional[morrigo.Agent] = None

    def _obs(self) -> Dict[str, np.ndarray]:
        return _env.observe(self.state_, self.seat, True)

    def _opponent_moves(self) -> None:
        """The opponent plays until it is the learner's turn or the game ends."""
        while self.state_.to_move != self.seat and self.state_.ply < self.max_plies:
            mv = self._opponent.choose(self.state_)
            if mv is None:
                return
            self.state_.apply(mv)

    def _outcome(self) -> Tuple[float, bool, bool, Dict[str, Any]]:
        result = self.state_.result()
        if result["over"]:
            return float(_env.reward(result, self.seat)), True, False, {"result": result}
        truncated = result["stuck"] or self.state_.ply >= self.max_plies
        return 0.0, False, bool(truncated), ({"result": result} if truncated else {})

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Start a game; the opponent plays first when the learner's seat is
        the second. The opponent's seed comes from ``seed``."""
        super().reset(seed=seed)
        agent_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._opponent = morrigo.Agent(self.game, self.opponent_spec, agent_seed)
        self.state_ = self.game.new_state()
        self._opponent_moves()
        _, _, _, info = self._outcome()
        if self.render_mode == "human":
            self.render()
        return self._obs(), info

    def step(
        self, action: int
    ) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        """Play the learner's ``action``, then the opponent's answers."""
        try:
            self.state_.apply(int(action))
        except morrigo.IllegalMoveError as e:
            if self.illegal == "raise":
                raise
            return self._obs(), -1.0, True, False, {"illegal_move": str(e)}
        reward, terminated, truncated, info = self._outcome()
        if not (terminated or truncated):
            self._opponent_moves()
            reward, terminated, truncated, info = self._outcome()
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> Optional[str]:
        """The board as text (``ansi``: returned; ``human``: printed)."""
        return _env.render(self.state_, self.render_mode)
