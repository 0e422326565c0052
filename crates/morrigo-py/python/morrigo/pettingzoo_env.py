"""A PettingZoo AEC environment for any Morrigo ruleset.

>>> from morrigo.pettingzoo_env import env
>>> e = env("nine-mens-morris")
>>> e.reset(seed=0)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["history"].shape, obs["action_mask"].shape
((9, 24), (8, 4), (624,))

Agents are the ruleset's players (``white``, ``black``), first to move
first. The same agent may act several times in a row: a Morris player who
closes a mill then removes a piece as a ply of its own, and rulesets may
give extra turns.

Observation (a dict, PettingZoo's convention for board games; the same
in :mod:`morrigo.gym_env`):

* ``observation``: ``float32`` planes of shape ``(planes, points)`` over
  the board graph's points, seen by the observing agent
  (:meth:`morrigo.State.observation`, names in
  :attr:`morrigo.Game.observation_planes`): own pieces, opponent pieces,
  empty points, marked points (delayed removals), a removal owed, own and
  opponent pieces in hand (fraction of the starting hand), one plane per
  phase.
* ``history``: ``float32`` rows of the last completed turns, shape
  ``(turns, features)`` (:meth:`morrigo.State.history_observation`, names
  in :attr:`morrigo.Game.history_features`), row 0 the last: whether the
  observing agent made it, the action blocks of its plies, and the move
  class the engine recorded (``N``, ``C``, a pass kind, the end of a
  derived run like JK's ``D``): what the ruleset's history patterns read,
  so that e.g. when a JK pass is legal can be learned from the
  observation. ``turns`` is how far back the patterns look when that is
  bounded, else 8.
* ``action_mask``: ``int8`` of :attr:`morrigo.Game.action_size`, 1 for the
  legal actions of the agent to move (all zeros for the other agent).

Actions: one fixed ``Discrete(n)`` space per ruleset, in blocks
(:attr:`morrigo.Game.action_blocks`): ``drop`` (N: place or board play on
point ``a``), ``move`` (N×N: ``from * N + to``, a slide, fly or leap),
``remove`` (N: remove the piece on point ``a``), ``pass`` (one per pass
kind), each present only if the ruleset has such moves. An illegal action
raises :class:`morrigo.IllegalMoveError`.

Rewards: +1 to the winner and -1 to the loser when an end rule decides, 0
for a draw or no result. A game still running after ``max_plies`` plies, or
one the rules leave stuck (no legal move and no end rule deciding), is
truncated for both agents with reward 0.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import morrigo

from . import _env


def env(ruleset: Union[str, "morrigo.Game"], **kwargs: Any) -> "MorrigoAECEnv":
    """A :class:`MorrigoAECEnv` for ``ruleset`` (a :class:`morrigo.Game`, a
    built-in name, a path or YAML text)."""
    return MorrigoAECEnv(ruleset, **kwargs)


class MorrigoAECEnv(AECEnv):
    """PettingZoo AEC environment over a Morrigo ruleset (see the module
    docs for observations, actions and rewards)."""

    metadata = {
        "render_modes": _env.RENDER_MODES,
        "name": "morrigo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: Union[str, "morrigo.Game"],
        size: Union[int, str, tuple, None] = None,
        komi: Optional[float] = None,
        max_plies: int = 2000,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self.game = _env.game_of(ruleset, size, komi)
        _env.check_render_mode(render_mode)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = list(self.game.players)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: _env.observation_space(self.game) for a in self.possible_agents}
        n = self.game.action_size
        self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self.state_: Optional[morrigo.State] = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The agent's observation space (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(game.action_size)`` (the same object at every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Start a new game (the rules are deterministic: ``seed`` only seeds
        the action spaces' sampling)."""
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.state_ = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.to_move]
        if self.state_.is_over() or not self.state_.legal_actions():
            self._finish()

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """The planes and recent turns seen by ``agent`` and its action
        mask (zeros unless it is the agent to move)."""
        to_act = agent == self.agent_selection and not (
            self.terminations[agent] or self.truncations[agent]
        )
        return _env.observe(self.state_, self._seat[agent], to_act)

    def step(self, action: Optional[int]) -> None:
        """Play ``action`` for the agent to move (``None`` for an agent that
        is done, as PettingZoo steps it out)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.state_.apply(int(action))
        self._finish()
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[self.state_.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        """Mark the game's end, if it has come, with its rewards."""
        result = self.state_.result()
        if result["over"]:
            for a, seat in self._seat.items():
                self.rewards[a] = _env.reward(result, seat)
                self.terminations[a] = True
                self.infos[a] = {"result": result}
        elif result["stuck"] or self.state_.ply >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"result": result}

    def render(self) -> Optional[str]:
        """The board as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
        return _env.render(self.state_, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
