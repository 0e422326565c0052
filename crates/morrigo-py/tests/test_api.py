"""The Python API against the engine and the CLI: the same moves, the same
refusals with the same rule locations, the same counts and games."""

import copy
import json
import random
import subprocess
import threading
import time

import numpy as np
import pandas as pd
import pytest

import morrigo


def cli_perft(cli, ruleset, depth, *extra):
    out = subprocess.run(
        [cli, "perft", ruleset, str(depth), *extra], capture_output=True, text=True, check=True
    ).stdout
    rows = [line.split() for line in out.splitlines() if line.split() and line.split()[0].isdigit()]
    return {int(r[0]): int(r[1]) for r in rows}


@pytest.mark.parametrize(
    "ruleset,size",
    [("nine-mens-morris", None), ("morabaraba", None), ("jk-final", 9), ("chinese", 5), ("dara", None)],
)
def test_legal_moves_match_cli_perft(cli, ruleset, size):
    """perft 1 of the CLI is the number of legal moves at the start; perft 3
    walked from Python with apply/undo is the CLI's perft 3."""
    extra = ["--size", str(size)] if size else []
    counts = cli_perft(cli, ruleset, 3, *extra)
    game = morrigo.load(ruleset, size=size)
    s = game.new_state()
    assert len(s.legal_moves()) == counts[1]

    def walk(depth):
        if depth == 0:
            return 1
        total = 0
        for mv in s.legal_moves():
            s.apply(mv)
            total += walk(depth - 1)
            s.undo()
        return total

    assert walk(2) == counts[2]
    assert game.perft(3) == counts[3]


def test_apply_undo_round_trip():
    """A random game of Nine Men's Morris (removals included), undone ply by
    ply, passes back through every position: board, hands, player to move,
    legal moves and Zobrist key."""
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    rng = random.Random(7)
    seen = []
    while not s.is_over() and s.ply < 300:
        seen.append((s.zobrist(), s.board().tobytes(), s.in_hand, s.to_move, [m.text for m in s.legal_moves()]))
        s.apply(rng.choice(s.legal_moves()))
    assert s.ply > 20
    assert any(h.startswith("x") for h in s.history), "the game should include removals"
    while seen:
        s.undo()
        assert (s.zobrist(), s.board().tobytes(), s.in_hand, s.to_move, [m.text for m in s.legal_moves()]) == seen.pop()
    assert s.ply == 0
    with pytest.raises(IndexError):
        s.undo()


def test_zobrist_changes_and_restores():
    game = morrigo.load("jk-final", size=9)
    s = game.new_state()
    start = s.zobrist()
    s.apply("E5")
    after = s.zobrist()
    assert after != start
    s.undo()
    assert s.zobrist() == start
    s.apply("E5")
    assert s.zobrist() == after


def test_moves_by_text_object_and_action_agree():
    """A move given as text, as a Move or as its action number is the same
    ply; each legal move's action maps back to its text."""
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    for mv in "a1 d2 d1 b4".split():
        s.apply(mv)
    for mv in s.legal_moves():
        assert game.action_text(mv.action) == mv.text
        by_text, by_move, by_action = s.copy(), s.copy(), s.copy()
        by_text.apply(mv.text)
        by_move.apply(mv)
        by_action.apply(mv.action)
        assert by_text.zobrist() == by_move.zobrist() == by_action.zobrist()
    mask = s.action_mask()
    assert mask.dtype == np.int8 and mask.shape == (game.action_size,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(s.legal_actions())


def test_move_with_its_removal_is_all_or_nothing():
    """`g1xd2` plays the mill and its removal; a bad removal leaves the
    state as it was."""
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    for mv in "a1 d2 d1 b4".split():
        s.apply(mv)
    before = s.zobrist()
    with pytest.raises(morrigo.IllegalMoveError):
        s.apply("g1xa1")  # a1 is White's own piece
    assert s.zobrist() == before and s.ply == 4
    played = s.apply("g1xd2")
    assert [m.text for m in played] == ["g1", "xd2"]
    assert s.board()[game.points.index("d2")] == 0


def test_explain_names_the_rule_and_its_location(root):
    """JK Art. 5: a normal pass right after a board play is forbidden by
    `no_normal_pass`; explain quotes the rule where jk-final.yaml writes it."""
    game = morrigo.load("jk-final", size=5)
    s = game.new_state()
    s.apply("C3")
    why = s.explain("pass:P")
    assert why["legal"] is False
    assert "no_normal_pass" in why["reason"]
    assert why["file"] == "rulesets/go/jk-final.yaml"
    line = (root / why["file"]).read_text().splitlines()[why["line"] - 1]
    assert line[why["column"] - 1 :].startswith(why["rule"])
    assert why["location"] == f"{why['file']}:{why['line']}:{why['column']}"
    with pytest.raises(morrigo.IllegalMoveError) as err:
        s.apply("pass:P")
    e = err.value
    assert (e.file, e.line, e.column, e.rule) == (why["file"], why["line"], why["column"], why["rule"])
    assert "no_normal_pass" in str(e) and e.move == "pass:P"
    assert s.explain("pass:E")["legal"] is True


def test_explain_a_move_the_phase_does_not_allow():
    s = morrigo.load("nine-mens-morris").new_state()
    why = s.explain("a1-a4")
    assert why["legal"] is False and "placing" in why["reason"]


def test_unreadable_move_and_action_out_of_range():
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    with pytest.raises(morrigo.IllegalMoveError, match="z9"):
        s.apply("z9")
    with pytest.raises(ValueError, match="outside the action space"):
        s.apply(game.action_size)
    with pytest.raises(TypeError):
        s.apply(1.5)


def test_result_of_a_won_game():
    """Three Men's Morris: a completed line wins (end rule `line_made`)."""
    s = morrigo.load("three-mens-morris").new_state()
    for mv in "b2 a1 c2 a2 a3 c1 b2-b3 a1-b1 c2-c3".split():
        s.apply(mv)
    r = s.result()
    assert s.is_over() and r["over"]
    assert (r["winner"], r["winner_seat"], r["reason"], r["draw"]) == ("white", 0, "line_made", False)
    assert r["location"].startswith("rulesets/morris/three-mens-morris.yaml:")
    assert s.legal_moves() == []
    with pytest.raises(morrigo.IllegalMoveError, match="game is over"):
        s.apply("a3-b2")


def test_result_of_a_counted_game():
    """JK Art. 4.3: E E ends the game and it is counted (each side one point
    of territory here: a draw)."""
    s = morrigo.load("jk-final", size=5).new_state()
    for mv in "C3 D3 C2 D2 pass:E pass:E".split():
        s.apply(mv)
    r = s.result()
    assert r["over"] and r["draw"] and r["reason"] == "ending_sequence"
    assert r["score"] == {"black": 1.0, "white": 1.0}
    assert s.result()["stuck"] is False


def test_board_observation_and_copy():
    game = morrigo.load("jk-final", size=9)
    s = game.new_state()
    s.apply("E5")
    b = s.board()
    assert b.shape == (81,) and b.dtype == np.int8
    assert b[game.points.index("E5")] == 1 and int(b.sum()) == 1
    obs = s.observation()
    assert obs.shape == game.observation_shape == (len(game.observation_planes), 81)
    assert obs.dtype == np.float32
    # White to move: own pieces are White's (none), the opponent's is E5.
    assert obs[0].sum() == 0 and obs[1][game.points.index("E5")] == 1
    assert obs[2].sum() == 80
    c = copy.copy(s)
    c.apply("D4")
    assert s.ply == 1 and c.ply == 2
    c.undo()
    c.undo()
    assert c.ply == 0 and s.zobrist() != c.zobrist()


def test_to_json_is_the_transcript():
    s = morrigo.load("nine-mens-morris").new_state()
    for mv in "a1 d2 d1 b4 g1xd2".split():
        s.apply(mv)
    t = json.loads(s.to_json())
    assert t["ruleset"] == "nine-mens-morris"
    assert [p["move"] for p in t["plies"]] == ["a1", "d2", "d1", "b4", "g1", "xd2"]
    assert t["result"]["status"] == "ongoing" and t["result"]["to_move"] == "black"


def test_bad_ruleset_raises_with_line_and_column(root, tmp_path):
    """A DSL typo (`on_bord`) in a ruleset file: RulesetError with the file,
    line and column of the unknown name, and the CLI's full diagnostic."""
    text = (root / "rulesets/morris/nine-mens-morris.yaml").read_text()
    assert "on_board(me) <= fly_at" in text
    bad = tmp_path / "broken.yaml"
    bad.write_text(text.replace("on_board(me) <= fly_at", "on_bord(me) <= fly_at", 1))
    with pytest.raises(morrigo.RulesetError) as err:
        morrigo.load(str(bad))
    e = err.value
    line_no = next(i for i, l in enumerate(bad.read_text().splitlines(), 1) if "on_bord" in l)
    assert e.file == str(bad) and e.line == line_no
    assert bad.read_text().splitlines()[e.line - 1][e.column - 1 :].startswith("on_bord")
    assert "unknown name `on_bord`" in e.message
    assert "did you mean `on_board`?" in str(e) and "^" in str(e)
    assert e.diagnostics[0]["line"] == e.line


def test_bad_yaml_text_and_unknown_name():
    with pytest.raises(morrigo.RulesetError) as err:
        morrigo.load("name: x\nboard: {grid: {width: 3}}\n")
    assert (err.value.line, err.value.column) == (2, 15)
    assert "height" in err.value.message
    with pytest.raises(morrigo.RulesetError, match="nine-mens-moris") as err:
        morrigo.load("nine-mens-moris")
    assert err.value.line is None
    assert "did you mean `nine-mens-morris`" in str(err.value)
    with pytest.raises(ValueError, match="board dimension"):
        morrigo.load("jk-final", size=40)


def test_load_yaml_text_with_overrides():
    text = "extends: jk-final\nname: jk-text\ntitle: JK from text\n"
    game = morrigo.load(text, size=(7, 5), komi=0.5)
    assert game.name == "jk-text" and game.num_points == 35


def test_rulesets_listing():
    names = {r["name"]: r for r in morrigo.rulesets()}
    assert names["nine-mens-morris"]["family"] == "morris"
    assert names["jk-final"]["family"] == "go"
    assert morrigo.Game.rulesets() == morrigo.rulesets()


def test_simulate_records_make_a_dataframe(cli):
    """Per-game records: pandas takes them as they are, and they are the
    games `morrigo simulate` plays for the same seed (same wins, draws,
    plies)."""
    records = morrigo.simulate("nine-mens-morris", games=200, seed=5, agents="random")
    df = pd.DataFrame(records)
    assert len(df) == 200 and list(df["game"]) == list(range(200))
    assert {"winner", "end_rule", "plies", "result"} <= set(df.columns)
    out = subprocess.run(
        [cli, "simulate", "nine-mens-morris", "--games", "200", "--seed", "5", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    report = json.loads(out)
    assert (df["winner_seat"] == 0).sum() == report["wins"][0]
    assert (df["winner_seat"] == 1).sum() == report["wins"][1]
    assert (df["result"] == "draw").sum() == report["draws"]
    assert int(df["plies"].sum()) == report["total_plies"]
    same = morrigo.simulate_report("nine-mens-morris", games=200, seed=5)
    assert same["wins"] == report["wins"] and same["end_rules"] == report["end_rules"]
    # Independent of the thread count.
    assert morrigo.simulate("nine-mens-morris", games=200, seed=5, threads=1) == records


def test_simulate_counted_go_games():
    df = pd.DataFrame(morrigo.simulate("jk-final", games=20, seed=3, size=5, agents=["greedy", "random"]))
    assert set(df["first_agent"]) == {"greedy"} and set(df["second_agent"]) == {"random"}
    counted = df[df["end_rule"] == "ending_sequence"]
    assert len(counted) > 0 and counted["score_first"].notna().all()


def test_compare_rows(cli):
    rows = morrigo.compare(
        ["three-mens-morris", "six-mens-morris"], games=100, seed=2, agents=["random", "greedy,random"]
    )
    df = pd.DataFrame(rows)
    assert len(df) == 4
    assert list(df["ruleset"]) == ["three-mens-morris"] * 2 + ["six-mens-morris"] * 2
    assert (df["wins_first"] + df["wins_second"] + df["draws"] + df["unfinished"] == 100).all()
    out = subprocess.run(
        [cli, "compare", "three-mens-morris", "--games", "100", "--seed", "2", "--agents", "greedy,random", "--format", "json"],
        capture_output=True, text=True, check=True,
    ).stdout
    cli_report = json.loads(out)[0]
    row = df[(df["ruleset"] == "three-mens-morris") & (df["first_agent"] == "greedy")].iloc[0]
    assert [row["wins_first"], row["wins_second"], row["draws"]] == cli_report["wins"] + [cli_report["draws"]]


def test_simulate_rejects_bad_agents_and_rulesets():
    with pytest.raises(ValueError, match="agent"):
        morrigo.simulate("nine-mens-morris", games=2, agents="randm")
    with pytest.raises(morrigo.RulesetError):
        morrigo.compare(["nine-mens-morris", "no-such-ruleset"], games=2)


def test_agent_chooses_legal_moves():
    game = morrigo.load("nine-mens-morris")
    s = game.new_state()
    agents = [morrigo.Agent(game, "greedy", seed=1), morrigo.Agent(game, "alphabeta:depth=2", seed=1)]
    while not s.is_over() and s.ply < 200:
        mv = agents[s.to_move].choose(s)
        assert mv in s.legal_moves()
        s.apply(mv)
    assert s.is_over() or s.ply == 200
    with pytest.raises(ValueError, match="another game"):
        agents[0].choose(morrigo.load("three-mens-morris").new_state())


def test_simulate_releases_the_gil():
    """While `simulate` runs in a thread, Python code keeps running."""
    done = threading.Event()
    result = {}

    def work():
        result["records"] = morrigo.simulate("nine-mens-morris", games=3000, seed=1, threads=1)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert len(result["records"]) == 3000
    assert ticks > 5, "the main thread did not run while simulate did"


def test_perft_refuses_a_tree_too_large():
    """The CLI's perft limit (10^10 estimated leaves, `max_nodes`) holds
    from Python too: the count is refused before it starts."""
    game = morrigo.load("nine-mens-morris")
    with pytest.raises(ValueError, match="max_nodes"):
        game.perft(12)
    with pytest.raises(ValueError, match="max_nodes"):
        game.new_state().perft(4, max_nodes=1000)
    assert game.new_state().perft(2, unit="turn") == 552


def test_doc_examples():
    """The examples in the package's docstrings run as written."""
    import doctest

    import morrigo.gym_env
    import morrigo.pettingzoo_env

    for module in (morrigo, morrigo.pettingzoo_env, morrigo.gym_env):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
