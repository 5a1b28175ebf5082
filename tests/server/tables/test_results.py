"""A game's result and its ratings: kept with the game's last action, exactly once, on
SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from ghostparty.server.common.model import OVER, PLAYING, ActionRow, Change, GameResult, Seat, SeatResult, Table
from ghostparty.server.common.ratings import NEW
from ghostparty.server.infra.db import ratings, results
from ghostparty.server.stores import SqlStores
from ghostparty.server.tables.store import SqlTables

WHEN = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def rated_table(store: SqlTables, table_id: str = "t1") -> tuple[Table, list[int]]:
    """A rated two-person table at version 5, under way, and its players' ids."""
    accounts = SqlStores.on(store).accounts
    ann = accounts.create_player("ann", "ann", "x", WHEN)
    bob = accounts.create_player("bob", "bob", "x", WHEN)
    assert ann is not None and bob is not None
    seats = (
        Seat(0, "human", name="ann", token_hash="a" * 64, player_id=ann.id),
        Seat(1, "human", name="bob", token_hash="b" * 64, player_id=bob.id),
    )
    table = Table(table_id, "hugo", 2, seats, seed=1, status=PLAYING, version=5, first_player=0, to_move=0, rated=True)
    assert store.create(table)
    return table, [ann.id, bob.id]


def the_end(table: Table, ids: list[int]) -> Change:
    over = replace(table, status=OVER, version=table.version + 1, to_move=None, winners=(1,), updated=WHEN)
    result = GameResult("hugo", True, (SeatResult(0, ids[0], 20, 2, False), SeatResult(1, ids[1], 4, 1, True)), WHEN)
    return Change(over, table.version, (ActionRow(0, 0, {"roll": 3}),), False, result)


def counts(store: SqlTables) -> tuple[int, list[tuple[int, int]]]:
    with store.engine.connect() as conn:
        kept = conn.execute(select(func.count()).select_from(results)).scalar_one()
        games = list(conn.execute(select(ratings.c.player_id, ratings.c.games).where(ratings.c.rules == "hugo")))
    return kept, sorted((row.player_id, row.games) for row in games)


def test_the_end_of_a_rated_game_moves_the_ratings_once(store: SqlTables) -> None:
    table, ids = rated_table(store)
    change = the_end(table, ids)
    assert store.save_many([change]) == [True]
    assert store.save_many([change]) == [False]  # the same end again: the table moved on
    kept, games = counts(store)
    assert kept == 2 and games == [(ids[0], 1), (ids[1], 1)]
    with store.engine.connect() as conn:
        rows = {r.seat: r for r in conn.execute(select(results))}
    assert rows[1].won and rows[1].mu_after > NEW.mu > rows[0].mu_after
    assert rows[0].mu_before == NEW.mu and rows[0].sigma_after < rows[0].sigma_before + 0.1


def test_two_instances_ending_one_game_at_once_rate_it_once(store_url: str) -> None:
    first, second = SqlTables(store_url), SqlTables(store_url)
    try:
        table, ids = rated_table(first)
        change = the_end(table, ids)
        outcomes: list[bool] = []
        start = threading.Barrier(2)

        def end(store: SqlTables) -> None:
            start.wait()
            outcomes.extend(store.save_many([change]))

        threads = [threading.Thread(target=end, args=(s,)) for s in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == [False, True]
        kept, games = counts(first)
        assert kept == 2 and games == [(ids[0], 1), (ids[1], 1)]
    finally:
        first.close()
        second.close()


def test_a_failure_while_rating_leaves_nothing_half_done_and_the_retry_rates_once(
    store: SqlTables, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, ids = rated_table(store)
    change = the_end(table, ids)

    def crash(*_args: object) -> None:
        raise ConnectionError("the server went away mid-commit")

    monkeypatch.setattr("ghostparty.server.tables.store.record_result", crash)
    with pytest.raises(ConnectionError):
        store.save_many([change])
    loaded = store.load(table.id)
    assert loaded is not None and loaded[0].version == 5 and loaded[0].status == PLAYING and loaded[1] == []
    assert counts(store) == (0, [(ids[0], 0), (ids[1], 0)])
    monkeypatch.undo()  # the restarted server ends the game again
    assert store.save_many([change]) == [True]
    assert counts(store) == (2, [(ids[0], 1), (ids[1], 1)])


def test_ends_in_a_batch_with_other_games_actions_each_stand_alone(store: SqlTables) -> None:
    table, ids = rated_table(store)
    other = Table(
        "t2",
        "hugo",
        2,
        (Seat(0, "bot", bot="random"), Seat(1, "bot", bot="random")),
        seed=2,
        status=PLAYING,
        version=1,
        first_player=0,
        to_move=0,
    )
    assert store.create(other)
    step = Change(replace(other, version=2), 1, (ActionRow(0, 0, {"roll": 2}),), False)
    stale = Change(replace(other, version=3), 1, (ActionRow(1, 1, {"roll": 2}),), False)
    assert store.save_many([step, the_end(table, ids), stale]) == [True, True, False]
    assert counts(store)[0] == 2
