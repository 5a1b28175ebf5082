"""The review's cheaper paths: the same review as the plain computation where they claim so."""

from __future__ import annotations

import pytest

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.analysis.review.timing import review_time
from ghostparty.bots.learned import learned_estimates
from ghostparty.rules import MOVE, Position, apply, legal_actions

from .review_games import random_record


def _plain(evaluator: Evaluator) -> Evaluator:
    evaluator._learned = learned_estimates  # type: ignore[assignment]
    return evaluator


def _json(review: object) -> dict[str, object]:
    data = review.as_dict()  # type: ignore[attr-defined]
    data["stats"].pop("cpu_seconds")
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 3, 11), ("midnight-party", 5, 12)])
def test_the_cached_leaf_leaves_a_review_unchanged(rules: str, players: int, seed: int) -> None:
    record = random_record(rules, players, seed, limit=60)
    fast = review_game(record, evaluator=Evaluator(depth=2, horizon=0))
    plain = review_game(record, evaluator=_plain(Evaluator(depth=2, horizon=0)))
    assert _json(fast) == _json(plain)
    assert fast.stats["leaves"] > 100


def _decisions(rules: str, players: int, seed: int, count: int = 6) -> list[Position]:
    positions = random_record(rules, players, seed, limit=90).replay()
    return [p for p in positions if p.phase == MOVE and len(legal_actions(p)) > 2][:count]


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 4, 21), ("midnight-party", 2, 24)])
def test_only_a_close_or_marked_decisions_leaders_the_played_and_the_best_are_searched_deeper(
    rules: str, players: int, seed: int
) -> None:
    evaluator = Evaluator(horizon=0)
    deeper = Evaluator(depth=evaluator.depth + evaluator.deepen, horizon=0)
    closes = clears = marked = 0
    for turn, position in enumerate(_decisions(rules, players, seed, count=16)):
        mover = position.to_move
        legal = legal_actions(position)
        # every other decision the last action is played (often a mistake), else the shallow best
        played = legal[-1] if turn % 2 else max(legal, key=lambda a: evaluator.value(apply(position, a)).win[mover])
        options = evaluator.actions(position, played)
        best, best_value = evaluator.best(position, options)
        shallow = [evaluator.value(apply(position, action)).win[mover] for action, _ in options]
        top, second = sorted(shallow, reverse=True)[:2]
        trailing = evaluator.value(apply(position, played)).win[mover] < top - evaluator.screen
        close = second >= top - evaluator.screen or trailing
        marked += trailing and second < top - evaluator.screen
        closes += close
        clears += not close
        plain = [evaluator.value(apply(position, action)) for action, _ in options]
        top_action = max(range(len(options)), key=lambda i: (round(plain[i].win[mover], 12), -plain[i].margin[mover]))
        for index, (action, value) in enumerate(options):
            child = apply(position, action)
            if not close:
                assert value == evaluator.value(child)
            elif action in (best, played) or index == top_action:
                assert value.win == deeper.value(child).win
            elif value == evaluator.value(child):  # left shallower: it would not be the best
                assert value.win[mover] <= best_value.win[mover]
            else:  # a leader within the screen, or searched deeper as the best, then overtaken
                assert value.win == deeper.value(child).win
    assert closes and clears and marked


def test_a_screen_of_none_searches_every_action_deeper_and_deepen_0_none() -> None:
    position = _decisions("hugo", 3, 23)[0]
    every = Evaluator(horizon=0, screen=None, leaders=None)
    deeper = Evaluator(depth=2, deepen=0, horizon=0)
    assert [v.win for _, v in every.actions(position)] == [v.win for _, v in deeper.actions(position)]
    one = Evaluator(horizon=0, screen=None, leaders=1)
    assert sum(v != one.value(apply(position, a)) for a, v in one.actions(position)) == 1
    plain = Evaluator(deepen=0, horizon=0)
    assert [v for _, v in plain.actions(position)] == [plain.value(apply(position, a)) for a in legal_actions(position)]
    with pytest.raises(ValueError, match="deepen must be"):
        Evaluator(deepen=-1)
    with pytest.raises(ValueError, match="leaders must be"):
        Evaluator(leaders=0)


def test_the_gap_only_drops_what_the_beam_would_search() -> None:
    position = _decisions("hugo", 3, 23)[0]
    child = apply(position, legal_actions(position)[0])
    wide = Evaluator(horizon=0, beam=3, gap=1.0)
    assert wide.search(child, 2) == Evaluator(horizon=0, beam=3, gap=None).search(child, 2)
    narrow = Evaluator(horizon=0, beam=3, gap=0.0)
    narrow.search(child, 2)
    assert narrow.stats["leaves"] < wide.stats["leaves"]


def test_review_time_reviews_by_the_judge_asked_and_refuses_others() -> None:
    fast = review_time("midnight-party", 2, 1, seed=3)
    assert fast.judge == "fast" and fast.to_dict()["judge"] == "fast" and fast.seconds[0] > 0
    with pytest.raises(ValueError, match="judge must be 'fast' or 'deep'"):
        review_time("hugo", 2, 1, judge="slow")
    with pytest.raises(ValueError, match="games must be at least 1"):
        review_time("hugo", 2, 0)
