"""What every :class:`~ghostparty.server.tables.store.Store` promises, held against each one.

Every test runs on :class:`MemoryStore`, on :class:`SqlTables` over a SQLite file and on
:class:`SqlTables` over PostgreSQL (the ``any_store`` fixture). The order of tables
changed at the same instant is left open by the protocol, so no test depends on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from ghostparty.server.common.model import CLOSED, OPEN, OVER, PLAYING, ActionRow, Seat, Status, Table, needs_keeper
from ghostparty.server.stores import MemoryStore
from ghostparty.server.tables.store import Store

T = TypeVar("T")

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
ANN = Seat(0, "human", name="Ann", token_hash="0" * 64)
GREEDY = Seat(1, "bot", bot="greedy", name="Greedy bot")


def table(table_id: str = "abc", **changes: Any) -> Table:
    """A two-seat table, as the lobby makes one, with ``changes``."""
    base = Table(id=table_id, rules="hugo", players=2, seats=(ANN, GREEDY), seed=2**61 + 5, created=T0, updated=T0)
    return replace(base, **changes)


def full_table(table_id: str = "full") -> Table:
    """A table with every field set to something other than its default."""
    seats = (
        Seat(
            0,
            "human",
            name="Zoë Ærøskøbing",
            token_hash="f" * 64,
            away=True,
            back=True,
            player_id=7,
            again=True,
            bank=17,
        ),
        Seat(1, "bot", bot="mcts", name="幽霊 Hugo 👻", player_id=2**31 - 1),
        Seat(2, "human", name="Ann", token_hash="a1" * 32, away=True, bank=0),
        Seat(3, "bot", bot="expectimax"),
    )
    return Table(
        id=table_id,
        rules="midnight-party",
        players=4,
        seats=seats,
        seed=2**62 - 1,
        status=OVER,
        version=2_000_000,
        first_player=3,
        to_move=2,
        winners=(0, 2),
        turn_seconds=45,
        absent_bot="mcts",
        rated=True,
        series="first1",
        series_index=12,
        rematch="next1",
        rematch_fill="empty",
        deal=2**48 - 1,
        created=datetime(2025, 1, 31, 23, 59, 58, 123456, tzinfo=UTC),
        updated=datetime(2026, 7, 4, 12, 0, 1, 999999, tzinfo=UTC),
    )


def sparse_table(table_id: str = "sparse") -> Table:
    """A table with every optional field ``None`` or empty."""
    return Table(
        id=table_id,
        rules="hugo",
        players=2,
        seats=(Seat(0, "human"), Seat(1, "human")),
        seed=0,
        created=T0,
        updated=T0,
    )


def loaded(store: Store, table_id: str = "abc") -> tuple[Table, list[ActionRow]]:
    found = store.load(table_id)
    assert found is not None, f"no table {table_id!r}"
    return found


def race(threads: int, call: Callable[[int], T]) -> list[T]:
    """``call(i)`` for each ``i`` in as many threads, let go at the same instant."""
    start = threading.Barrier(threads)

    def go(i: int) -> T:
        start.wait(timeout=10)
        return call(i)

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(go, range(threads)))


# create and load


def test_a_created_table_loads_as_it_was_given(any_store: Store) -> None:
    assert any_store.create(table())
    assert any_store.load("abc") == (table(), [])


def test_a_taken_id_is_refused_and_the_first_table_kept(any_store: Store) -> None:
    assert any_store.create(table())
    assert not any_store.create(table(rules="midnight-party", seed=7, updated=T0 + timedelta(hours=1)))
    assert any_store.load("abc") == (table(), [])


def test_an_unknown_id_loads_as_none(any_store: Store) -> None:
    assert any_store.load("abc") is None
    any_store.create(table())
    assert any_store.load("abd") is None
    assert any_store.load("") is None


def test_the_version_is_read_alone_and_follows_each_save(any_store: Store) -> None:
    assert any_store.version("abc") is None
    any_store.create(table())
    assert any_store.version("abc") == 0
    assert any_store.save(table(version=3), 0, [ActionRow(0, 0, {"place": "G3"})])
    assert any_store.version("abc") == 3
    assert not any_store.save(table(version=9), 0)  # refused: the version stays
    assert any_store.version("abc") == 3
    assert any_store.version("abd") is None and any_store.version("") is None


def test_versions_are_read_for_many_tables_at_once(any_store: Store) -> None:
    assert any_store.versions([]) == {}
    assert any_store.versions(["abc", ""]) == {}
    ids = [f"t{n:04d}" for n in range(1203)]  # more than one statement's worth on SQL
    for n, table_id in enumerate(ids):
        assert any_store.create(table(table_id, version=n % 7))
    assert any_store.save(table("t0003", version=11), 3)
    wanted = [*ids, "nope", "t0003"]  # an unknown id is left out; one asked twice is one
    expected = {table_id: n % 7 for n, table_id in enumerate(ids)} | {"t0003": 11}
    assert any_store.versions(wanted) == expected
    assert any_store.versions(("t0001", "t0003")) == {"t0001": 1, "t0003": 11}


def test_games_under_way_are_listed_with_their_keepers_work(any_store: Store) -> None:
    """``under_way`` reads what :func:`needs_keeper` reads of a table, for every way a
    game under way may have work for its keeper or none."""
    bob = Seat(1, "human", name="Bob", token_hash="1" * 64)
    people = (ANN, bob)
    variants = {
        "people": table(seats=people),
        "bot": table(),
        "away": table(seats=(replace(ANN, away=True), bob)),
        "back": table(seats=(ANN, replace(bob, back=True))),  # (back without away: the clause alone)
        "timed": table(seats=people, turn_seconds=30),
        "nobody": table(seats=people, to_move=None),
        "again": table(seats=(replace(ANN, again=True, bank=3), bob)),
    }
    for name, kept in variants.items():
        assert any_store.create(replace(kept, id=name, status=PLAYING, to_move=kept.to_move if name == "nobody" else 0))
    assert any_store.create(table("open", seats=people))
    assert any_store.create(table("over", status=OVER))
    assert any_store.save(replace(table("people", seats=people), status=PLAYING, to_move=0, version=5), 0)
    found = any_store.under_way()
    assert set(found) == set(variants)
    for name in variants:
        stored = loaded(any_store, name)[0]
        assert found[name] == (stored.version, needs_keeper(stored)), name
    assert found["people"] == (5, False) and found["again"] == (0, False)
    assert all(found[name][1] for name in ("bot", "away", "back", "timed", "nobody"))


@pytest.mark.parametrize("make", [full_table, sparse_table], ids=["full", "sparse"])
def test_every_field_comes_back_as_it_was_kept(any_store: Store, make: Callable[[str], Table]) -> None:
    kept = make("t")
    assert any_store.create(kept)
    assert loaded(any_store, "t") == (kept, [])
    # Times come back in UTC, not merely as the same instant.
    back = loaded(any_store, "t")[0]
    for moment in (back.created, back.updated):
        assert moment.utcoffset() == timedelta(0)
    assert isinstance(back.winners, tuple) and isinstance(back.seats, tuple)
    # The same through save and through the lobby's listing.
    changed = replace(kept, version=kept.version + 1, updated=kept.updated + timedelta(microseconds=1))
    assert any_store.save(changed, kept.version)
    assert loaded(any_store, "t") == (changed, [])
    assert any_store.list_tables(changed.status) == [changed]


@pytest.mark.parametrize("seed", [0, 2**62 - 1, 2**62 + 12345, 2**63 - 1])
def test_a_seed_is_kept_to_the_last_bit(any_store: Store, seed: int) -> None:
    any_store.create(table(seed=seed))
    assert loaded(any_store)[0].seed == seed


@pytest.mark.parametrize("status", [OPEN, PLAYING, OVER, CLOSED])
def test_every_status_is_kept(any_store: Store, status: Status) -> None:
    any_store.create(table(status=status))
    assert loaded(any_store)[0].status == status
    assert any_store.list_tables(status) == [table(status=status)]


def test_tables_are_counted_by_status(any_store: Store) -> None:
    assert any_store.count_tables() == {}
    for n, status in enumerate([OPEN, PLAYING, PLAYING, OVER, PLAYING]):
        any_store.create(table(f"t{n}", status=status))
    assert any_store.count_tables() == {OPEN: 1, PLAYING: 3, OVER: 1}


# save


def test_save_replaces_the_table_when_the_version_is_the_expected_one(any_store: Store) -> None:
    any_store.create(table())
    started = table(status=PLAYING, version=1, first_player=1, to_move=1, updated=T0 + timedelta(seconds=3))
    assert any_store.save(started, 0)
    assert any_store.load("abc") == (started, [])
    over = replace(started, status=OVER, version=2, to_move=None, winners=(1,), turn_seconds=30, absent_bot="mcts")
    assert any_store.save(over, 1, [ActionRow(0, 1, {"place": "G3"})])
    assert any_store.load("abc") == (over, [ActionRow(0, 1, {"place": "G3"})])


@pytest.mark.parametrize("stale", [0, 2, 5, -1])
def test_save_from_another_version_is_refused_and_changes_nothing(any_store: Store, stale: int) -> None:
    any_store.create(table())
    first = table(status=PLAYING, version=1, first_player=0, to_move=0)
    assert any_store.save(first, 0, [ActionRow(0, 0, {"place": "G12"})])
    before = loaded(any_store)
    # A change made from another version (by another server instance, say): refused, with
    # its seats and actions, all of it.
    rival = table(status=OVER, version=stale + 1, winners=(1,)).with_seat(Seat(0, "human", name="Bob", away=True))
    assert not any_store.save(rival, stale, [ActionRow(1, 1, {"place": "G3"}), ActionRow(2, 0, {"roll": 4})])
    assert loaded(any_store) == before


def test_a_table_nobody_created_cannot_be_saved(any_store: Store) -> None:
    assert not any_store.save(table(version=1), 0, [ActionRow(0, 0, {"place": "G1"})])
    assert any_store.load("abc") is None
    assert any_store.list_tables(OPEN) == []


def test_save_keeps_what_was_fixed_at_creation(any_store: Store) -> None:
    """Id, rules, players, seed, a ladder's deal and creation time are the table's for good."""
    any_store.create(table())
    changed = table(version=1, rules="midnight-party", players=3, seed=99, deal=7, created=T0 + timedelta(days=1))
    assert any_store.save(changed, 0)
    assert loaded(any_store)[0] == table(version=1)


def test_seats_change_with_the_table(any_store: Store) -> None:
    any_store.create(table())
    left = table(version=1).with_seat(Seat(0, "human"))
    assert any_store.save(left, 0)
    assert loaded(any_store)[0] == left
    away = table(version=2).with_seat(replace(ANN, away=True, back=True)).with_seat(Seat(1, "bot", bot="mcts"))
    assert any_store.save(away, 1)
    assert loaded(any_store)[0] == away
    banked = table(version=3).with_seat(replace(ANN, bank=12))  # the seconds left in a time bank
    assert any_store.save(banked, 2)
    assert loaded(any_store)[0].seats[0].bank == 12


def test_an_action_alone_leaves_the_seats_as_they_are(any_store: Store) -> None:
    any_store.create(table())
    changed = table(version=1, status=PLAYING, to_move=1).with_seat(Seat(0, "human", away=True))
    assert any_store.save(changed, 0, [ActionRow(0, 0, {"place": "G1"})], with_seats=False)
    assert loaded(any_store) == (replace(changed, seats=table().seats), [ActionRow(0, 0, {"place": "G1"})])
    # Without actions too.
    assert any_store.save(replace(changed, version=2), 1, with_seats=False)
    assert loaded(any_store)[0] == replace(changed, version=2, seats=table().seats)


def test_an_action_index_is_written_once_all_or_nothing(any_store: Store) -> None:
    any_store.create(table())
    assert any_store.save(table(version=1), 0, [ActionRow(0, 0, {"place": "G12"})])
    before = loaded(any_store)
    # The right version, but index 0 is written already: nothing of it is kept, not the
    # new index 1 given first, nor the table, nor its seats.
    again = table(version=2, status=PLAYING).with_seat(Seat(0, "human"))
    assert not any_store.save(again, 1, [ActionRow(1, 1, {"place": "G2"}), ActionRow(0, 0, {"place": "G13"})])
    assert loaded(any_store) == before
    # Neither with the seats left alone.
    assert not any_store.save(again, 1, [ActionRow(0, 0, {"place": "G13"})], with_seats=False)
    assert loaded(any_store) == before
    # The same change with a free index goes through.
    assert any_store.save(again, 1, [ActionRow(1, 1, {"place": "G2"})])
    assert loaded(any_store) == (again, [*before[1], ActionRow(1, 1, {"place": "G2"})])


def test_an_index_twice_in_one_save_is_refused(any_store: Store) -> None:
    any_store.create(table())
    assert not any_store.save(table(version=1), 0, [ActionRow(0, 0, {"place": "G1"}), ActionRow(0, 1, {"roll": 2})])
    assert any_store.load("abc") == (table(), [])


def test_many_actions_come_back_in_index_order(any_store: Store) -> None:
    any_store.create(table())
    expected: list[ActionRow] = []
    version = 0
    for start in range(0, 300, 7):  # batches of 7, as a bot's turn saves several at once
        batch = [
            ActionRow(i, i % 2, {"place": f"G{i % 40}", "n": i, "path": [i, "ä", None, True]})
            for i in range(start, start + 7)
        ]
        assert any_store.save(table(version=version + 1), version, batch)
        version += 1
        expected += batch
    assert loaded(any_store) == (table(version=version), expected)


def test_actions_given_out_of_order_come_back_in_index_order(any_store: Store) -> None:
    any_store.create(table())
    assert any_store.save(table(version=1), 0, [ActionRow(5, 1, {"i": 5}), ActionRow(3, 0, {"i": 3})])
    assert any_store.save(table(version=2), 1, [ActionRow(4, 0, {"i": 4}), ActionRow(0, 1, {"i": 0})])
    assert [row.index for row in loaded(any_store)[1]] == [0, 3, 4, 5]
    assert [row.action["i"] for row in loaded(any_store)[1]] == [0, 3, 4, 5]


def test_tables_are_kept_apart(any_store: Store) -> None:
    any_store.create(table("a"))
    any_store.create(table("b", rules="midnight-party"))
    # The same action indices on each; a change of one leaves the other as it was.
    assert any_store.save(table("a", version=1, status=PLAYING), 0, [ActionRow(0, 0, {"t": "a"})])
    assert any_store.save(table("b", version=1), 0, [ActionRow(0, 1, {"t": "b"})], with_seats=False)
    assert any_store.save(table("a", version=2).with_seat(Seat(0, "human")), 1, [ActionRow(1, 1, {"t": "a"})])
    assert loaded(any_store, "b") == (table("b", rules="midnight-party", version=1), [ActionRow(0, 1, {"t": "b"})])
    table_a, actions_a = loaded(any_store, "a")
    assert table_a == table("a", version=2).with_seat(Seat(0, "human"))
    assert actions_a == [ActionRow(0, 0, {"t": "a"}), ActionRow(1, 1, {"t": "a"})]
    # A version that is another table's current one is still refused.
    assert not any_store.save(table("b", version=3), 2)


# list_tables


def test_tables_are_listed_by_status_the_most_recently_changed_first(any_store: Store) -> None:
    for i in range(4):
        any_store.create(table(f"o{i}", updated=T0 + timedelta(minutes=(i * 5) % 4)))  # o0, o3, o2, o1 oldest first
    any_store.create(table("p", status=PLAYING, first_player=0, to_move=0, updated=T0 + timedelta(hours=1)))
    assert [t.id for t in any_store.list_tables(OPEN)] == ["o3", "o2", "o1", "o0"]
    assert any_store.list_tables(PLAYING) == [
        table("p", status=PLAYING, first_player=0, to_move=0, updated=T0 + timedelta(hours=1))
    ]
    assert any_store.list_tables(OVER) == []
    # Tables come whole, seats and all, as load gives them.
    for listed in any_store.list_tables(OPEN):
        assert listed == loaded(any_store, listed.id)[0]


def test_a_save_moves_a_table_in_the_lists(any_store: Store) -> None:
    for i in range(3):
        any_store.create(table(f"t{i}", updated=T0 + timedelta(seconds=i)))
    assert any_store.save(table("t0", version=1, updated=T0 + timedelta(minutes=1)), 0)
    assert [t.id for t in any_store.list_tables(OPEN)] == ["t0", "t2", "t1"]
    assert any_store.save(table("t2", version=1, status=PLAYING, updated=T0 + timedelta(minutes=2)), 0)
    assert [t.id for t in any_store.list_tables(OPEN)] == ["t0", "t1"]
    assert [t.id for t in any_store.list_tables(PLAYING)] == ["t2"]


def test_the_list_stops_at_the_limit(any_store: Store) -> None:
    for i in range(55):
        any_store.create(table(f"t{i:02}", updated=T0 + timedelta(seconds=i)))
    assert [t.id for t in any_store.list_tables(OPEN)] == [f"t{i:02}" for i in range(54, 4, -1)]  # 50 by default
    assert [t.id for t in any_store.list_tables(OPEN, limit=2)] == ["t54", "t53"]
    assert [t.id for t in any_store.list_tables(OPEN, limit=1000)] == [f"t{i:02}" for i in range(54, -1, -1)]
    assert any_store.list_tables(OPEN, limit=0) == []


def test_before_lists_the_tables_changed_at_or_before_it(any_store: Store) -> None:
    for i in range(5):
        any_store.create(table(f"t{i}", updated=T0 + timedelta(minutes=i)))
    assert [t.id for t in any_store.list_tables(OPEN, before=T0 + timedelta(minutes=2))] == ["t2", "t1", "t0"]
    assert [t.id for t in any_store.list_tables(OPEN, before=T0 + timedelta(minutes=2, microseconds=-1))] == [
        "t1",
        "t0",
    ]
    assert [t.id for t in any_store.list_tables(OPEN, 1, before=T0 + timedelta(minutes=3, seconds=30))] == ["t3"]
    assert any_store.list_tables(OPEN, before=T0 - timedelta(microseconds=1)) == []
    assert len(any_store.list_tables(OPEN, before=T0 + timedelta(days=1))) == 5
    assert any_store.list_tables(PLAYING, before=T0 + timedelta(days=1)) == []


def test_tables_changed_at_the_same_instant_are_all_listed(any_store: Store) -> None:
    """In some order: the protocol leaves it open."""
    for name in ("b", "c", "a"):
        any_store.create(table(name))
    any_store.create(table("z", updated=T0 - timedelta(seconds=1)))
    listed = [t.id for t in any_store.list_tables(OPEN)]
    assert sorted(listed[:3]) == ["a", "b", "c"] and listed[3] == "z"
    assert {t.id for t in any_store.list_tables(OPEN, before=T0)} == {"a", "b", "c", "z"}


# several threads


def test_of_racing_saves_from_one_version_exactly_one_wins(any_store: Store) -> None:
    any_store.create(table())
    for version in range(5):

        def save(i: int, version: int = version) -> bool:
            change = table(version=version + 1, to_move=i % 2, winners=(i,))
            return any_store.save(change, version, [ActionRow(version, i, {"by": i})])

        won = race(8, save)
        assert won.count(True) == 1, won
        winner = won.index(True)
        kept, rows = loaded(any_store)
        assert kept == table(version=version + 1, to_move=winner % 2, winners=(winner,))
        assert rows[-1] == ActionRow(version, winner, {"by": winner}) and len(rows) == version + 1


def test_of_racing_creates_of_one_id_exactly_one_wins(any_store: Store) -> None:
    made = race(8, lambda i: any_store.create(table("same", seed=i)))
    assert made.count(True) == 1, made
    assert loaded(any_store, "same")[0].seed == made.index(True)


# values handed out


def test_what_is_given_or_handed_out_is_not_the_stores_own(any_store: Store) -> None:
    any_store.create(table())
    action: dict[str, Any] = {"move": ["G1", "G2"], "meta": {"n": 1}}
    rows = [ActionRow(0, 0, action)]
    assert any_store.save(table(version=1), 0, rows)
    action["move"].append("G3")
    action["meta"]["n"] = 2
    action["extra"] = True
    rows.append(ActionRow(1, 1, {}))
    first = loaded(any_store)
    assert first[1] == [ActionRow(0, 0, {"move": ["G1", "G2"], "meta": {"n": 1}})]
    first[1][0].action["move"].clear()
    first[1][0].action["meta"]["n"] = 3
    first[1].append(ActionRow(1, 1, {}))
    assert loaded(any_store)[1] == [ActionRow(0, 0, {"move": ["G1", "G2"], "meta": {"n": 1}})]
    listed = any_store.list_tables(OPEN)
    listed.clear()
    assert any_store.list_tables(OPEN) == [table(version=1)]


def test_an_action_comes_back_as_json_would_give_it(any_store: Store) -> None:
    any_store.create(table())
    assert any_store.save(table(version=1), 0, [ActionRow(0, 0, {"path": ("G1", "G2"), "to": None, "x": 1.5})])
    assert loaded(any_store)[1] == [ActionRow(0, 0, {"path": ["G1", "G2"], "to": None, "x": 1.5})]


def test_the_store_says_whether_it_is_embedded(any_store: Store) -> None:
    assert isinstance(any_store.embedded, bool)
    assert MemoryStore().embedded


def test_a_series_is_its_first_table_and_those_naming_it_in_order(any_store: Store) -> None:
    assert any_store.create(table("first"))
    assert any_store.create(table("third", series="first", series_index=3))
    assert any_store.create(table("second", series="first", series_index=2))
    assert any_store.create(table("other", series="elsewhere", series_index=2))
    assert [t.id for t in any_store.series("first")] == ["first", "second", "third"]
    assert [t.id for t in any_store.series("nothing")] == []
