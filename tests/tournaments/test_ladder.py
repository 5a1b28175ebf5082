"""The bot ladder's engine: deals with every rotation, fair sitting out, duplicate scores
against the deal's mean, standings, and the state stored and read back."""

from __future__ import annotations

import json
from fractions import Fraction
from random import Random

import pytest

from ghostparty.tournaments import Ladder, LadderConfig, TournamentError, from_json, to_json
from ghostparty.tournaments.ladder import parse_game_id


def ladder(size: int, players: int, deals: int = 3, house: int = 0) -> Ladder:
    state = Ladder(LadderConfig(size, deals))
    for i in range(players):
        state.join(f"b{i}", 1500 + i, house=i < house)
    return state


def play_deal(state: Ladder, rng: Random, best: str | None = None) -> None:
    """Pair a deal and record each game: ``best`` first wherever it sits, then seat order."""
    deal = state.pair_deal(rng)
    for group in deal.groups:
        for game in group.games:
            order = sorted(game.seats, key=lambda p: (p != best, game.seats.index(p)))
            state.record(game.id, [order.index(p) + 1 for p in game.seats])


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ((5, 3), "table_size: expected one of [2, 3, 4] players per table, got 5"),
        ((3, 0), "deals: expected 1 to 200 deals, got 0"),
        ((3, True), "deals: expected 1 to 200 deals, got True"),
    ],
)
def test_impossible_settings_are_refused(settings: tuple[int, int], message: str) -> None:
    with pytest.raises(TournamentError) as caught:
        LadderConfig(*settings)
    assert str(caught.value) == message


def test_a_deal_seats_every_member_in_every_seat_with_one_seed() -> None:
    state = ladder(3, 6)
    deal = state.pair_deal(Random(1))
    assert len(deal.groups) == 2 and deal.out == ()
    assert 0 <= deal.seed < 2**48
    for group in deal.groups:
        assert [g.rotation for g in group.games] == [0, 1, 2]
        for seat in range(3):
            assert sorted(g.seats[seat] for g in group.games) == sorted(group.members)
        for g in group.games:
            assert parse_game_id(g.id) == (1, group.number, g.rotation)
    with pytest.raises(TournamentError, match="games without a result"):
        state.pair_deal(Random(2))


def test_those_who_sat_out_play_the_next_deal() -> None:
    state = ladder(2, 3, deals=3)
    rng = Random(4)
    out = []
    for _ in range(3):
        deal = state.pair_deal(rng)
        out.append(deal.out)
        for game in state.games():
            if game.places is None:
                state.record(game.id, [1, 2])
    assert all(len(o) == 1 for o in out) and len({o[0] for o in out}) == 3  # each sat out once
    assert state.finished()
    with pytest.raises(TournamentError, match="all 3 deals"):
        state.pair_deal(rng)


def test_duplicate_scores_are_against_the_deals_mean() -> None:
    state = ladder(3, 3, deals=2, house=2)
    rng = Random(7)
    play_deal(state, rng, best="b2")
    # b2 first in all three rotations: 4 points a game against the deal's mean 7/3
    assert state.deal_scores("b2") == [[Fraction(5, 3)] * 3]
    play_deal(state, rng)  # by seat: everyone takes every place once
    assert sorted(state.deal_scores("b2")[1]) == [Fraction(-4, 3), Fraction(-1, 3), Fraction(5, 3)]
    lines = state.standings()
    assert lines[0].player == "b2" and lines[0].score == Fraction(5, 6) and lines[0].deals == 2
    assert sum(line.score for line in lines) == 0
    assert lines[0].to_dict()["score"] == "5/6" and lines[0].house is False and lines[1].house is True


def test_a_seat_left_scores_nothing_and_the_mean_counts_it() -> None:
    state = ladder(2, 2, deals=1)
    deal = state.pair_deal(Random(3))
    first, second = deal.groups[0].games
    state.record(first.id, [1, 2], {first.seats[0]: 40})
    state.record(second.id, [1, 2])
    leaver = first.seats[0]
    # 0 and 1 point (seat 1 in the second game) against a mean of (0 + 1 + 3 + 1) / 4
    assert sum(state.deal_scores(leaver)[0]) / 2 == Fraction(1, 2) - Fraction(5, 4)
    with pytest.raises(TournamentError, match="recorded already"):
        state.record(first.id, [2, 1])
    with pytest.raises(TournamentError, match="no game 'd2g1r0'"):
        state.record("d2g1r0", [1, 2])
    with pytest.raises(TournamentError, match="expected a ladder game id"):
        state.game("r1t1")


def test_joining_withdrawing_and_no_deal_yet_ranks_last() -> None:
    state = ladder(2, 3, deals=2)
    state.withdraw("b0")
    with pytest.raises(TournamentError, match="already in the ladder"):
        state.join("b1", 1500)
    with pytest.raises(TournamentError, match="joined as a bot before"):
        state.join("b0", 1500, house=True)
    deal = state.pair_deal(Random(1))
    assert "b0" not in [m for g in deal.groups for m in g.members]
    for game in state.games():
        state.record(game.id, [2, 1] if game.seats[0] == "b1" else [1, 2])  # b1 loses every game
    assert [line.player for line in state.standings()][-1] == "b0"
    assert state.standings()[-2].player == "b1" and state.standings()[-2].score < 0


def test_the_state_is_stored_and_read_back() -> None:
    state = ladder(3, 4, deals=3, house=3)
    rng = Random(9)
    play_deal(state, rng, best="b3")
    state.pair_deal(rng)  # under way
    state.record(state.deals[-1].groups[0].games[0].id, [1, 1, 3], {state.deals[-1].groups[0].games[0].seats[2]: 9})
    text = to_json(state)
    again = from_json(text)
    assert isinstance(again, Ladder) and to_json(again) == text
    assert again.standings() == state.standings() and again.deals[-1].seed == state.deals[-1].seed
    data = json.loads(text)
    data["deals"][0]["groups"][0]["members"][0] = "nobody"
    with pytest.raises(TournamentError, match="expected known players"):
        from_json(json.dumps(data))
    data = json.loads(text)
    data["deals"][1]["seed"] = -1
    with pytest.raises(TournamentError, match=r"deals\[1\].seed"):
        from_json(json.dumps(data))
    data = json.loads(text)
    data["deals"][0]["groups"][0]["games"][1]["places"] = None  # deal 1 unfinished, deal 2 paired
    with pytest.raises(TournamentError, match="deal 1 has games without a result"):
        from_json(json.dumps(data))
