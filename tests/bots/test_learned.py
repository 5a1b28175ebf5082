"""The learned evaluation: seat features on hand-built positions, the shipped weights, the
``learned`` bot, and the ``eval`` option of the searches."""

from __future__ import annotations

import random

import pytest

from ghostparty.bots import ExpectimaxBot, LearnedBot, MctsBot, make_bot
from ghostparty.bots.evaluation import estimates, hugo_tail, points_left
from ghostparty.bots.features import FEATURES, WIDTH, seat_features
from ghostparty.bots.learned import (
    EVALUATIONS,
    Weights,
    evaluation_named,
    learned_estimates,
    load_weights,
    margins,
    parse_weights,
)
from ghostparty.rules import OVER, RULESETS, Position, apply, legal_actions, position_from_dict, start_position
from tests.rules.builders import hugo_pos, mp_pos, playout

from . import situations


def row(p: Position, seat: int) -> dict[str, float]:
    return dict(zip(FEATURES, seat_features(p)[seat], strict=True))


# -- features ----------------------------------------------------------------------------


def test_features_of_a_known_hugo_position() -> None:
    """``only_safe_room``: seat 0 (roll 4 in hand) has one guest on G6 right ahead of Hugo
    (G5, clock 4:00, speed 7) and five in rooms; seat 1 has three on G30-G32."""
    p = position_from_dict(situations.only_safe_room())
    zero, one = row(p, 0), row(p, 1)
    assert len(seat_features(p)) == 2
    assert all(len(r) == WIDTH for r in seat_features(p))
    assert (zero["gallery"], zero["rooms"], zero["steps"], zero["unplaced"]) == (1, 5, 0, 0)
    assert (one["gallery"], one["rooms"], one["steps"], one["unplaced"]) == (3, 3, 0, 0)
    assert (zero["roll_in_hand"], one["roll_in_hand"]) == (1, 0)
    # Seat 0 acts again after seat 1's roll and its own next one; seat 1 after one roll.
    assert (zero["wait"], one["wait"]) == (1.0, 0.5)
    assert zero["score"] == one["score"] == zero["others_top"] == 10
    # Hugo needs 35 points to reach square 0, where 5:00 strikes (§5.3): 35/40 of a lap.
    assert points_left(p) == 35
    assert zero["time_left"] == pytest.approx(35 / 40)
    assert zero["gallery_time"] == pytest.approx(35 / 40)
    assert zero["closeness"] == pytest.approx(1 - 1 / 40)
    # One HUGO among the next two rolls catches seat 0's guest (distance 1, speed 7).
    assert zero["caught_now"] == pytest.approx(hugo_tail(2, 1))
    assert zero["caught_round"] == pytest.approx(hugo_tail(4, 1))
    assert 0 <= zero["escape"] <= 1
    # Seat 1's guests are 25-27 squares ahead: four HUGOs (speed 7) before its next move.
    assert one["caught_now"] == pytest.approx(3 * hugo_tail(1, 4))
    assert one["caught_now"] < zero["caught_now"]
    hand = estimates(p)
    assert zero["hand"] == pytest.approx(hand[0] - 10)
    assert one["hand"] == pytest.approx(hand[1] - 10)


def test_a_guest_out_of_hugos_reach_before_five_is_safe() -> None:
    """Clock 4:00, Hugo on G5: 35 points left before 5:00; guests on G1-G3 are 36-38
    squares ahead of him, one on G11 six."""
    p = position_from_dict(hugo_pos([["G2", "G3"], *situations.SIX_OTHERS], clock="4:00", hugo="G5"))
    assert row(p, 0)["safe_gallery"] == 2
    assert row(p, 0)["caught_now"] == row(p, 0)["caught_4"] == 0
    assert row(p, 1)["safe_gallery"] == 1  # G1, not G11
    assert row(p, 1)["caught_4"] > 0


def test_features_count_unplaced_guests_and_midnight_party_rounds() -> None:
    start = start_position(RULESETS["hugo"], 3)
    assert {row(start, seat)["unplaced"] for seat in range(3)} == {5}  # §2.2, 3 players
    p = position_from_dict(
        mp_pos(
            [
                ["G19", "R:library", "R:fireplace", "R:tower", "R:bedchamber", "C10"],
                ["G5", "G6", "R:chapel", "R:armory", "R:portrait-hall", "R:ballroom"],
            ],
            round=2,
            round_scores=[[4, 6]],
            scores=[4, 6],
        )
    )
    party = row(p, 0)
    assert party["time_left"] == RULESETS["midnight-party"].rounds - 2  # rounds after this one
    assert (party["score"], party["others_top"]) == (4, 6)
    assert (party["gallery"], party["rooms"], party["steps"]) == (1, 4, 1)


def test_a_finished_game_has_no_features() -> None:
    over = playout("hugo", 2, seed=3).state
    assert over.phase == OVER
    with pytest.raises(ValueError, match="a finished game has no features"):
        seat_features(over)
    assert learned_estimates(over) == margins(over.scores)


def test_margins() -> None:
    assert margins([30, 12, 40]) == [18.0, -18.0, 28.0]
    assert margins([20, 20, 25]) == [0.0, 0.0, 5.0]  # a shared win
    assert margins([7]) == [0.0]


# -- weights -------------------------------------------------------------------------------


def test_shipped_weights_cover_every_game() -> None:
    weights = load_weights()
    assert weights.features == FEATURES
    for rules in ("hugo", "midnight-party"):
        for players in range(2, 9):
            assert len(weights.model(rules, players)) == WIDTH
    assert "command" in weights.about and "held_out" in weights.about


def test_weights_file_errors_say_what_was_expected() -> None:
    good = {"features": list(FEATURES), "models": {"hugo": {"2": [0.0] * WIDTH}}}
    assert parse_weights(good).model("hugo", 2) == (0.0,) * WIDTH
    with pytest.raises(ValueError, match="no learned weights for hugo with 3 players: the file has hugo 2p"):
        parse_weights(good).model("hugo", 3)
    with pytest.raises(ValueError, match="an object with 'features' and 'models'"):
        parse_weights([1, 2])
    with pytest.raises(ValueError, match="fit them again"):
        parse_weights({**good, "features": ["bias", "score"]})
    with pytest.raises(ValueError, match=f"hugo 2p: expected {WIDTH} weights, got"):
        parse_weights({**good, "models": {"hugo": {"2": [1.0, 2.0]}}})


def test_learned_estimates_are_the_dot_product() -> None:
    p = position_from_dict(situations.only_safe_room())
    one = Weights(FEATURES, {("hugo", 2): (1.0,) + (0.0,) * (WIDTH - 1)}, {})
    assert learned_estimates(p, one) == [1.0, 1.0]
    by_score = Weights(FEATURES, {("hugo", 2): tuple(float(n == "score") for n in FEATURES)}, {})
    assert learned_estimates(p, by_score) == [10.0, 10.0]


# -- the bot and the eval option -------------------------------------------------------------


def test_the_learned_bot_finds_the_only_safe_room() -> None:
    p = position_from_dict(situations.only_safe_room())
    choice = LearnedBot().choose(p, random.Random(0))
    assert (choice.source, choice.target) == ("G6", "R:chapel")  # type: ignore[attr-defined]


def test_learned_bot_plays_whole_games_deterministically() -> None:
    """Two games of the bot against itself from one seed are the same game."""

    def game(seed: int) -> tuple[object, ...]:
        bot, rng = LearnedBot(), random.Random(seed)
        p = start_position(RULESETS["midnight-party"], 3)
        played = []
        while p.phase != OVER:
            actions = legal_actions(p)
            action = bot.choose(p, rng) if p.phase != "roll" else actions[int(rng.random() * len(actions))]
            assert action in actions
            played.append(action)
            p = apply(p, action)
        return tuple(played)

    assert game(5) == game(5)


def test_eval_option() -> None:
    assert evaluation_named("hand") is estimates
    assert evaluation_named("learned") is learned_estimates
    assert EVALUATIONS == ("hand", "learned")
    with pytest.raises(ValueError, match="eval must be one of hand, learned, got 'net'"):
        evaluation_named("net")
    searcher = make_bot("expectimax:depth=1,eval=learned")
    assert isinstance(searcher, ExpectimaxBot)
    assert searcher.eval == "learned"
    assert isinstance(make_bot("mcts:iterations=5"), MctsBot)
    mcts = make_bot("mcts:iterations=5,eval=learned")
    assert isinstance(mcts, MctsBot)
    assert mcts.eval == "learned"
    p = position_from_dict(situations.only_safe_room())
    for spec in ("expectimax:depth=2,eval=learned", "mcts:iterations=40,eval=learned"):
        choice = make_bot(spec).choose(p, random.Random(0))
        assert (choice.source, choice.target) == ("G6", "R:chapel"), spec  # type: ignore[attr-defined]
