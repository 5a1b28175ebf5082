"""What every store of tournaments promises (:class:`~ghostparty.server.tournaments.store.TournamentStore`),
held against each one: :class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a
SQLite file and on PostgreSQL (the ``any_store`` fixture)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from ghostparty.server.common.model import PLAYING, Seat, Table
from ghostparty.server.tables.store import Store
from ghostparty.server.tournaments.store import (
    CANCELLED,
    FINISHED,
    RUNNING,
    SCHEDULED,
    Applied,
    Change,
    Entrant,
    GameRow,
    TournamentRow,
)
from tests.fixtures.stores import new_player
from tests.server.tables.test_store_contract import race

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
ANN = Entrant("gann", "Ann", T0)
BOB = Entrant("gbob", "Bob", T0 + timedelta(seconds=1))


def player(keeper: Domains, name: str) -> int:
    return new_player(keeper, name, T0)


def tournament(tournament_id: str = "tour1", **changes: Any) -> TournamentRow:
    row = TournamentRow(
        id=tournament_id,
        kind="arena",
        rules="hugo",
        table_size=2,
        rated=False,
        turn_seconds=30,
        starts=T0,
        minutes=30,
        rounds=None,
        bots=False,
        creator_id=None,
        creator="Ann",
        status=SCHEDULED,
        reason=None,
        state="{}",
        version=0,
        created=T0,
        updated=T0,
    )
    return replace(row, **changes)


def table(any_store: Store, table_id: str) -> str:
    seats = (Seat(0, "human", name="Ann"), Seat(1, "human", name="Bob"))
    assert any_store.create(Table(id=table_id, rules="hugo", players=2, seats=seats, seed=1, created=T0, updated=T0))
    return table_id


def game(name: str, table_id: str, minute: int = 0) -> GameRow:
    return GameRow(name, table_id, ["gann", "gbob"], T0 + timedelta(minutes=minute), {"gann": "a" * 64})


def joined(number: int, name: str | None = None) -> Entrant:
    return Entrant(f"g{number}", name or f"Guest {number}", T0 + timedelta(minutes=number))


# create and read


def test_a_created_tournament_reads_as_it_was_given(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    row = tournament(creator_id=ann, round_at=T0 + timedelta(minutes=5), recurring="hourly", rounds=3)
    assert keeper.tournaments.create(row, [BOB, ANN])
    assert keeper.tournaments.get("tour1") == row
    assert keeper.tournaments.entrants("tour1") == [ANN, BOB]  # in the order they joined
    assert keeper.tournaments.games("tour1") == []
    snapshot = keeper.tournaments.snapshot("tour1")
    assert snapshot is not None and (snapshot.row, snapshot.entrants, snapshot.games) == (row, [ANN, BOB], [])
    assert keeper.tournaments.get("nope") is None and keeper.tournaments.snapshot("nope") is None
    assert keeper.tournaments.entrants("nope") == [] and keeper.tournaments.games("nope") == []


def test_a_taken_id_or_recurring_start_is_refused(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament(recurring="hourly"), [ANN])
    assert not keeper.tournaments.create(tournament(creator="Bob"), [BOB])
    assert not keeper.tournaments.create(tournament("tour2", recurring="hourly"))
    assert keeper.tournaments.create(tournament("tour3", recurring="hourly", starts=T0 + timedelta(hours=1)))
    assert keeper.tournaments.create(tournament("tour4"))  # not recurring: any start
    assert keeper.tournaments.create(tournament("tour5"))
    assert keeper.tournaments.get("tour1") == tournament(recurring="hourly")
    assert keeper.tournaments.entrants("tour1") == [ANN] and keeper.tournaments.get("tour2") is None


def test_of_racing_creates_of_one_recurring_start_exactly_one_wins(keeper: Domains) -> None:
    made = race(6, lambda i: keeper.tournaments.create(tournament(f"tour{i}", recurring="hourly")))
    assert made.count(True) == 1, made
    assert [row.id for row in keeper.tournaments.listing([SCHEDULED])] == [f"tour{made.index(True)}"]


def test_listing_is_by_status_and_start(keeper: Domains) -> None:
    hours = {"a": (3, SCHEDULED), "b": (1, SCHEDULED), "c": (2, RUNNING), "d": (0, FINISHED), "e": (4, CANCELLED)}
    for tournament_id, (hour, status) in hours.items():
        assert keeper.tournaments.create(tournament(tournament_id, starts=T0 + timedelta(hours=hour), status=status))
    listed = keeper.tournaments.listing
    assert [row.id for row in listed([SCHEDULED, RUNNING])] == ["b", "c", "a"]
    assert [row.id for row in listed((SCHEDULED, RUNNING), 2)] == ["b", "c"]
    assert [row.id for row in listed((FINISHED, CANCELLED), newest_first=True)] == ["e", "d"]
    assert listed([SCHEDULED], 1, newest_first=True) == [tournament("a", starts=T0 + timedelta(hours=3))]
    assert listed(["unheard"]) == []


# compare-and-set


def test_a_change_raises_the_version_and_a_stale_one_is_refused(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament(), [ANN])
    moment = T0 + timedelta(minutes=1)
    started = Change('{"round": 1}', RUNNING, None, T0 + timedelta(minutes=2), entrant=BOB)
    assert keeper.tournaments.change("tour1", 0, started, moment)
    expected = tournament(state='{"round": 1}', status=RUNNING, round_at=T0 + timedelta(minutes=2))
    assert keeper.tournaments.get("tour1") == replace(expected, version=1, updated=moment)
    assert keeper.tournaments.entrants("tour1") == [ANN, BOB]
    assert not keeper.tournaments.change("tour1", 0, Change("{}", CANCELLED, "stale"), moment)
    assert not keeper.tournaments.change("nope", 0, Change("{}", CANCELLED), moment)
    cancelled = Change("{}", CANCELLED, "nobody came")
    assert keeper.tournaments.change("tour1", 1, cancelled, moment + timedelta(minutes=1))
    row = keeper.tournaments.get("tour1")
    assert row is not None and (row.version, row.status, row.reason, row.round_at) == (
        2,
        CANCELLED,
        "nobody came",
        None,
    )


def test_of_racing_changes_from_one_version_exactly_one_wins(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament())
    won = race(6, lambda i: keeper.tournaments.change("tour1", 0, Change(f'{{"by": {i}}}', RUNNING), T0))
    assert won.count(True) == 1, won
    row = keeper.tournaments.get("tour1")
    assert row is not None and (row.version, row.state) == (1, f'{{"by": {won.index(True)}}}')


def test_games_are_kept_with_their_tables_and_recorded_once(any_store: Store, keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament(), [ANN, BOB])
    assert keeper.tournaments.create(tournament("tour2"))
    late, early = game("g2", table(any_store, "t2"), 5), game("g1", table(any_store, "t1"), 1)
    assert keeper.tournaments.change("tour1", 0, Change("{}", RUNNING, new_games=[late, early]), T0)
    assert keeper.tournaments.games("tour1") == [early, late]
    assert keeper.tournaments.of_table("t1") == "tour1" and keeper.tournaments.of_table("t9") is None
    assert keeper.tournaments.change("tour1", 1, Change("{}", RUNNING, recorded=["g1"]), T0)
    assert keeper.tournaments.games("tour1") == [replace(early, recorded=True), late]
    # counted already, or no such game: the whole change is refused
    both = Change('{"again": true}', FINISHED, recorded=["g2", "g1"])
    assert not keeper.tournaments.change("tour1", 2, both, T0)
    assert not keeper.tournaments.change("tour1", 2, Change("{}", FINISHED, recorded=["g9"]), T0)
    assert keeper.tournaments.games("tour1") == [replace(early, recorded=True), late]
    row = keeper.tournaments.get("tour1")
    assert row is not None and (row.version, row.status) == (2, RUNNING)
    # a table holds one game; a game's table is one that is there
    again = Change("{}", RUNNING, new_games=[game("g1", "t1")])
    assert not keeper.tournaments.change("tour2", 0, again, T0)
    assert not keeper.tournaments.change("tour2", 0, Change("{}", RUNNING, new_games=[game("g1", "t9")]), T0)
    assert not keeper.tournaments.change(
        "tour1", 2, Change("{}", RUNNING, new_games=[game("g2", table(any_store, "t3"))]), T0
    )
    assert keeper.tournaments.games("tour2") == [] and keeper.tournaments.of_table("t3") is None


def test_what_is_handed_out_is_not_the_stores_own(any_store: Store, keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament())
    given = game("g1", table(any_store, "t1"))
    assert keeper.tournaments.change("tour1", 0, Change("{}", RUNNING, new_games=[given]), T0)
    given.seats.append("gcy")
    given.tokens["gcy"] = "c" * 64
    (read,) = keeper.tournaments.games("tour1")
    read.seats.clear()
    read.tokens.clear()
    assert keeper.tournaments.games("tour1") == [game("g1", "t1")]


def test_table_statuses_are_those_of_the_tables_there(any_store: Store, keeper: Domains) -> None:
    table(any_store, "t1")
    seats = (Seat(0, "human", name="Ann"), Seat(1, "human", name="Bob"))
    assert any_store.create(Table("t2", "hugo", 2, seats, 1, status=PLAYING, created=T0, updated=T0))
    assert keeper.tournaments.table_statuses(["t1", "t2", "t9"]) == {"t1": "open", "t2": "playing"}
    assert keeper.tournaments.table_statuses([]) == {}


# apply: in turn


def entering(entrant: Entrant) -> Any:
    """A step that counts one more entrant in the state and adds ``entrant``."""

    def step(row: TournamentRow) -> Change:
        count = json.loads(row.state).get("entrants", 0)
        return Change(json.dumps({"entrants": count + 1}), row.status, entrant=entrant)

    return step


def test_apply_stores_what_the_step_makes_of_the_latest_row(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament(), [ANN])
    moment = T0 + timedelta(minutes=3)
    applied = keeper.tournaments.apply("tour1", entering(joined(1)), moment)
    assert applied == Applied(tournament(), Change('{"entrants": 1}', SCHEDULED, entrant=joined(1)))
    assert keeper.tournaments.get("tour1") == tournament(state='{"entrants": 1}', version=1, updated=moment)
    assert keeper.tournaments.entrants("tour1") == [ANN, joined(1)]
    assert keeper.tournaments.apply("nope", entering(joined(2)), moment) == Applied(None, None)
    latest = keeper.tournaments.get("tour1")
    assert keeper.tournaments.apply("tour1", lambda row: None, moment) == Applied(latest, None)
    assert keeper.tournaments.get("tour1") == latest


def test_a_step_that_raises_stores_nothing(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament())

    def refuse(row: TournamentRow) -> Change:
        raise ValueError("not now")

    with pytest.raises(ValueError, match="not now"):
        keeper.tournaments.apply("tour1", refuse, T0)
    assert keeper.tournaments.get("tour1") == tournament()
    assert keeper.tournaments.apply("tour1", entering(joined(1)), T0).stored  # the row isn't left locked


def test_a_new_entrant_whose_name_reads_like_anothers_is_not_stored(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament(), [ANN])
    applied = keeper.tournaments.apply("tour1", entering(joined(1, "ANN")), T0)
    assert (applied.stored, applied.taken) == (False, "Ann")
    applied = keeper.tournaments.apply("tour1", entering(Entrant("gann", "Ann", T0)), T0)  # the same entrant again
    assert (applied.stored, applied.taken) == (False, None)
    assert keeper.tournaments.entrants("tour1") == [ANN] and keeper.tournaments.get("tour1") == tournament()


def test_joins_at_once_are_all_stored_one_after_another(keeper: Domains) -> None:
    assert keeper.tournaments.create(tournament())
    applied = race(8, lambda i: keeper.tournaments.apply("tour1", entering(joined(i)), T0))
    assert all(done.stored for done in applied), applied
    assert sorted(done.row.version for done in applied if done.row is not None) == list(range(8))
    row = keeper.tournaments.get("tour1")
    assert row is not None and (row.version, json.loads(row.state)) == (8, {"entrants": 8})
    assert keeper.tournaments.entrants("tour1") == [joined(i) for i in range(8)]


# accounts


def test_finished_tournaments_entered_are_listed_newest_first(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    mine = Entrant(f"p{ann}", "Ann", T0, player_id=ann)
    for number, status in enumerate([FINISHED, FINISHED, RUNNING, FINISHED]):
        row = tournament(f"t{number}", starts=T0 + timedelta(days=number), status=status)
        assert keeper.tournaments.create(row, [mine] if number != 3 else [])
    assert [row.id for row in keeper.tournaments.entered(ann)] == ["t1", "t0"]
    assert [row.id for row in keeper.tournaments.entered(ann, 1)] == ["t1"]
    assert keeper.tournaments.entered(bob) == []


def test_a_deleted_account_leaves_its_entries_and_tournaments_nameless(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    mine = Entrant(f"p{ann}", "Ann", T0, player_id=ann)
    assert keeper.tournaments.create(tournament(status=FINISHED, creator_id=ann), [mine, BOB])
    keeper.accounts.delete_player(ann)
    assert keeper.tournaments.entrants("tour1") == [replace(mine, player_id=None), BOB]
    row = keeper.tournaments.get("tour1")
    assert row is not None and row.creator_id is None and row.creator == "Ann"
    assert keeper.tournaments.entered(ann) == []
    # and an account that isn't there can't enter
    assert not keeper.tournaments.create(tournament("tour2"), [mine])
    assert not keeper.tournaments.create(tournament("tour3", creator_id=ann))
    applied = keeper.tournaments.apply("tour1", entering(replace(mine, entrant="p999", name="Annie")), T0)
    assert (applied.stored, applied.taken) == (False, None)
