"""The reference client's pieces without a server: loading a player, the action it sends."""

from __future__ import annotations

from typing import Any

import pytest

from ghostparty.connect import choose, load_policy
from ghostparty.rules import Game


def first_legal(position: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    return legal[0]


def outside(position: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    return {"place": "G99"}


NOT_CALLABLE = 3


def test_a_built_in_level_plays_a_legal_action_of_the_position() -> None:
    game = Game("hugo", 2)
    legal = game.legal_actions()
    for spec in ("random", "greedy", "mcts:iterations=20"):
        assert choose(load_policy(spec, seed=1), game.position(), legal) in legal


def test_the_die_is_rolled_by_asking_whatever_the_policy() -> None:
    assert choose(outside, {}, [{"roll": True}]) == {"roll": True}


def test_module_function_is_loaded_and_held_to_the_legal_actions() -> None:
    game = Game("hugo", 2)
    legal = game.legal_actions()
    policy = load_policy("tests.connect.test_connect_unit:first_legal")
    assert choose(policy, game.position(), legal) == legal[0]
    with pytest.raises(ValueError, match="not among the legal actions"):
        choose(load_policy("tests.connect.test_connect_unit:outside"), game.position(), legal)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("nosuchlevel", "unknown bot 'nosuchlevel'"),
        ("no.such.module:f", "can't load"),
        ("tests.connect.test_connect_unit:missing", "can't load"),
        ("tests.connect.test_connect_unit:NOT_CALLABLE", "not callable"),
        ("greedy:depth=x=y", "bad"),
    ],
)
def test_a_player_that_cannot_be_loaded_says_why(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        load_policy(spec)
