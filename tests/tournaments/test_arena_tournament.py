"""The arena: pairing free players by standing, points by place, leavers, the end, bots."""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest

from ghostparty.tournaments import Arena, ArenaConfig, TournamentError

START, END = 1000.0, 1000.0 + 30 * 60


def arena(size: int = 2, players: int = 0, bot_wait: float | None = None) -> Arena:
    state = Arena(ArenaConfig(size, START, END, bot_wait))
    for i in range(players):
        state.join(f"p{i}", 1500 + i, START - 60)
    return state


def play(state: Arena, game: str, seats: tuple[str, ...], places: list[int], now: float, **left: int) -> None:
    state.start_game(game, seats, now)
    state.finish_game(game, places, now + 60, left)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"table_size": 5}, "table_size: expected one of [2, 3, 4] players per table, got 5"),
        ({"ends_at": START}, "ends_at: expected a time after starts_at 1000.0, got 1000.0"),
        ({"starts_at": float("nan")}, "starts_at: expected a time in seconds, got nan"),
        ({"bot_wait": -1}, "bot_wait: expected seconds >= 0 or None, got -1"),
    ],
)
def test_impossible_settings_are_refused(settings: dict[str, float], message: str) -> None:
    values: dict[str, float] = {"table_size": 2, "starts_at": START, "ends_at": END, **settings}
    with pytest.raises(TournamentError) as caught:
        ArenaConfig(**values)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_no_pairing_before_the_start_or_from_the_end_on() -> None:
    state = arena(players=4)
    assert state.pairing(START - 1, Random(0)) == []
    assert state.pairing(END, Random(0)) == []
    assert len(state.pairing(START, Random(0))) == 2


def test_free_players_are_seated_by_points_then_rating() -> None:
    state = arena(size=4, players=8)
    tables = state.pairing(START, Random(0))
    assert [sorted(t) for t in tables] == [["p4", "p5", "p6", "p7"], ["p0", "p1", "p2", "p3"]]
    state = arena(size=2, players=6)
    play(state, "g1", ("p0", "p1"), [1, 2], START)  # p0 3, p1 1
    play(state, "g2", ("p2", "p3"), [1, 1], START)  # 2 each
    play(state, "g3", ("p4", "p5"), [1, 2], START)  # p4 3, p5 1
    # by points then rating: p4 p0 | p3 p2 | p5 p1 — but p3 and p2 just met, so p3 takes
    # the next one who did not, and p2 sits with the last.
    tables = state.pairing(START + 120, Random(0))
    assert [set(t) for t in tables] == [{"p4", "p0"}, {"p3", "p5"}, {"p2", "p1"}]


def test_the_same_opponents_are_avoided_twice_in_a_row() -> None:
    state = arena(players=4)
    play(state, "g1", ("p3", "p2"), [1, 2], START)
    play(state, "g2", ("p1", "p0"), [1, 2], START)
    tables = state.pairing(START + 60, Random(0))
    assert {frozenset(t) for t in tables} == {frozenset({"p3", "p1"}), frozenset({"p2", "p0"})}


def test_when_the_free_players_do_not_fill_tables_the_last_freed_wait() -> None:
    state = arena(players=4)
    play(state, "g1", ("p0", "p1"), [1, 2], START)  # both free again at START + 60
    state.join("late", 2000, START + 10)
    tables = state.pairing(START + 70, Random(0))
    # five free: of the two freed last, the lower placed (p1) waits for the next pass
    assert [set(t) for t in tables] == [{"p0", "late"}, {"p3", "p2"}]


def test_a_player_is_never_seated_twice_even_if_two_passes_race() -> None:
    state = arena(players=4)
    first, second = state.pairing(START, Random(1)), state.pairing(START, Random(2))
    for k, seats in enumerate(first):
        state.start_game(f"a{k}", seats, START)
    with pytest.raises(TournamentError, match=r"^seats\[0\]: '.*' is in a game, not free to play$"):
        state.start_game("b0", second[0], START)
    assert len(state.running()) == 2
    assert "b0" not in state.games


@pytest.mark.parametrize(
    ("game", "seats", "message"),
    [
        ("g", ("p0",), "seats: expected 2 different players, got ('p0',)"),
        ("g", ("p0", "p0"), "seats: expected 2 different players, got ('p0', 'p0')"),
        ("g", ("p0", "ghost"), "seats[1]: 'ghost' is unknown, not free to play"),
        ("", ("p0", "p1"), "game: expected a new game id, got ''"),
    ],
)
def test_a_start_must_name_a_new_game_and_free_players(game: str, seats: tuple[str, ...], message: str) -> None:
    state = arena(players=2)
    with pytest.raises(TournamentError) as caught:
        state.start_game(game, seats, START)
    assert str(caught.value) == message
    assert not state.games


def test_points_by_place_and_a_leaver_scores_nothing_and_is_not_paired_again() -> None:
    state = arena(size=3, players=3)
    play(state, "g1", ("p0", "p1", "p2"), [1, 2, 3], START, p0=17)
    points = {s.player: s.points for s in state.standings()}
    assert points == {"p0": 0, "p1": 2, "p2": 1}
    assert state.games["g1"].left == {"p0": 17}
    assert state.players["p0"].firsts == 0
    assert not state.players["p0"].free
    assert state.pairing(START + 100, Random(0)) == []
    state.join("p0", 1500, START + 100)  # back
    assert len(state.pairing(START + 100, Random(0))) == 1


def test_a_player_away_at_a_games_end_is_told_which_game_took_them_out() -> None:
    from ghostparty.tournaments import from_json, to_json

    state = arena(size=2, players=4)
    play(state, "g1", ("p0", "p1"), [1, 2], START, p0=5)
    play(state, "g2", ("p2", "p3"), [1, 2], START)
    assert [state.players[p].away_in for p in ("p0", "p1", "p2", "p3")] == ["g1", None, None, None]
    restored = from_json(to_json(state))
    assert isinstance(restored, Arena) and restored.players["p0"].away_in == "g1"
    state.join("p0", 1500, START + 100)  # one click: back, and nothing to tell any more
    assert state.players["p0"].away_in is None and state.players["p0"].free
    play(state, "g3", ("p0", "p1"), [2, 1], START + 200, p0=9)
    state.leave("p2", START + 300)  # leaving by oneself is no "taken out"
    assert (state.players["p0"].away_in, state.players["p2"].away_in) == ("g3", None)
    state.join("p0", 1500, START + 400)
    state.leave("p0", START + 500)
    assert from_json(to_json(state)).players["p0"].away_in is None  # type: ignore[union-attr]


def test_after_the_end_no_game_starts_but_games_under_way_count() -> None:
    state = arena(players=2)
    state.start_game("g1", ("p0", "p1"), END - 1)
    assert not state.finished(END)
    with pytest.raises(TournamentError, match=r"^now: games start from 1000.0 until 2800.0, not at 2800.0$"):
        state.start_game("g2", ("p0", "p1"), END)
    state.finish_game("g1", [2, 1], END + 300)
    assert state.finished(END + 300)
    assert [s.player for s in state.podium()] == ["p1", "p0"]
    with pytest.raises(TournamentError, match=r"^now: the arena ended at 2800.0; cannot join at 2800.0$"):
        state.join("late", 1500, END)


def test_a_bad_result_changes_nothing() -> None:
    state = arena(players=2)
    state.start_game("g1", ("p0", "p1"), START)
    for places, left in (([1, 3], {}), ([1, 2], {"p9": 3}), ([1, 2], {"p0": -1})):
        with pytest.raises(TournamentError):
            state.finish_game("g1", places, START + 1, left)
    assert state.running() and all(p.points == 0 for p in state.players.values())
    with pytest.raises(TournamentError, match=r"^now: 'g1' started at 1000.0, it cannot end at 999.0$"):
        state.finish_game("g1", [1, 2], START - 1)
    state.finish_game("g1", [1, 2], START + 1)
    with pytest.raises(TournamentError, match=r"^game: expected a game under way, got 'g1'$"):
        state.finish_game("g1", [1, 2], START + 2)


def test_standings_break_ties_by_first_places_then_fewer_games_then_rating() -> None:
    state = arena(players=6)
    play(state, "g1", ("p0", "p1"), [1, 2], START)  # p0 3, a first
    play(state, "g2", ("p2", "p3"), [1, 1], START)  # p2 2, p3 2
    play(state, "g3", ("p4", "p5"), [2, 1], START)  # p5 3, a first; p4 1
    play(state, "g4", ("p4", "p3"), [1, 1], START + 100)  # p4 3 in two games, p3 4
    lines = state.standings()
    assert [(s.player, s.points) for s in lines] == [
        ("p3", 4),
        ("p5", 3),  # a first, one game, rated above p0
        ("p0", 3),
        ("p4", 3),  # no first
        ("p2", 2),
        ("p1", 1),
    ]
    assert [s.rank for s in lines] == [1, 2, 3, 4, 5, 6]


def test_bots_fill_a_table_once_a_person_waited_long_enough_and_never_reach_the_podium() -> None:
    state = arena(size=3, players=1, bot_wait=30)  # p0 joined a minute before the start
    for name in ("bot-a", "bot-b", "bot-c"):
        state.join(name, 1800, START, bot=True)
    assert state.pairing(START + 20, Random(0)) == []
    (table,) = state.pairing(START + 30, Random(0))
    assert sorted(table) == ["bot-a", "bot-b", "p0"]
    state.start_game("g1", table, START + 30)
    state.finish_game("g1", [1 if p != "p0" else 3 for p in table], START + 90)
    assert [(s.player, s.points, s.bot) for s in state.standings()][2:] == [("p0", 1, False), ("bot-c", 0, True)]
    assert [s.player for s in state.podium()] == ["p0"]
    with pytest.raises(TournamentError, match=r"^seats: a table of bots only does not count$"):
        state.start_game("g2", ("bot-a", "bot-b", "bot-c"), START + 100)


def test_joining_twice_leaving_unknown_and_a_bad_rating_are_refused() -> None:
    state = arena(players=1)
    with pytest.raises(TournamentError, match=r"^player: 'p0' is already in the arena$"):
        state.join("p0", 1500, START)
    with pytest.raises(TournamentError, match=r"^player: 'nobody' has not joined the arena$"):
        state.leave("nobody", START)
    with pytest.raises(TournamentError, match=r"^rating: expected a number, got 'high'$"):
        state.join("p1", "high", START)  # type: ignore[arg-type]
    state.leave("p0", START)
    with pytest.raises(TournamentError, match=r"^bot: 'p0' joined as a person before$"):
        state.join("p0", 1500, START, bot=True)
    assert state.players["p0"].points == Fraction(0)


def test_too_few_free_bots_fill_nothing_and_bots_at_a_table_are_not_free() -> None:
    state = arena(size=4, players=1, bot_wait=0)
    state.join("bot-a", 1800, START, bot=True)
    state.join("bot-b", 1800, START, bot=True)
    assert state.pairing(START + 60, Random(0)) == []  # three seats to fill, two bots
    state.join("p1", 1500, START)
    (table,) = state.pairing(START + 60, Random(0))
    assert sorted(table) == ["bot-a", "bot-b", "p0", "p1"]


def test_coming_back_during_a_game_keeps_the_seat_and_pairs_after_it() -> None:
    state = arena(players=4)
    state.start_game("g1", ("p0", "p1"), START)
    state.leave("p0", START + 5)
    state.join("p0", 1500, START + 10)
    assert state.players["p0"].game == "g1" and not state.players["p0"].free
    assert [set(t) for t in state.pairing(START + 20, Random(0))] == [{"p2", "p3"}]
    state.finish_game("g1", [1, 2], START + 30)
    assert state.players["p0"].free


def test_a_player_needs_an_id() -> None:
    with pytest.raises(TournamentError, match=r"^player: expected a non-empty player id, got ''$"):
        arena().join("", 1500, START)
