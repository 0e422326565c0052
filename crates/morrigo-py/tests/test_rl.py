"""The RL environments: PettingZoo's own API test, Gymnasium's checker, and
the action encoding they share."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import morrigo
from morrigo.gym_env import MorrigoEnv
from morrigo.pettingzoo_env import env


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    "ruleset,size,cycles",
    [("nine-mens-morris", None, 1000), ("jk-final", 9, 400), ("dara", None, 300), ("el-filja", None, 300), ("tests/rulesets/nmm-leap.yaml", None, 300)],
)
def test_pettingzoo_api(ruleset, size, cycles, root):
    if ruleset.startswith("tests/"):
        ruleset = str(root / ruleset)
    api_test(env(ruleset, size=size), num_cycles=cycles)


def test_action_blocks_cover_every_move_kind():
    """Nine Men's Morris: drop, move (slide/fly) and remove blocks; JK: drop
    and one action per pass kind."""
    nmm = morrigo.load("nine-mens-morris")
    assert nmm.action_blocks == [("drop", 0, 24), ("move", 24, 576), ("remove", 600, 24)]
    jk = morrigo.load("jk-final", size=9)
    assert jk.action_blocks == [("drop", 0, 81), ("pass", 81, 2)]
    assert [jk.action_text(81), jk.action_text(82)] == ["pass:P", "pass:E"]
    assert nmm.action_text(24 + 0 * 24 + 3) == "a1-" + nmm.points[3]


def test_a_game_through_the_aec_env_ends_with_rewards():
    """Random legal actions until the game ends: the winner gets +1 and the
    loser -1 (or 0 each for a draw), and the mills' removals are plies of
    the same agent."""
    e = env("nine-mens-morris")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = {a: 0 for a in e.possible_agents}
    repeats = 0
    last = None
    for agent in e.agent_iter(5000):
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        repeats += agent == last
        last = agent
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    assert repeats > 0, "a removal is a second ply of the same agent"
    assert sorted(totals.values()) in ([-1, 1], [0, 0])


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    "ruleset,size,seat,opponent",
    [("nine-mens-morris", None, 0, "greedy"), ("jk-final", 5, 1, "random")],
)
def test_gymnasium_check_env(ruleset, size, seat, opponent):
    check_env(MorrigoEnv(ruleset, size=size, seat=seat, opponent=opponent))


def test_gym_episode_and_illegal_action():
    e = MorrigoEnv("three-mens-morris", opponent="random")
    obs, info = e.reset(seed=1)
    rng = np.random.default_rng(0)
    done, reward = False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = e.step(action)
        done = term or trunc
    assert reward in (-1.0, 0.0, 1.0) and "result" in info
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = e.step(illegal)
    assert (reward, term) == (-1.0, True) and "illegal_move" in info
    strict = MorrigoEnv("three-mens-morris", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(morrigo.IllegalMoveError):
        strict.step(illegal)


def test_gym_seeded_episodes_repeat():
    def episode(seed):
        e = MorrigoEnv("nine-mens-morris", opponent="random")
        obs, _ = e.reset(seed=seed)
        moves = []
        done = False
        while not done:
            a = int(np.flatnonzero(obs["action_mask"])[0])
            obs, r, term, trunc, _ = e.step(a)
            moves.append(a)
            done = term or trunc
        return moves, e.state_.history

    assert episode(11) == episode(11)


@pytest.mark.parametrize(
    "ruleset,size",
    [
        ("nine-mens-morris", None),
        ("el-filja", None),
        ("dara", None),
        ("tests/rulesets/nmm-leap-flying.yaml", None),
        ("jk-final", 5),
    ],
)
def test_every_action_is_legal_exactly_when_masked(ruleset, size, root):
    """Along a random game, each action of the whole space is accepted by
    `apply` exactly when the mask marks it, and then plays the same ply as
    the Move it stands for."""
    if ruleset.startswith("tests/"):
        ruleset = str(root / ruleset)
    game = morrigo.load(ruleset, size=size)
    s = game.new_state()
    rng = np.random.default_rng(5)
    kinds = set()
    while not s.is_over() and s.ply < 120:
        mask = s.action_mask()
        by_action = {m.action: m for m in s.legal_moves()}
        assert set(np.flatnonzero(mask).tolist()) == set(by_action)
        for a in range(game.action_size):
            probe = s.copy()
            if mask[a]:
                probe.apply(a)
                moved = s.copy()
                moved.apply(by_action[a])
                assert probe.zobrist() == moved.zobrist() and probe.history == moved.history
            else:
                with pytest.raises(morrigo.IllegalMoveError):
                    probe.apply(a)
        mv = by_action[int(rng.choice(list(by_action)))]
        kinds.add(mv.kind)
        s.apply(mv)
    assert len(kinds) >= 2, kinds
