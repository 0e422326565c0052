"""What the PettingZoo and Gymnasium environments share: the game they
load, the observation space and the observations, and rendering.

An observation is a dict (PettingZoo's convention for board games):

* ``observation``: the ``float32`` planes of :meth:`morrigo.State.observation`,
  shape :attr:`morrigo.Game.observation_shape`, seen by the observing seat;
* ``history``: the ``float32`` rows of the recent turns,
  :meth:`morrigo.State.history_observation`, shape
  :attr:`morrigo.Game.history_shape`;
* ``action_mask``: ``int8`` of :attr:`morrigo.Game.action_size`, 1 for the
  legal actions (all zeros when the observer is not to move).
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Union

import gymnasium
import numpy as np

import morrigo

RENDER_MODES = ["human", "ansi"]


def game_of(
    ruleset: Union[str, "morrigo.Game"], size: Any = None, komi: Optional[float] = None
) -> "morrigo.Game":
    """``ruleset`` itself when it is a :class:`morrigo.Game`, else loaded."""
    if isinstance(ruleset, morrigo.Game):
        return ruleset
    return morrigo.load(ruleset, size=size, komi=komi)


def check_render_mode(render_mode: Optional[str]) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"unknown render mode {render_mode!r}: expected 'human' or 'ansi'")


def observation_space(game: "morrigo.Game") -> gymnasium.spaces.Dict:
    """The fixed observation space of ``game`` (see the module docs)."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                0.0, 1.0, shape=game.observation_shape, dtype=np.float32
            ),
            "history": gymnasium.spaces.Box(0.0, 1.0, shape=game.history_shape, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(game.action_size,), dtype=np.int8),
        }
    )


def observe(state: "morrigo.State", seat: int, to_act: bool) -> Dict[str, np.ndarray]:
    """What ``seat`` sees of ``state``; its mask is the legal actions when
    ``to_act``, else all zeros."""
    if to_act:
        mask = state.action_mask()
    else:
        mask = np.zeros(state.game.action_size, dtype=np.int8)
    return {
        "observation": state.observation(seat),
        "history": state.history_observation(seat),
        "action_mask": mask,
    }


def render(state: "morrigo.State", render_mode: Optional[str]) -> Optional[str]:
    """The board as text: returned for ``ansi``, printed for ``human``."""
    if render_mode is None:
        return None
    text = str(state)
    if render_mode == "ansi":
        return text
    print(text)
    return None


def reward(result: Mapping[str, Any], seat: int) -> int:
    """+1 when ``seat`` won the finished game, -1 when it lost, else 0."""
    winner = result["winner_seat"]
    if not result["over"] or winner is None:
        return 0
    return 1 if winner == seat else -1
