"""Tournament states to JSON and back: nothing lost, play goes on the same, bad input named."""

from __future__ import annotations

import json
from random import Random

import pytest

from ghostparty.tournaments import (
    Arena,
    ArenaConfig,
    Swiss,
    SwissConfig,
    TournamentError,
    from_dict,
    from_json,
    to_dict,
    to_json,
)


def busy_arena() -> Arena:
    state = Arena(ArenaConfig(3, 0.0, 3600.0, bot_wait=60.0))
    for i in range(7):
        state.join(f"p{i}", 1400 + 37 * i, 0.0)
    state.join("bot", 1500, 0.0, bot=True)
    state.start_game("g1", ("p0", "p1", "p2"), 10.0)
    state.start_game("g2", ("p3", "p4", "p5"), 10.0)
    state.finish_game("g1", [2, 2, 1], 400.0, {"p1": 31})
    state.join("p1", 1437, 500.0)  # came back after leaving
    state.start_game("g3", ("p6", "p0", "bot"), 600.0)  # under way
    return state


def busy_swiss() -> Swiss:
    state = Swiss(SwissConfig(4, 4))
    for i in range(11):
        state.join(f"p{i}", 1500 + (i * 53) % 200)
    rng = Random(4)
    for number in (1, 2):
        played = state.pair_round(rng)
        for table in range(1, len(played.tables) + 1):
            state.record(number, table, [1, 3, 2, 3], {played.tables[0].seats[1]: 40} if table == 1 else None)
    state.withdraw("p3")
    state.pair_round(rng)
    state.record(3, 1, [4, 3, 2, 1])  # table 2 still playing
    return state


@pytest.mark.parametrize("make", [busy_arena, busy_swiss])
def test_a_state_round_trips_and_its_records_are_derived_again(make: object) -> None:
    state = make()  # type: ignore[operator]
    text = to_json(state)
    again = from_json(text)
    assert type(again) is type(state)
    assert to_json(again) == text
    assert again.standings() == state.standings()
    assert json.loads(text) == to_dict(state)


def test_a_restored_arena_pairs_and_scores_as_the_original() -> None:
    state = busy_arena()
    again = from_json(to_json(state))
    assert isinstance(again, Arena)
    assert again.players == state.players
    assert again.pairing(700.0, Random(5)) == state.pairing(700.0, Random(5))
    for arena in (state, again):
        arena.finish_game("g3", [1, 2, 3], 900.0)
    assert again.standings() == state.standings()


def test_a_restored_swiss_pairs_the_next_round_as_the_original() -> None:
    state = busy_swiss()
    again = from_json(to_json(state))
    assert isinstance(again, Swiss)
    for swiss in (state, again):
        swiss.record(3, 2, [1, 2, 3, 4])
    assert again.pair_round(Random(8)) == state.pair_round(Random(8))
    assert again.players == state.players


def _broken(make: object, path: list[object], value: object) -> dict[str, object]:
    data = to_dict(make())  # type: ignore[operator]
    target = data
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    return data


@pytest.mark.parametrize(
    ("make", "path", "value", "field"),
    [
        (busy_arena, ["format"], "ghostparty-arena/9", "format"),
        (busy_arena, ["config", "table_size"], 6, "table_size"),
        (busy_arena, ["players", 0, "rating"], "high", "players[0].rating"),
        (busy_arena, ["players", 1, "id"], "p0", "players[1].id"),
        (busy_arena, ["games", 0, "seats", 0], "nobody", "games[0].seats"),
        (busy_arena, ["games", 2, "seats", 0], "p3", "games[2].seats"),  # p3 is still in g2
        (busy_arena, ["games", 0, "places"], [1, 2, 9], "places[2]"),
        (busy_swiss, ["config", "rounds"], 2, "rounds"),
        (busy_swiss, ["config", "bye_points"], "x", "config.bye_points"),
        (busy_swiss, ["rounds", 0, "byes"], ["ghost"], "rounds[0]"),
        (busy_swiss, ["rounds", 0, "byes", 0], "p4", "rounds[0]"),  # p4 sits at a table
        (busy_swiss, ["rounds", 1, "tables", 0, "seats"], ["p0"], "rounds[1]"),
        (busy_swiss, ["rounds", 1, "tables", 0, "places"], None, "rounds[2]"),
        (busy_swiss, ["players"], {}, "players"),
    ],
)
def test_a_broken_state_is_refused_naming_the_field(
    make: object, path: list[object], value: object, field: str
) -> None:
    with pytest.raises(TournamentError) as caught:
        from_dict(_broken(make, path, value))
    assert caught.value.field == field


def test_not_json_at_all() -> None:
    with pytest.raises(TournamentError, match=r"^json: expected JSON text"):
        from_json("{")
    with pytest.raises(TournamentError, match=r"^state: expected an object, got"):
        from_json("[]")


def test_standings_are_json_ready_with_exact_points() -> None:
    arena_line = busy_arena().standings()[0].to_dict()
    assert arena_line == json.loads(json.dumps(arena_line))
    assert set(arena_line) == {"rank", "player", "points", "games", "firsts", "rating", "bot"}
    lines = [s.to_dict() for s in busy_swiss().standings()]
    assert json.loads(json.dumps(lines)) == lines
    assert any(isinstance(line["points"], str) and "/" in line["points"] for line in lines)  # 11/4 after a bye
