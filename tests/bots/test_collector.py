"""The cyclic collector's pause (:mod:`ghostparty.bots.collector`) and the reviews that use it."""

from __future__ import annotations

import gc
import threading

import pytest

from ghostparty.analysis.review import Evaluator, review_game
from ghostparty.bots.collector import collector_paused
from tests.analysis.review_games import random_record


@pytest.fixture(autouse=True)
def _collector_on() -> object:
    gc.enable()
    yield
    gc.enable()


def test_the_collector_waits_inside_and_runs_again_after() -> None:
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves the outer's pause alone
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_the_collector_runs_again_after_an_error() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a search failed")
    assert gc.isenabled()


def test_concurrent_pauses_end_when_the_last_leaves() -> None:
    entered, release = threading.Barrier(2), threading.Event()

    def other() -> None:
        with collector_paused():
            entered.wait()
            release.wait()

    thread = threading.Thread(target=other)
    thread.start()
    with collector_paused():
        entered.wait()
    assert not gc.isenabled()  # the other thread's search still runs
    release.set()
    thread.join()
    assert gc.isenabled()


def test_a_review_runs_with_the_collector_paused_and_restores_it() -> None:
    seen: list[bool] = []
    record = random_record("hugo", 2, 5, limit=20)
    review_game(record, evaluator=Evaluator(), progress=lambda done, total: seen.append(gc.isenabled()))
    assert seen and not any(seen)
    assert gc.isenabled()


@pytest.mark.parametrize(("name", "inner"), [("expectimax", "_after"), ("mcts", "_iterate")])
def test_a_bots_search_runs_with_the_collector_paused(name: str, inner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from random import Random

    from ghostparty.bots import make_bot
    from ghostparty.rules import MOVE, legal_actions

    bot = make_bot(name)
    seen: list[bool] = []
    search = getattr(bot, inner)

    def watched(*args: object) -> object:
        seen.append(gc.isenabled())
        return search(*args)

    monkeypatch.setattr(bot, inner, watched)
    position = next(
        p for p in random_record("hugo", 2, 7, limit=80).replay() if p.phase == MOVE and len(legal_actions(p)) > 1
    )
    bot.choose(position, Random(1))
    assert seen and not any(seen)
    assert gc.isenabled()


@pytest.mark.parametrize("judge", ["fast", "deep"])
def test_a_review_afresh_frees_its_evaluator_in_the_pause_and_reviews_as_review_game(
    judge: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ghostparty.analysis.review import deep_review as module

    record = random_record("hugo", 2, 7, limit=24)
    freed: list[bool] = []

    class Watched(Evaluator):
        def __del__(self) -> None:
            freed.append(gc.isenabled())

    monkeypatch.setattr(module, "Evaluator", Watched)
    settings = {"depth": 1, "horizon": 0, "deep": {"rollouts": 4}}
    review = module.review_afresh(record, settings, judge).as_dict()
    assert freed == [False], "the evaluator is freed before the collector runs again"
    assert gc.isenabled()
    evaluator = Evaluator(depth=1, horizon=0)
    if judge == "deep":
        expected = module.deep_review_game(record, rollouts=4, evaluator=evaluator).as_dict()
    else:
        expected = review_game(record, evaluator=evaluator).as_dict()
    assert {k: v for k, v in review.items() if k != "stats"} == {k: v for k, v in expected.items() if k != "stats"}
    with pytest.raises(ValueError, match="judge must be 'fast' or 'deep'"):
        module.review_afresh(record, settings, "slow")
