"""A tournament's row, entrants and games read as of one version (``SqlTournaments.snapshot``),
on SQLite and PostgreSQL: a change that lands between the reads is not half in the view."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from ghostparty.server.stores import SqlStores
from ghostparty.server.tournaments import store as tournament_store
from ghostparty.server.tournaments.store import RUNNING, SCHEDULED, Change, Entrant, GameRow
from tests.server.tournaments.test_tournaments_contract import tournament

T0 = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)


ANN = Entrant("gann", "Ann", T0)
BOB = Entrant("gbob", "Bob", T0 + timedelta(seconds=1))


def _entrant(number: int) -> Entrant:
    return Entrant(f"g{number}", f"Guest {number}", T0 + timedelta(minutes=number))


def test_a_change_between_the_reads_is_read_whole(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SqlStores.open(store_url)
    try:
        tournaments = store.tournaments
        assert tournaments.create(tournament(), [ANN, BOB])
        assert tournaments.snapshot("nope") is None
        first = tournaments.snapshot("tour1")
        assert first is not None
        assert (first.row.version, first.entrants, first.games) == (0, [ANN, BOB], [])
        # Carl enters (version 1) after the row and the entrants were read
        reads: list[int] = []
        read_games = tournament_store._games

        def games_then_change(conn: Any, tournament_id: str) -> list[GameRow]:
            reads.append(1)
            if len(reads) == 1:
                entered = Change(state='{"entrants": 3}', status=SCHEDULED, entrant=_entrant(1))
                assert tournaments.change("tour1", 0, entered, T0 + timedelta(minutes=1))
            return read_games(conn, tournament_id)

        monkeypatch.setattr(tournament_store, "_games", games_then_change)
        snapshot = tournaments.snapshot("tour1")
        assert snapshot is not None and len(reads) == 2  # read again
        assert (snapshot.row.version, snapshot.row.state) == (1, '{"entrants": 3}')
        assert (snapshot.entrants, snapshot.games) == ([ANN, BOB, _entrant(1)], [])
    finally:
        store.close()


def test_changes_that_keep_coming_give_the_last_reads(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SqlStores.open(store_url)
    try:
        tournaments = store.tournaments
        assert tournaments.create(tournament(), [ANN, BOB])
        read_games = tournament_store._games
        version = [0]

        def games_then_change(conn: Any, tournament_id: str) -> list[GameRow]:
            games = read_games(conn, tournament_id)
            added = Change(state="{}", status=RUNNING, entrant=_entrant(version[0] + 1))
            assert tournaments.change("tour1", version[0], added, T0)
            version[0] += 1
            return games

        monkeypatch.setattr(tournament_store, "_games", games_then_change)
        snapshot = tournaments.snapshot("tour1")
        assert snapshot is not None and version[0] == tournament_store.SNAPSHOT_TRIES  # it gave up, not looped on
        assert snapshot.row.version == version[0] - 1  # its entrants read before the last change
        assert len(snapshot.entrants) == 2 + version[0] - 1
    finally:
        store.close()
