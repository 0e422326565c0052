"""The recent turns in observations: the move-class history that history
patterns (`after('…')`) read, which the board planes cannot show."""

import ast
import pathlib

import numpy as np
import pytest

import morrigo
from morrigo.gym_env import MorrigoEnv
from morrigo.pettingzoo_env import env

P_PASS = "pass:P"
E_PASS = "pass:E"


def row(game, hist, i):
    """The names of the columns set in row ``i``."""
    return {name for name, v in zip(game.history_features, hist[i]) if v}


def test_jk_normal_pass_depends_on_history_and_the_history_shows_it():
    """JK (`no_normal_pass`: no P after `N | P | E | …`): on the empty board
    with black to move, P is legal at the start and illegal after P, E.
    The planes are equal; the history rows tell the two apart."""
    game = morrigo.load("jk-final", size=5)
    start = game.new_state()
    passed = game.new_state()
    passed.apply(P_PASS)
    passed.apply(E_PASS)
    assert start.to_move == passed.to_move == 0
    assert (start.board() == passed.board()).all()
    assert np.array_equal(start.observation(), passed.observation())
    p_action = game.action_blocks[-1][1]
    assert start.action_mask()[p_action] == 1 and passed.action_mask()[p_action] == 0
    h0, h1 = start.history_observation(), passed.history_observation()
    assert not np.array_equal(h0, h1)
    assert not h0.any(), "no turn before the start"
    assert row(game, h1, 0) == {"kind pass", "class E"}
    assert row(game, h1, 1) == {"own turn", "kind pass", "class P"}
    assert not h1[2:].any()


def test_jk_history_in_both_environments():
    """The same two positions through PettingZoo and Gymnasium: the
    `history` entry differs, in the declared space."""
    aec = env("jk-final", size=5)
    aec.reset(seed=0)
    first = aec.observe("black")
    aec.step(aec.game.action_blocks[-1][1])  # P
    aec.step(aec.game.action_blocks[-1][1] + 1)  # E
    second = aec.observe("black")
    assert np.array_equal(first["observation"], second["observation"])
    assert not np.array_equal(first["history"], second["history"])
    for obs in (first, second):
        assert aec.observation_space("black").contains(obs)

    gym = MorrigoEnv("jk-final", size=5, opponent="random")
    obs, _ = gym.reset(seed=0)
    assert gym.observation_space.contains(obs)
    assert obs["history"].shape == gym.game.history_shape == (8, 8)


# JK on 7x7 with three edge kos (the set-up of the scenario file
# tests/scenarios/go/jk-final-kos.yaml): every capture in them is a ko
# capture C, and four of them in a row, the last taking the stone the first
# placed, are a D (JK Art. 2.7).
JK_KOS = """
name: jk-final-kos
extends: jk-final
board:
  grid: { width: 7, height: 7, naming: gtp }
setup:
  stones:
    black: [C2, D1, C6, D7, G3, F4, G5]
    white: [A1, B2, C1, A7, B6, C7, F5, G6]
"""


def test_ko_captures_and_a_d_are_in_the_history_and_decide_the_passes():
    """`B1 G4 B7 C1` are four ko captures forming a D; after `D P` no pass
    is legal (JK Art. 2.7.1, `no_pass_after_d`). The rows show C, C, C, C
    with the D on the last, then the P."""
    game = morrigo.load(JK_KOS)
    s = game.new_state()
    for mv in ["B1", "G4", "B7", "C1"]:
        s.apply(mv)
    h = s.history_observation()
    assert row(game, h, 0) == {"kind drop", "class C", "class D"}
    for i in (1, 2, 3):
        assert row(game, h, i) - {"own turn"} == {"kind drop", "class C"}
    assert not h[4:].any()
    s.apply(P_PASS)
    h = s.history_observation()
    assert row(game, h, 0) == {"kind pass", "class P"}
    assert row(game, h, 1) == {"own turn", "kind drop", "class C", "class D"}
    passes = game.action_blocks[-1]
    assert not s.action_mask()[passes[1] : passes[1] + passes[2]].any()


def test_the_history_reach_comes_from_the_patterns():
    """Tromp-Taylor ends on `after('P P')`: two turns are shown. JK's
    patterns name D (a run of any length): the documented 8. A ruleset
    without patterns: 8."""
    tt = morrigo.load("tromp-taylor", size=5)
    assert tt.history_shape == (2, 5)
    assert tt.history_features == ["own turn", "kind drop", "kind pass", "class N", "class P"]
    jk = morrigo.load("jk-final", size=5)
    assert jk.history_features == [
        "own turn", "kind drop", "kind pass",
        "class N", "class C", "class P", "class E", "class D",
    ]
    nmm = morrigo.load("nine-mens-morris")
    assert nmm.history_shape == (8, 4)
    assert nmm.history_features == ["own turn", "kind drop", "kind move", "kind remove"]


def test_tromp_taylor_two_passes_end_is_in_the_window():
    """`after('P P')` ends the game: after one pass the last row shows it,
    and the older rows move down as turns are played."""
    game = morrigo.load("tromp-taylor", size=5)
    s = game.new_state()
    s.apply("C3")
    s.apply("pass")
    h = s.history_observation()
    assert row(game, h, 0) == {"kind pass", "class P"}
    assert row(game, h, 1) == {"own turn", "kind drop", "class N"}
    s.apply("pass")
    assert s.is_over()


def test_morris_turns_show_their_plies_and_the_turn_under_way_has_no_row():
    """Nine Men's Morris: a turn that closes a mill is a move and a
    removal; the row appears once the removal completes the turn."""
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    for mv in ["a1", "b2", "d1", "b4", "g1"]:
        s.apply(mv)
    assert s.pending_removals == 1
    h = s.history_observation(0)
    assert row(game, h, 0) == {"kind drop"}  # black's b4
    assert row(game, h, 1) == {"own turn", "kind drop"}  # white's d1
    assert not h[5:].any()
    s.apply("xb2")
    h = s.history_observation(0)
    assert row(game, h, 0) == {"own turn", "kind drop", "kind remove"}
    assert row(game, h, 1) == {"kind drop"}
    # Undo takes the rows back.
    s.undo()
    s.undo()
    assert row(game, s.history_observation(0), 0) == {"kind drop"}
    assert row(game, s.history_observation(0), 1) == {"own turn", "kind drop"}


def test_history_rows_are_seen_by_the_seat():
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    s.apply("a1")
    assert row(game, s.history_observation(0), 0) == {"own turn", "kind drop"}
    assert row(game, s.history_observation(1), 0) == {"kind drop"}


def test_the_stubs_name_every_public_attribute():
    """`_native.pyi` lists what the Rust classes and module export."""
    import morrigo._native as native

    stub = pathlib.Path(morrigo.__file__).with_name("_native.pyi")
    tree = ast.parse(stub.read_text())
    declared = {}
    top = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    names.add(item.target.id)
            declared[node.name] = names
            top.add(node.name)
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    exported = {n for n in dir(native) if not n.startswith("_")}
    assert exported <= top, exported - top
    for cls in ("Game", "State", "Move", "Agent"):
        public = {n for n in vars(getattr(native, cls)) if not n.startswith("_")}
        stubbed = {n for n in declared[cls] if not n.startswith("_")}
        assert public == stubbed, (cls, public ^ stubbed)
