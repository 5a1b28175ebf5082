"""Closure: every legal action from a position the reader accepts leads to a position the
reader accepts again, so that every state can be saved, loaded and replayed (FORMAT.md).

Two gaps once found here are pinned as regression tests: a game ending on Hugo's first
arrival at G0 (clock still 23:45, RULES.md §5.3) must load again, and placement never puts
a guest on Hugo's square.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghostparty import Game, GameRecord

from .builders import hugo_pos, mp_pos

ROOT = Path(__file__).resolve().parents[2]


def _valid_scenario_positions() -> list:
    found = []
    for folder in (ROOT.parent / "shared" / "scenarios", ROOT / "tests" / "scenarios"):
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            data = json.loads(path.read_text(encoding="utf-8"))
            if {"invalid": True} not in data["steps"]:
                found.append(pytest.param(data["position"], id=path.stem))
    return found


@pytest.mark.parametrize("pos", _valid_scenario_positions())
def test_legal_actions_keep_positions_readable(pos: dict) -> None:
    """Two plies of every legal action from every scenario position re-read without error."""
    frontier = [Game.from_position(pos).position()]
    for _ in range(2):
        following = []
        for current in frontier:
            for action in Game.from_position(current).legal_actions():
                game = Game.from_position(current)
                game.apply(action)
                after = game.position()
                assert Game.from_position(after).position() == after, (current, action)
                following.append(after)
        frontier = following[:60]


def _game_ending_on_hugos_first_arrival() -> Game:
    """A reachable hugo game: seat 0 gathers four guests on the arrow square G0 while Hugo climbs.

    Hugo's third move (C4, C3, G0) captures the four together onto C10: 10 + 4 x 10 = 50, so the
    game ends on G0 and, by RULES.md §5.3, the clock does not advance: it still shows 23:45.
    """
    game = Game("hugo", players=2)
    for mine, theirs in zip(
        ["G0", "G36", "G38", "G39", "G35", "G37"], ["G10", "G11", "G12", "G13", "G14", "G15"], strict=True
    ):
        game.apply({"place": mine})
        game.apply({"place": theirs})
    for action in [
        {"roll": 4},
        {"from": "G36", "to": "G0"},
        {"roll": "hugo"},  # seat 1: START -> C8
        {"roll": 2},
        {"from": "G38", "to": "G0"},
        {"roll": "hugo"},  # C5
        {"roll": 1},
        {"from": "G39", "to": "G0"},
        {"roll": "hugo"},  # C4, C3, G0: four of seat 0 captured onto C10
    ]:
        game.apply(action)
    return game


def test_the_first_arrival_game_is_played_as_the_rules_say() -> None:
    """§5.3, §6.1, §6.3, §7: the engine plays it right; only reading the result back fails (below)."""
    pos = _game_ending_on_hugos_first_arrival().position()
    assert pos["phase"] == "over"
    assert (pos["hugo"], pos["clock"]) == ("G0", "23:45")
    assert pos["scores"] == [50, 10]
    assert pos["winners"] == [1]
    assert sorted(pos["guests"][0]) == ["C10", "C10", "C10", "C10", "G35", "G37"]


def test_a_game_ending_on_the_first_arrival_can_be_saved_and_loaded() -> None:
    game = _game_ending_on_hugos_first_arrival()
    pos = game.position()
    assert Game.from_position(pos).position() == pos
    record = GameRecord.from_dict(json.loads(json.dumps(game.record().to_dict())))
    assert record.final() == game.state


@pytest.mark.parametrize(
    "pos",
    [
        hugo_pos([["G1"] * 5, ["G2"] * 6], phase="place", clock="24:00", hugo="G20", place_queue=[0]),
        mp_pos([["G1"] * 5, ["G2"] * 6], phase="place", hugo="G20", place_queue=[0]),
    ],
    ids=["hugo", "midnight-party"],
)
def test_placing_never_leads_to_an_unreadable_position(pos: dict) -> None:
    game = Game.from_position(pos)
    assert {"place": pos["hugo"]} not in game.legal_actions()
    for action in game.legal_actions():
        trial = Game.from_position(pos)
        trial.apply(action)
        Game.from_position(trial.position())
