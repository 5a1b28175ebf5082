"""The two rule sets (RULES.md table, §1.5, §2.1, §5.1, §5.3, §8) and the start of a game."""

from __future__ import annotations

import pytest

from ghostparty import Game
from ghostparty.rules import (
    COLOURS,
    GUESTS_PER_PLAYER,
    HUGO_BOARD,
    HUGO_RULES,
    MIDNIGHT_PARTY,
    MIDNIGHT_PARTY_BOARD,
    RULESETS,
    ruleset,
    start_position,
)


def test_lookup_by_id() -> None:
    assert ruleset("hugo") is HUGO_RULES
    assert ruleset("midnight-party") is MIDNIGHT_PARTY
    assert set(RULESETS) == {"hugo", "midnight-party"}
    assert HUGO_RULES.board is HUGO_BOARD
    assert MIDNIGHT_PARTY.board is MIDNIGHT_PARTY_BOARD
    assert repr(HUGO_RULES) == "ruleset('hugo')"


@pytest.mark.parametrize("bad", ["chess", "Hugo", "", None, 3, ["hugo"]])
def test_unknown_ruleset(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown rule set"):
        ruleset(bad)  # type: ignore[arg-type]


def test_guests_per_player_and_colours() -> None:
    """§1.5."""
    assert GUESTS_PER_PLAYER == {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}
    assert COLOURS == ("red", "blue", "turquoise", "yellow", "black", "green", "white", "purple")


@pytest.mark.parametrize(
    ("time", "speed"), [("23:45", 3), ("24:00", 3), ("1:00", 4), ("2:00", 5), ("3:00", 6), ("4:00", 7)]
)
def test_hugo_speed_by_clock(time: str, speed: int) -> None:
    """§5.3's table."""
    clock = HUGO_RULES.clock_times.index(time)
    for players in range(2, 9):
        assert HUGO_RULES.speed(clock, players) == speed


def test_clock_times() -> None:
    assert HUGO_RULES.clock_times == ("23:45", "24:00", "1:00", "2:00", "3:00", "4:00", "5:00")
    assert HUGO_RULES.has_clock and not MIDNIGHT_PARTY.has_clock


@pytest.mark.parametrize("players", range(2, 9))
def test_midnight_party_speed(players: int) -> None:
    """§5.1: always 3, or 2 with 7 or 8 players."""
    assert MIDNIGHT_PARTY.speed(None, players) == (2 if players >= 7 else 3)


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("first", [0, 1, "last"])
def test_start_position_hugo(players: int, first: int | str) -> None:
    """§2.1: scores 10, clock 23:45, Hugo on START; §2.2: placement round robin from the first player."""
    first_player = players - 1 if first == "last" else int(first)
    game = Game("hugo", players=players, first_player=first_player)
    pos = game.position()
    per = GUESTS_PER_PLAYER[players]
    assert pos["phase"] == "place"
    assert pos["scores"] == [10] * players
    assert pos["clock"] == "23:45"
    assert pos["hugo"] == "START"
    assert pos["round"] == 1
    assert pos["guests"] == [[] for _ in range(players)]
    assert pos["to_move"] == first_player
    assert pos["first_player"] == first_player
    expected_queue = [(first_player + i) % players for i in range(players * per)]
    assert pos["place_queue"] == expected_queue
    assert pos["roll"] is None and pos["winners"] == [] and pos["round_scores"] == []


@pytest.mark.parametrize("players", [2, 5, 8])
def test_start_position_midnight_party(players: int) -> None:
    """§2.1: scores 0, Hugo on step 10, round 1, no clock."""
    pos = Game("midnight-party", players=players, first_player=1).position()
    assert pos["scores"] == [0] * players
    assert pos["hugo"] == "C10"
    assert pos["clock"] is None
    assert pos["round"] == 1
    assert pos["phase"] == "place"
    assert len(pos["place_queue"]) == players * GUESTS_PER_PLAYER[players]
    assert pos["place_queue"][:3] == [1, 2 % players, 3 % players]


@pytest.mark.parametrize(("players", "first"), [(1, 0), (9, 0), (0, 0), (4, 4), (4, -1), ("4", 0), (4, "0"), (4.0, 0)])
def test_start_position_rejects_bad_arguments(players: object, first: object) -> None:
    with pytest.raises(ValueError, match=r"players|first_player"):
        start_position(HUGO_RULES, players, first)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Game("hugo", players=players, first_player=first)  # type: ignore[arg-type]


def test_game_accepts_a_ruleset_object() -> None:
    assert Game(MIDNIGHT_PARTY, players=3).position()["rules"] == "midnight-party"
    with pytest.raises(ValueError, match="unknown rule set"):
        Game("chess", players=3)
