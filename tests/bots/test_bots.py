"""The bots: legal and deterministic choices, the registry, and decisions on hand-built
positions whose right answer follows from RULES.md (see :mod:`.positions`)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ghostparty.bots.greedy as greedy_module
from ghostparty.bots import ExpectimaxBot, GreedyBot, MctsBot, RandomBot, bot_names, make_bot
from ghostparty.bots.evaluation import hugo_distance
from ghostparty.rules import (
    MOVE,
    PASS,
    PLACE,
    Move,
    Pass,
    Place,
    Position,
    apply,
    legal_actions,
    position_from_dict,
    ruleset,
    start_position,
)
from tests.rules.builders import playout

from . import situations

# Small budgets: the whole folder must stay fast on a loaded 2-core machine.
SPECS = [
    "random",
    "greedy",
    "learned",
    "expectimax:depth=1",
    "expectimax:depth=2",
    "expectimax:depth=3,beam=2",
    "expectimax:depth=1,eval=learned",
    "mcts:iterations=30",
    "mcts:iterations=20,exploration=0",
    "mcts:iterations=20,eval=learned",
]
# The bots that should find the hand-worked answers.
SEARCHERS = ["greedy", "expectimax:depth=1", "expectimax:depth=2", "mcts:iterations=60"]


def position(pos: dict[str, Any]) -> Position:
    return position_from_dict(pos)


def move_pairs(p: Position) -> set[tuple[str, str]]:
    return {(a.source, a.target) for a in legal_actions(p) if isinstance(a, Move)}


# -- positions from seeded random games ------------------------------------------------


@cache
def decisions(rules: str, players: int, seed: int, first_player: int) -> tuple[Position, ...]:
    """Every position of one seeded random game where a bot would be asked to decide."""
    game = playout(rules, players, seed, first_player=first_player)
    return tuple(p for p in game.positions if p.phase in (PLACE, MOVE))


def kind(p: Position) -> str:
    if p.phase == PLACE:
        return "place"
    return "pass" if PASS in legal_actions(p) else "move"


@st.composite
def decision_positions(draw: st.DrawFn) -> Position:
    """A place or move position of either rule set, 2 to 8 players, passes included."""
    rules = draw(st.sampled_from(["hugo", "midnight-party"]))
    players = draw(st.integers(min_value=2, max_value=8))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    first = draw(st.integers(min_value=0, max_value=players - 1))
    wanted = draw(st.sampled_from(["place", "move", "pass"]))
    pick = draw(st.integers(min_value=0, max_value=10**6))
    found = decisions(rules, players, seed, first)
    # ``hugo`` has no passes, and a game may have none: then any move position.
    chosen = [p for p in found if kind(p) == wanted] or [p for p in found if p.phase == MOVE]
    return chosen[pick % len(chosen)]


LEGALITY_BUDGET = {
    "random": 150,
    "greedy": 150,
    "learned": 100,
    "expectimax:depth=1": 100,
    "expectimax:depth=1,eval=learned": 60,
    "expectimax:depth=2": 60,
    "expectimax:depth=3,beam=2": 25,
    "mcts:iterations=30": 60,
    "mcts:iterations=20,exploration=0": 60,
    "mcts:iterations=20,eval=learned": 40,
}


@pytest.mark.parametrize("spec", SPECS)
def test_bots_choose_only_legal_actions(spec: str) -> None:
    """Every bot returns one of ``legal_actions`` in place and move positions of random
    games of both rule sets with 2 to 8 players, Midnight Party passes included."""
    bot = make_bot(spec)

    @settings(max_examples=LEGALITY_BUDGET[spec])
    @given(p=decision_positions(), seed=st.integers(min_value=0, max_value=2**16))
    def check(p: Position, seed: int) -> None:
        action = bot.choose(p, random.Random(seed))
        assert action in legal_actions(p), f"{spec} chose {action!r} in {p.describe()}"
        apply(p, action)  # the rules accept it too

    check()


def test_bots_on_pass_positions() -> None:
    """Every bot, on Midnight Party positions where a pass is legal, returns a legal action
    (found deterministically, so that passes are covered whatever hypothesis draws)."""
    found = [
        p
        for seed in range(4)
        for p in decisions("midnight-party", 2 + seed, seed, 0)
        if p.phase == MOVE and PASS in legal_actions(p)
    ][::7][:5]
    assert found, "no pass position in the sampled games"
    for spec in SPECS:
        bot = make_bot(spec)
        for p in found:
            assert bot.choose(p, random.Random(1)) in legal_actions(p), spec


# -- determinism and the registry --------------------------------------------------------


def sample_positions() -> list[Position]:
    """A few decisions of different kinds: placement, moves of both rule sets, hand-built."""
    hugo = decisions("hugo", 3, 11, 1)
    party = decisions("midnight-party", 4, 12, 2)
    moves = [p for p in hugo + party if p.phase == MOVE and len(legal_actions(p)) > 2]
    return [
        start_position(ruleset("hugo"), 2),
        *moves[:: max(1, len(moves) // 3)][:3],
        position(situations.capture_to_avoid()),
        position(situations.mp_pass()),
    ]


@pytest.mark.parametrize("spec", SPECS)
def test_same_position_and_seed_give_the_same_action(spec: str) -> None:
    """``choose`` depends only on the position and the random source's state: a fresh
    bot and a reused one (caches, counters) choose alike for the same seed."""
    reused = make_bot(spec)
    for p in sample_positions():
        for seed in (0, 7):
            first = make_bot(spec).choose(p, random.Random(seed))
            assert make_bot(spec).choose(p, random.Random(seed)) == first
            assert reused.choose(p, random.Random(seed)) == first


def test_random_and_greedy_ties_use_the_random_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """The random bot follows the seed; so does greedy among equally good actions (here
    every action made equal by a constant utility)."""
    p = start_position(ruleset("hugo"), 2)
    assert len({RandomBot().choose(p, random.Random(seed)) for seed in range(10)}) > 1
    assert len({GreedyBot().choose(p, random.Random(seed)) for seed in range(10)}) == 1
    monkeypatch.setattr(greedy_module, "utility", lambda values, seat: 0.0)
    assert len({GreedyBot().choose(p, random.Random(seed)) for seed in range(20)}) > 1


def test_bot_names_weakest_first() -> None:
    # ``deep`` (the analysis' bot, tests/analysis/test_deep.py) joins once the analysis is imported.
    assert [name for name in bot_names() if name != "deep"] == ["random", "greedy", "learned", "expectimax", "mcts"]
    for name in bot_names():
        assert make_bot(name).name == name


def test_make_bot_reads_options() -> None:
    bot = make_bot("expectimax:depth=3,beam=2")
    assert isinstance(bot, ExpectimaxBot)
    assert (bot.depth, bot.beam) == (3, 2)
    unlimited = make_bot("expectimax:beam=none")
    assert isinstance(unlimited, ExpectimaxBot)
    assert unlimited.beam is None
    points = make_bot("expectimax:depth=auto,beam=auto,temperature=none")
    assert isinstance(points, ExpectimaxBot)
    assert points.temperature is None
    warm = make_bot("expectimax:temperature=3")
    assert isinstance(warm, ExpectimaxBot)
    assert warm.temperature == 3
    mcts = make_bot("mcts:iterations=50,exploration=0.5,temperature=4")
    assert isinstance(mcts, MctsBot)
    assert (mcts.iterations, mcts.exploration, mcts.temperature, mcts.seconds) == (50, 0.5, 4, None)
    timed = make_bot("mcts:seconds=0.25")
    assert isinstance(timed, MctsBot)
    assert timed.seconds == 0.25
    assert isinstance(make_bot("greedy:"), GreedyBot)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuch", r"unknown bot 'nosuch'.*random, greedy, learned, expectimax, mcts"),
        ("", r"unknown bot ''"),
        ("Greedy", r"unknown bot 'Greedy'"),
        ("expectimax:depth", r"bad bot option 'depth'.*expected name=value"),
        ("expectimax:1=2", r"bad bot option '1=2'"),
        ("mcts:=5", r"bad bot option '=5'"),
        ("greedy:depth=2", r"bad options for bot 'greedy'"),
        ("expectimax:width=3", r"bad options for bot 'expectimax'.*width"),
        ("mcts:iterations=10,speed=2", r"bad options for bot 'mcts'.*speed"),
        ("expectimax:depth=0", r"depth must be a whole number of at least 1"),
        ("expectimax:beam=0", r"beam must be a whole number"),
        ("expectimax:depth=deep", r"depth must be a whole number of at least 1 or auto"),
        ("expectimax:beam=wide", r"beam must be a whole number"),
        ("expectimax:temperature=0", r"temperature must be a positive number or none"),
        ("expectimax:temperature=hot", r"temperature must be a positive number"),
        ("expectimax:temperature=true", r"temperature must be a positive number"),
        ("mcts:iterations=0", r"iterations must be a whole number of at least 1"),
        ("mcts:iterations=abc", r"iterations must be a whole number"),
        ("mcts:exploration=-1", r"exploration must be a number of at least 0"),
        ("mcts:temperature=0", r"temperature must be a positive number"),
        ("mcts:seconds=true", r"seconds must be a positive number or none"),
        ("mcts:faces=sometimes", r"faces must be one of auto, decided, static, got 'sometimes'"),
        ("mcts:rollout=2", r"bad options for bot 'mcts'.*rollout"),
        ("mcts:eval=neural", r"eval must be one of hand, learned, got 'neural'"),
        ("expectimax:eval=3", r"eval must be one of hand, learned, got 3"),
        ("learned:eval=hand", r"bad options for bot 'learned'.*eval"),
    ],
)
def test_make_bot_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


# -- hand-worked positions ---------------------------------------------------------------


def choices(spec: str, pos: dict[str, Any], seeds: range = range(3)) -> set[Any]:
    p = position(pos)
    return {make_bot(spec).choose(p, random.Random(seed)) for seed in seeds}


@pytest.mark.parametrize("spec", SEARCHERS)
def test_only_safe_room(spec: str) -> None:
    pos = situations.only_safe_room()
    assert move_pairs(position(pos)) == situations.ONLY_SAFE_ROOM_LEGAL
    assert choices(spec, pos) == {Move("G6", "R:chapel")}


@pytest.mark.parametrize("spec", SEARCHERS)
def test_green_room_beats_a_plain_move(spec: str) -> None:
    pos = situations.green_room()
    assert move_pairs(position(pos)) == situations.GREEN_ROOM_LEGAL
    assert choices(spec, pos) == {Move("G30", "R:banquet-hall")}


@pytest.mark.parametrize("spec", SEARCHERS)
def test_never_walks_into_hugo(spec: str) -> None:
    pos = situations.capture_to_avoid()
    p = position(pos)
    assert move_pairs(p) == situations.CAPTURE_TO_AVOID_LEGAL
    assert apply(p, Move("G18", "G20")).scores[0] == 20  # the capture costs 10 at once
    assert choices(spec, pos) == {Move("G24", "G26")}


@pytest.mark.parametrize("spec", SEARCHERS)
def test_expels_onto_hugos_door(spec: str) -> None:
    pos = situations.expel_onto_hugo()
    p = position(pos)
    assert move_pairs(p) == situations.EXPEL_ONTO_HUGO_LEGAL
    after = apply(p, Move("G21", "R:portrait-hall"))
    assert after.scores == (10, 20)  # seat 1's guest was captured onto C10
    assert choices(spec, pos) == {Move("G21", "R:portrait-hall")}


@pytest.mark.parametrize("spec", SEARCHERS)
def test_midnight_party_passes_rather_than_be_captured(spec: str) -> None:
    pos = situations.mp_pass()
    assert set(legal_actions(position(pos))) == {Move("G19", "G20"), Pass()}
    assert choices(spec, pos) == {Pass()}


def test_greedy_first_placement_avoids_hugos_start_squares() -> None:
    """RULES.md §2.2 and the rulebook's warning: the first squares after the arrow are the
    first Hugo reaches. Worked through :mod:`ghostparty.bots.evaluation`:

    After seat 0 places, seat 1 is to move, so seat 0 acts after 2 rolls and its "later"
    window is 2 + 2 = 4 rolls. From START Hugo needs 9 + s points to reach square s
    (§1.3), i.e. ceil((9 + s) / 3) HUGO faces at speed 3 — at least 5 for s ≥ 4, more
    than 4 rolls can bring, so both binomial tails are 0 there and only the late term
    0.35 · (1 − escape) · 10 remains, plus the drift 0.05 · (1 − escape) · 10 · (1 − d/80).
    The late term is smallest where every number face lets the guest into a room (escape
    4/6): on the door of a free room other than a green one (a green room takes only an
    exact roll): G2, G3, G8, G13, G17, G22, G35. G2 and G3 need only 4 HUGO faces (1/81
    in 4 rolls); among the five others the drift prefers the farthest from Hugo: G35,
    44 points away, the bedchamber's door.
    """
    p = start_position(ruleset("hugo"), 2)
    board = p.board
    start = board.location("START")
    chosen = {GreedyBot().choose(p, random.Random(seed)) for seed in range(12)}
    assert chosen == {Place("G35")}
    assert hugo_distance(board, start, board.location("G35")) == 44
    # expectimax and MCTS leave placement to the greedy evaluation
    for spec in ("expectimax:depth=2", "mcts:iterations=30"):
        for seed in range(3):
            assert make_bot(spec).choose(p, random.Random(seed)) == GreedyBot().choose(p, random.Random(seed))
