"""Reliability (issue 25, item 4): the games a person finished against those they left to
a bot, kept with each result, shown on the profile and at the seat (``/api/records``),
and weighed by quick-match."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.testclient import TestClient

from ghostparty.server.common.model import OVER, GameResult, Seat, SeatResult, Table
from ghostparty.server.common.names import name_key
from ghostparty.server.http.quotas import RECORD_READS
from ghostparty.server.quickmatch import service as quickmatch
from ghostparty.server.quickmatch.matching import RELIABLE_AFTER, Waiting, propose
from ghostparty.server.stores import SqlStores
from ghostparty.server.tables.play import game_result
from ghostparty.server.tables.standings import record_result
from tests.fixtures.accounts import error, freeze_limits, make_client, register

from .test_rated import play_to_the_end, rated_table


def _seat_and_start(client: TestClient, csrf: str) -> tuple[str, str]:
    table_id = rated_table(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    token = str(joined.json()["token"])
    assert client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}).status_code == 200
    return table_id, token


def _leave(client: TestClient, table_id: str, *, back: bool = False) -> None:
    service = client.app.state.parts.service  # type: ignore[attr-defined]

    async def leave() -> None:
        await service.play.set_away(table_id, 0, away=True, back=back)

    client.portal.call(leave)  # type: ignore[attr-defined]


def _bots_finish(client: TestClient, table_id: str) -> None:
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    for _ in range(300):
        client.portal.call(service.idle)  # type: ignore[attr-defined]
        if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
            return
    raise AssertionError("the bots did not finish the game")


def test_a_game_left_to_a_bot_counts_against_the_player_and_one_played_out_does_not(client: TestClient) -> None:
    csrf = register(client, "ann")
    assert client.get("/api/players/ann").json()["reliability"] == {"games": 0, "finished": 0, "percent": None}

    finished, token = _seat_and_start(client, csrf)
    play_to_the_end(client, finished, {0: token})
    left, _ = _seat_and_start(client, csrf)
    _leave(client, left)
    _bots_finish(client, left)

    assert client.get("/api/players/ann").json()["reliability"] == {"games": 2, "finished": 1, "percent": 50}
    # a bot level's profile has no such line: a bot finishes every game
    assert "reliability" not in client.get("/api/players/greedy-bot").json()
    records = client.get("/api/records", params=[("players", "Ann"), ("players", "greedy-bot"), ("players", "nobody")])
    assert records.status_code == 200
    assert records.json() == {"players": {"Ann": {"games": 2, "finished": 1, "percent": 50}}, "bots": []}


def test_a_player_back_before_the_end_finished_the_game() -> None:
    """Away and back at the end: they came back (the bot finishes only the turn under way)."""
    seats = (
        Seat(0, "human", name="ann", player_id=1, away=True, back=True),
        Seat(1, "human", name="bob", player_id=2, away=True),
        Seat(2, "bot", bot="greedy"),
        Seat(3, "human", name="guest"),
    )
    table = Table("t", "hugo", 4, seats, seed=1, status=OVER, winners=(0,), updated=datetime(2026, 11, 26, tzinfo=UTC))
    result = game_result(table, [3, 9, 12, 4])
    assert result is not None
    assert [s.left for s in result.seats] == [False, True, False, False]


def test_records_refuse_bad_questions_and_floods(client: TestClient) -> None:
    freeze_limits(client)  # a slow, busy machine took 2 s
    assert error(client.get("/api/records")) == "bad_request"
    nine = [("players", f"p{i}") for i in range(9)]
    assert error(client.get("/api/records", params=nine)) == "bad_request"
    assert error(client.get("/api/records", params=[("players", "x" * 41)])) == "bad_request"
    most = RECORD_READS[0].count
    answers = [client.get("/api/records", params=[("players", "ann")]).status_code for _ in range(most + 3)]
    bad = 3  # the bad questions above counted too: a flood of them is refused alike
    assert answers == [200] * (most - bad) + [429] * (3 + bad)
    refused = client.get("/api/records", params=[("players", "ann")])
    assert refused.status_code == 429 and error(refused) == "rate_limited" and "retry-after" in refused.headers


def _record_games(db_url: str, name: str, games: int, left: int) -> None:
    """``games`` finished games of ``name`` against a bot, the first ``left`` left to it."""
    store = SqlStores.open(db_url)
    accounts = store.accounts
    player = accounts.player_by_key(name_key(name))
    assert player is not None
    when = datetime(2026, 11, 20, tzinfo=UTC)
    for game in range(games):
        seats = (Seat(0, "human", name=name, player_id=player.id), Seat(1, "bot", bot="greedy"))
        table = Table(f"{name[:6]}{game}", "hugo", 2, seats, seed=game, status=OVER, winners=(1,), updated=when)
        assert store.tables.create(table)
        result = GameResult("hugo", False, (SeatResult(0, player.id, 20, 2, False, left=game < left),), when)
        with store.database.engine.begin() as conn:
            record_result(conn, table.id, result)
    store.close()


def test_quick_match_weighs_how_often_its_players_finish(client: TestClient, db_url: str, monkeypatch: Any) -> None:
    """The queue's entries carry the share finished (from RELIABLE_AFTER games on)."""
    seen: list[list[Waiting]] = []

    def spy(queue: list[Waiting], now: datetime) -> list[Any]:
        seen.append(list(queue))
        return propose(queue, now)

    monkeypatch.setattr(quickmatch, "propose", spy)
    quitter = register(client, "quitter")
    _record_games(db_url, "quitter", RELIABLE_AFTER, 6)
    with make_client(db_url) as other:
        novice = register(other, "novice")
        _record_games(db_url, "novice", RELIABLE_AFTER - 1, 9)  # too few games to judge
        for who, csrf in ((client, quitter), (other, novice)):
            body = {"rules": "hugo", "players": 3, "bots_after": None}
            assert who.post("/api/match", json=body, headers={"X-CSRF-Token": csrf}).status_code == 201
    shares = {w.player_id: w.finishes for w in seen[-1]}
    assert sorted(shares.values(), key=str) == [0.4, None]
    assert not next(w for w in seen[-1] if w.finishes == 0.4).reliable
