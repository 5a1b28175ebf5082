"""The searching bots' machinery: expectimax's depth, chance nodes and transposition cache;
MCTS's budgets and its strength with more iterations."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

from ghostparty.bots import ExpectimaxBot, GreedyBot, MctsBot
from ghostparty.bots import expectimax as expectimax_module
from ghostparty.bots.evaluation import estimates, utility
from ghostparty.rules import (
    HUGO,
    MOVE,
    OVER,
    ROLL,
    Move,
    Position,
    Roll,
    apply,
    legal_actions,
    position_from_dict,
    ruleset,
    start_position,
)
from tests.rules.builders import hugo_pos, mp_pos

from . import situations
from .test_bots import decisions, sample_positions

# The die by hand (RULES.md §1.4): faces 1, 2, HUGO, 4, 5, HUGO.
DIE_BY_HAND = {Roll(1): 1 / 6, Roll(2): 1 / 6, Roll(4): 1 / 6, Roll(5): 1 / 6, Roll(HUGO): 2 / 6}


def hand_positions() -> list[Position]:
    return [
        position_from_dict(build())
        for build in (
            situations.only_safe_room,
            situations.green_room,
            situations.capture_to_avoid,
            situations.expel_onto_hugo,
            situations.mp_pass,
        )
    ]


# -- expectimax ----------------------------------------------------------------------------


def test_depth_one_chooses_like_greedy() -> None:
    """Depth 1 is the bot's own move judged by the static evaluation: the greedy bot,
    ties broken alike by the same random source."""
    moves = [p for p in decisions("hugo", 4, 5, 0) + decisions("midnight-party", 3, 6, 1) if p.phase == MOVE]
    cases = [*hand_positions(), *sample_positions(), *moves[::9][:12]]
    for p in cases:
        for seed in (0, 3):
            assert ExpectimaxBot(depth=1).choose(p, random.Random(seed)) == GreedyBot().choose(p, random.Random(seed))


def reply_by_hand(p: Position) -> list[float]:
    """The estimates after the mover's best move by the static evaluation (depth 1)."""
    seat = p.to_move
    best: list[float] | None = None
    for action in legal_actions(p):
        values = estimates(apply(p, action))
        if best is None or utility(values, seat) < utility(best, seat) - 1e-12:
            best = values
    assert best is not None
    return best


ROLL_POSITIONS = [
    pytest.param(hugo_pos([["G18", "G24"], *situations.SIX_OTHERS], hugo="G20"), id="hugo-6p"),
    pytest.param(
        hugo_pos(
            [
                ["G6", "G12", "G21", "R:library", "R:fireplace", "R:bedchamber"],
                ["G5", "G30", "R:chapel", "R:armory", "R:portrait-hall", "R:ballroom"],
            ],
            hugo="G3",
            clock="2:00",
            to_move=1,
        ),
        id="hugo-2p",
    ),
    pytest.param(
        mp_pos(
            [
                ["G19", "G25", "R:library", "R:music-room", "C10"],
                ["G5", "G6", "G9", "R:chapel", "R:ballroom"],
                ["G30", "R:tower", "C9", "C8", "C7"],
            ],
            hugo="G17",
            to_move=2,
        ),
        id="midnight-party-3p",
    ),
]


@pytest.mark.parametrize("pos", ROLL_POSITIONS)
def test_roll_node_is_the_probability_weighted_average(pos: dict[str, Any]) -> None:
    """``value(p, 1)`` of a roll position: a number (1/6 each) leads to the mover's best
    move by the static evaluation, HUGO (1/3) ends the turn and is evaluated at once."""
    p = position_from_dict(pos)
    assert p.phase == ROLL
    expected = [0.0] * p.players
    for roll, weight in DIE_BY_HAND.items():
        child = apply(p, roll)
        values = reply_by_hand(child) if child.phase == MOVE else estimates(child)
        for seat, v in enumerate(values):
            expected[seat] += weight * v
    points = ExpectimaxBot(depth=2, temperature=None)  # values in expected spooky points
    assert points.value(p, 1) == pytest.approx(expected, abs=1e-9)
    # depth 0 is the static evaluation itself
    assert points.value(p, 0) == estimates(p)


def losses_by_hand(values: list[float], temperature: float) -> list[float]:
    """Each seat's chance of losing: 1 / (1 + e^(-u/T)), u its estimate minus the best other's."""
    return [1 / (1 + math.exp(-utility(values, seat) / temperature)) for seat in range(len(values))]


@pytest.mark.parametrize("pos", ROLL_POSITIONS)
def test_with_a_temperature_roll_nodes_average_chances_of_losing(pos: dict[str, Any]) -> None:
    """With a temperature (the default, 8) the leaves are each seat's chance of losing, a
    logistic of its utility, and a roll node averages those chances, not the points: a
    risky move is judged by how often it loses, not by its mean."""
    p = position_from_dict(pos)
    bot = ExpectimaxBot(depth=2)
    assert bot.temperature == 8
    assert bot.value(p, 0) == pytest.approx(losses_by_hand(estimates(p), 8))
    expected = [0.0] * p.players
    for roll, weight in DIE_BY_HAND.items():
        child = apply(p, roll)
        if child.phase == MOVE:
            best = min(
                (losses_by_hand(estimates(apply(child, a)), 8) for a in legal_actions(child)),
                key=lambda losses: losses[child.to_move],
            )
        else:
            best = losses_by_hand(estimates(child), 8)
        for seat, v in enumerate(best):
            expected[seat] += weight * v
    assert bot.value(p, 1) == pytest.approx(expected, abs=1e-9)


def test_a_finished_game_is_lost_or_shared() -> None:
    """A finished game's leaf: 0 for the sole winner, 1 - 1/k for k sharing, 1 for the rest."""
    p = position_from_dict(ROLL_POSITIONS[1].values[0])
    over = p._replace(phase=OVER, winners=(1,))
    assert ExpectimaxBot().value(over, 2) == [1.0, 0.0]
    shared = p._replace(phase=OVER, winners=(0, 1))
    assert ExpectimaxBot().value(shared, 2) == [0.5, 0.5]


def test_midnight_party_number_without_gallery_guests_ends_the_turn() -> None:
    """§8.3: with no guest on the gallery a number does nothing, so every face ends the
    turn, and the roll node is the plain average of the five outcomes."""
    p = position_from_dict(
        mp_pos(
            [["R:library", "R:chapel", "C10", "C9", "C8", "C7"], ["G5", "G6", "G9", "R:tower", "C6", "C5"]], hugo="G20"
        )
    )
    expected = [0.0, 0.0]
    for roll, weight in DIE_BY_HAND.items():
        child = apply(p, roll)
        assert child.phase == ROLL and child.to_move == 1
        for seat, v in enumerate(estimates(child)):
            expected[seat] += weight * v
    assert ExpectimaxBot(temperature=None).value(p, 1) == pytest.approx(expected, abs=1e-9)


def test_transposition_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position is evaluated once per decision: ``nodes`` counts distinct leaves, a
    repeated ``value`` is answered from the cache without searching, and the cache does
    not change any result."""
    calls: list[Position] = []

    def counting(p: Position) -> list[float]:
        calls.append(p)
        return estimates(p)

    applied: list[Any] = []
    real_apply = expectimax_module.apply

    def counting_apply(p: Position, action: Any) -> Position:
        applied.append(action)
        return real_apply(p, action)

    monkeypatch.setattr(expectimax_module, "estimates", counting)
    monkeypatch.setattr(expectimax_module, "apply", counting_apply)
    p = position_from_dict(ROLL_POSITIONS[1].values[0])
    bot = ExpectimaxBot(depth=3, beam=3)
    first = bot.value(p, 2)
    assert bot.nodes == len(calls) == len(set(calls)) > 0
    seen, searched = bot.nodes, len(applied)
    assert bot.value(p, 2) == first
    assert bot.nodes == seen == len(calls)  # answered from the cache:
    assert len(applied) == searched  # no position generated again
    assert ExpectimaxBot(depth=3, beam=3).value(p, 2) == pytest.approx(first)  # a fresh bot agrees

    # one decision: each leaf once; a second decision starts a new cache, same work, same answer
    mover = apply(p, Roll(4))
    calls.clear()
    action = bot.choose(mover, random.Random(0))
    assert bot.nodes == len(calls) == len(set(calls))
    nodes = bot.nodes
    assert bot.choose(mover, random.Random(0)) == action
    assert bot.nodes == nodes


def test_beam_limits_replies_below_depth_one() -> None:
    """The beam limits replies only where they are searched further (depth > 1): at
    depth 2 the replies are judged statically, so the beam changes nothing; at depth 3
    a beam of 1 searches fewer positions than no beam. Both find the expulsion."""
    p = position_from_dict(situations.expel_onto_hugo())
    right = Move("G21", "R:portrait-hall")
    counts = {}
    for depth, beam in ((2, None), (2, 1), (3, None), (3, 1)):
        bot = ExpectimaxBot(depth=depth, beam=beam)
        assert bot.choose(p, random.Random(0)) == right
        counts[depth, beam] = bot.nodes
    assert counts[2, None] == counts[2, 1] > 0
    assert counts[3, None] > counts[3, 1] > counts[2, 1]


def test_depth_must_be_positive() -> None:
    with pytest.raises(ValueError, match="depth"):
        ExpectimaxBot(depth=0)


def test_auto_depth_and_beam() -> None:
    """``auto`` (the default) searches three turns with a beam of 2 between two players,
    two turns with a beam of 4 among more, in both rule sets; a given depth or beam is
    kept."""
    games = {
        (rules, n): start_position(ruleset(rules), n) for rules in ("hugo", "midnight-party") for n in (2, 3, 4, 8)
    }
    auto = ExpectimaxBot()
    assert {key: auto.settings(p) for key, p in games.items()} == {
        ("hugo", 2): (3, 2),
        ("hugo", 3): (2, 4),
        ("hugo", 4): (2, 4),
        ("hugo", 8): (2, 4),
        ("midnight-party", 2): (3, 2),
        ("midnight-party", 3): (2, 4),
        ("midnight-party", 4): (2, 4),
        ("midnight-party", 8): (2, 4),
    }
    hugo2, hugo4 = games["hugo", 2], games["hugo", 4]
    assert ExpectimaxBot(depth=4).settings(hugo4) == (4, 2)
    assert ExpectimaxBot(depth=2).settings(hugo2) == (2, 4)
    assert ExpectimaxBot(beam=None).settings(hugo2) == (3, None)
    assert ExpectimaxBot(depth=1, beam=3).settings(hugo2) == (1, 3)
    p = position_from_dict(situations.only_safe_room())
    auto.choose(p, random.Random(0))
    assert (auto.depth, auto.beam) == auto.settings(p)


# -- MCTS -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "right"),
    [
        (situations.capture_to_avoid, Move("G24", "G26")),
        (situations.green_room, Move("G30", "R:banquet-hall")),
        (situations.only_safe_room, Move("G6", "R:chapel")),
    ],
)
def test_mcts_finds_the_obvious_move(build: Any, right: Move) -> None:
    p = position_from_dict(build())
    for seed in range(2):
        bot = MctsBot(iterations=400)
        assert bot.choose(p, random.Random(seed)) == right
        assert bot.last_iterations == 400


def test_mcts_iteration_budget() -> None:
    p = position_from_dict(situations.expel_onto_hugo())
    bot = MctsBot(iterations=37)
    bot.choose(p, random.Random(0))
    assert bot.last_iterations == 37
    bot = MctsBot(iterations=3)  # fewer iterations than moves: still a legal move
    assert bot.choose(p, random.Random(0)) in legal_actions(p)
    assert bot.last_iterations == 3


def test_mcts_time_budget_stops() -> None:
    """With ``seconds`` the time decides, not the iteration count."""
    p = position_from_dict(situations.expel_onto_hugo())
    bot = MctsBot(iterations=1, seconds=0.05)
    started = time.perf_counter()
    action = bot.choose(p, random.Random(0))
    elapsed = time.perf_counter() - started
    assert action in legal_actions(p)
    assert bot.last_iterations > 1
    assert elapsed < 1.0  # generous: a loaded machine may overshoot the budget, not by seconds


def test_mcts_last_iterations_after_a_forced_move() -> None:
    """``last_iterations`` is documented as the iterations run by the last decision: a
    forced move (one legal action) runs none."""
    bot = MctsBot(iterations=25)
    bot.choose(position_from_dict(situations.expel_onto_hugo()), random.Random(0))
    forced = position_from_dict(hugo_pos([["G5", "G5"], *situations.SIX_OTHERS], hugo="G35", roll=2))
    assert legal_actions(forced) == [Move("G5", "G7")]
    assert bot.choose(forced, random.Random(0)) == Move("G5", "G7")
    assert bot.last_iterations == 0


def _static_losses(position: Position) -> list[float]:
    return expectimax_module._losses(position, estimates(position), 8.0)


def test_mcts_opening_the_root_judges_every_move_statically() -> None:
    """One iteration opens the root: each move's value is the static evaluation's
    chances of losing after it (expectimax's leaf), so the choice is depth-1 expectimax's."""
    p = position_from_dict(situations.capture_to_avoid())
    values = MctsBot(iterations=1).values(p, random.Random(0))
    assert list(values) == legal_actions(p)
    for action, got in values.items():
        assert got == _static_losses(apply(p, action))
    assert MctsBot(iterations=1).choose(p, random.Random(0)) == ExpectimaxBot(depth=1).choose(p, random.Random(0))


@pytest.mark.parametrize("faces", ["decided", "static"])
def test_mcts_a_chance_node_backs_up_the_die_s_exact_expectation(faces: str) -> None:
    """The second iteration opens one move's roll node: its value becomes the
    probability-weighted mean over the five faces (1/6 each number, 1/3 HUGO), not a
    sample. A number face leaves a decision to make: with decided faces it is worth the
    mover's best move judged statically (depth-1 expectimax), else the static value of
    the position with the roll in hand."""
    p = position_from_dict(situations.capture_to_avoid())
    static = MctsBot(iterations=1, faces=faces).values(p, random.Random(0))
    searched = MctsBot(iterations=2, faces=faces).values(p, random.Random(0))
    changed = [action for action in searched if searched[action] != static[action]]
    assert len(changed) == 1
    after = apply(p, changed[0])
    assert after.phase == "roll"
    expected = [0.0] * p.players
    judged_after_a_decision = 0
    for roll, weight in DIE_BY_HAND.items():
        child = apply(after, roll)
        if child.phase == "move" and faces == "decided":
            mover = child.to_move
            face = min((_static_losses(apply(child, a)) for a in legal_actions(child)), key=lambda v: v[mover])
            judged_after_a_decision += face != _static_losses(child)
        else:
            face = _static_losses(child)
        for seat, v in enumerate(face):
            expected[seat] += weight * v
    assert judged_after_a_decision == (4 if faces == "decided" else 0)  # the position tells them apart
    assert searched[changed[0]] == pytest.approx(expected, abs=1e-12)


def test_mcts_faces_auto_decides_them_between_two_players_only() -> None:
    two = position_from_dict(situations.expel_onto_hugo())
    many = position_from_dict(situations.capture_to_avoid())
    assert (two.players, many.players) == (2, 6)
    for p, same_as in ((two, "decided"), (many, "static")):
        auto = MctsBot(iterations=40).values(p, random.Random(3))
        assert auto == MctsBot(iterations=40, faces=same_as).values(p, random.Random(3))
    assert MctsBot(iterations=40, faces="static").values(two, random.Random(3)) != MctsBot(iterations=40).values(
        two, random.Random(3)
    )
    assert [MctsBot().decides_faces(n) for n in range(2, 9)] == [True] + [False] * 6


def test_mcts_searches_deeper_with_more_iterations_and_stays_deterministic() -> None:
    p = position_from_dict(situations.expel_onto_hugo())
    first = MctsBot(iterations=300).values(p, random.Random(5))
    assert first == MctsBot(iterations=300).values(p, random.Random(5))
    shallow = MctsBot(iterations=1).values(p, random.Random(5))
    # The default exploration spends the budget on the two moves that look best (one
    # clearly best), leaving the six others at their static values ...
    ranked = sorted(shallow, key=lambda a: shallow[a][p.to_move])
    assert ranked[0] == Move("G21", "R:portrait-hall")
    assert {a for a in first if first[a] != shallow[a]} == set(ranked[:2])
    # ... a larger one searches the others below the root too.
    wide = MctsBot(iterations=300, exploration=1.0).values(p, random.Random(5))
    assert sum(wide[a] != shallow[a] for a in wide) == len(wide)
