"""Tournaments over HTTP and the WebSocket: creating, joining, leaving, cancelling, the
state, results and trophies, and the ways people try to abuse them (limits, cross-site
requests, guests in rated events, other people's tournaments, impossible settings)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.fixtures.accounts import error, freeze_limits, make_client, register


def soon() -> str:
    """Ten minutes from now (when the test runs, not when the module was collected)."""
    return (datetime.now(UTC) + timedelta(minutes=10)).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def arena(**more: Any) -> dict[str, Any]:
    return {
        "kind": "arena",
        "rules": "hugo",
        "table_size": 2,
        "starts": soon(),
        "minutes": 30,
        "turn_seconds": 30,
        **more,
    }


def create(client: TestClient, csrf: str, **more: Any) -> dict[str, Any]:
    response = client.post("/api/tournaments", json=arena(**more), headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def test_create_list_join_leave_and_the_state(client: TestClient) -> None:
    refused = client.post("/api/tournaments", json=arena())
    assert refused.status_code == 403 and error(refused) == "registered_only"
    csrf = register(client, "ann")
    made = create(client, csrf)
    assert made["status"] == "scheduled" and made["creator"] == "ann" and made["ends"] is not None
    listed = client.get("/api/tournaments").json()
    assert [t["id"] for t in listed["upcoming"]] == [made["id"]] and listed["running"] == listed["finished"] == []
    with make_client_from(client) as guest:
        joined = guest.post(f"/api/tournaments/{made['id']}/join", json={"name": "Gus"})
        assert joined.status_code == 201, joined.text
        entry = joined.json()["entry"]
        assert entry and joined.json()["entrant"].startswith("g")
        me = guest.post(f"/api/tournaments/{made['id']}/me", json={"entry": entry}).json()
        assert me["entrant"] == joined.json()["entrant"] and me["table"] is None
        nobody = guest.post(f"/api/tournaments/{made['id']}/me", json={"entry": "not-the-secret"}).json()
        assert nobody["entrant"] is None
        wrong = guest.post(f"/api/tournaments/{made['id']}/leave", json={"entry": "not-the-secret"})
        assert wrong.status_code == 403 and error(wrong) == "not_entered"
        assert guest.post(f"/api/tournaments/{made['id']}/leave", json={"entry": entry}).json() == {"left": True}
    mine = client.post(f"/api/tournaments/{made['id']}/join", json={}, headers={"X-CSRF-Token": csrf})
    assert mine.status_code == 201 and mine.json()["entry"] is None
    twice = client.post(f"/api/tournaments/{made['id']}/join", json={}, headers={"X-CSRF-Token": csrf})
    assert twice.status_code == 400 and "already" in twice.json()["error"]["message"]
    state = client.get(f"/api/tournaments/{made['id']}").json()
    assert state["entrants"] == 2 and {s["name"] for s in state["standings"]} == {"Gus", "ann"}
    gus = next(s for s in state["standings"] if s["name"] == "Gus")
    assert gus["active"] is False
    csv = client.get(f"/api/tournaments/{made['id']}/results.csv")
    assert csv.status_code == 200 and csv.text.splitlines()[0].startswith("rank,name,points")
    assert client.get(f"/api/tournaments/{made['id']}/results.json").json()["tournament"]["id"] == made["id"]
    assert client.get(f"/api/tournaments/{made['id']}/results.xml").status_code == 404
    assert error(client.get("/api/tournaments/nope")) == "unknown_tournament"


def make_client_from(client: TestClient) -> TestClient:
    """A second browser on the same server (its own cookies)."""
    other = TestClient(client.app)
    return other


def test_impossible_settings_get_a_clear_400(client: TestClient) -> None:
    csrf = register(client, "ann")
    cases = [
        ({"table_size": 5}, "table_size"),
        ({"minutes": None}, "minutes"),
        ({"rounds": 3}, "rounds"),
        ({"kind": "swiss", "minutes": None}, "rounds"),
        ({"kind": "swiss", "minutes": None, "rounds": 3, "bots": True}, "bots"),
        ({"turn_seconds": 86400}, "real time"),
        ({"turn_seconds": 2}, "turn_seconds"),
        ({"starts": "2020-01-01T00:00:00Z"}, "starts"),
        ({"starts": "tomorrow"}, "starts"),
        ({"starts": "2030-01-01T00:00:00"}, "time zone"),
        ({"minutes": 5, "turn_seconds": 120}, "no time"),
    ]
    for change, words in cases:
        response = client.post("/api/tournaments", json=arena(**change), headers={"X-CSRF-Token": csrf})
        assert response.status_code == 400, (change, response.text)
        assert error(response) == "bad_request" and words in response.json()["error"]["message"], response.text


def test_rated_needs_an_account_and_only_the_creator_cancels(client: TestClient) -> None:
    csrf = register(client, "ann")
    made = create(client, csrf, rated=True)
    with make_client_from(client) as guest:
        refused = guest.post(f"/api/tournaments/{made['id']}/join", json={"name": "Gus"})
        assert refused.status_code == 403 and error(refused) == "registered_only"
        bob_csrf = register(guest, "bob")
        assert (
            guest.post(f"/api/tournaments/{made['id']}/join", json={}, headers={"X-CSRF-Token": bob_csrf}).status_code
            == 201
        )
        not_his = guest.post(
            f"/api/tournaments/{made['id']}/cancel", json={"reason": "mine now"}, headers={"X-CSRF-Token": bob_csrf}
        )
        assert not_his.status_code == 403 and error(not_his) == "not_creator"
    short = client.post(f"/api/tournaments/{made['id']}/cancel", json={"reason": "x"}, headers={"X-CSRF-Token": csrf})
    assert short.status_code == 400
    done = client.post(
        f"/api/tournaments/{made['id']}/cancel", json={"reason": "the hall is closed"}, headers={"X-CSRF-Token": csrf}
    )
    assert done.status_code == 200
    state = client.get(f"/api/tournaments/{made['id']}").json()["tournament"]
    assert state["status"] == "cancelled" and state["reason"] == "the hall is closed"
    again = client.post(
        f"/api/tournaments/{made['id']}/cancel", json={"reason": "once more"}, headers={"X-CSRF-Token": csrf}
    )
    assert again.status_code == 400 and error(again) == "not_open"
    late = client.post(f"/api/tournaments/{made['id']}/join", json={}, headers={"X-CSRF-Token": csrf})
    assert late.status_code == 400 and error(late) == "not_open"


def test_cross_site_requests_and_missing_csrf_are_refused(client: TestClient) -> None:
    csrf = register(client, "ann")
    made = create(client, csrf)
    for path in ("/api/tournaments", f"/api/tournaments/{made['id']}/join", f"/api/tournaments/{made['id']}/cancel"):
        evil = client.post(
            path, json={"reason": "hijacked"}, headers={"Origin": "http://evil.example", "X-CSRF-Token": csrf}
        )
        assert evil.status_code == 403 and error(evil) == "cross_site", path
    no_csrf = client.post(f"/api/tournaments/{made['id']}/cancel", json={"reason": "hijacked"})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
    assert client.get(f"/api/tournaments/{made['id']}").json()["tournament"]["status"] == "scheduled"


def test_creating_and_joining_are_limited(client: TestClient) -> None:
    freeze_limits(client)
    csrf = register(client, "ann")
    made = [create(client, csrf) for _ in range(3)]
    fourth = client.post("/api/tournaments", json=arena(), headers={"X-CSRF-Token": csrf})
    assert fourth.status_code == 429 and error(fourth) == "rate_limited" and "Retry-After" in fourth.headers
    codes = []
    with make_client_from(client) as guest:
        for i in range(25):
            codes.append(guest.post(f"/api/tournaments/{made[0]['id']}/join", json={"name": f"Guest {i}"}).status_code)
    assert codes[:20] == [201] * 20 and codes[20:] == [429] * 5
    reads = [client.get("/api/tournaments").status_code for _ in range(250)]
    assert reads.count(429) >= 1


def test_reads_from_one_address_are_limited_more_loosely_than_an_accounts(client: TestClient) -> None:
    """Guests sharing an address (a school watching an arena) may read past one account's
    240 a minute, up to the address's 1200; an account stops at its own 240 there too."""
    freeze_limits(client)  # 1,460 requests: a busy machine's slowness would refill the address's bucket
    csrf = register(client, "ann")
    made = create(client, csrf)
    with make_client_from(client) as guest:
        codes = [guest.get(f"/api/tournaments/{made['id']}").status_code for _ in range(900)]
        assert codes == [200] * 900
        answers = [client.get("/api/tournaments") for _ in range(260)]
        assert [a.status_code for a in answers[:235]] == [200] * 235
        refused = next(a for a in answers if a.status_code == 429)
        assert error(refused) == "rate_limited" and "Retry-After" in refused.headers
        more = [guest.post(f"/api/tournaments/{made['id']}/me", json={}) for _ in range(300)]
        first = next((a for a in more if a.status_code == 429), None)
        assert first is not None, "an address's reads are not limited"
        assert "from this address" in first.json()["error"]["message"]


def test_the_socket_sends_the_state_and_every_change(client: TestClient) -> None:
    csrf = register(client, "ann")
    made = create(client, csrf)
    with client.websocket_connect(f"/ws/tournaments/{made['id']}") as socket:
        first = socket.receive_json()
        assert first["type"] == "tournament" and first["entrants"] == 0
        client.post(f"/api/tournaments/{made['id']}/join", json={}, headers={"X-CSRF-Token": csrf})
        second = socket.receive_json()
        assert second["entrants"] == 1 and second["standings"][0]["name"] == "ann"
    with client.websocket_connect("/ws/tournaments/nope") as socket:
        assert socket.receive_json()["code"] == "unknown_tournament"
    from starlette.testclient import WebSocketDenialResponse

    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect(f"/ws/tournaments/{made['id']}", headers=headers),
        ):
            pass
        assert denied.value.status_code == 403 and denied.value.json()["error"]["code"] == "cross_site"


def test_a_state_that_cannot_be_read_closes_the_socket_for_a_fresh_start(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a socket that stays open and silent: the page reconnects and reads the state anew."""
    from starlette.websockets import WebSocketDisconnect

    from ghostparty.server.common.errors import ErrorCode, ServiceError
    from ghostparty.server.http.routes import tournaments

    async def failing(*_: object) -> Any:
        raise ServiceError(ErrorCode.SERVER_BUSY, "the database is busy")

    csrf = register(client, "ann")
    made = create(client, csrf)
    with client.websocket_connect(f"/ws/tournaments/{made['id']}") as socket:
        assert socket.receive_json()["entrants"] == 0
        with monkeypatch.context() as patched:
            patched.setattr(tournaments, "_view", failing)
            client.post(f"/api/tournaments/{made['id']}/join", json={}, headers={"X-CSRF-Token": csrf})
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert closed.value.code == 1011
    with client.websocket_connect(f"/ws/tournaments/{made['id']}") as socket:
        assert socket.receive_json()["entrants"] == 1


def test_sockets_are_limited_per_address(db_url: str) -> None:
    with make_client(db_url, sockets_per_address=2) as client:
        csrf = register(client, "ann")
        made = create(client, csrf)
        path = f"/ws/tournaments/{made['id']}"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            assert one.receive_json()["type"] == two.receive_json()["type"] == "tournament"
            with client.websocket_connect(path) as three:
                assert three.receive_json()["code"] == "too_many_connections"


@pytest.mark.parametrize("rated", [False, True])
def test_a_finished_arena_gives_trophies_and_a_replayable_game(db_url: str, rated: bool) -> None:
    from ghostparty.server.tournaments.service import Spec
    from tests.fixtures.tables import play_humans

    with make_client(db_url) as client:
        tournaments = client.app.state.parts.accounts.tournaments  # type: ignore[attr-defined]
        runner = client.app.state.parts.accounts.tournament_runner  # type: ignore[attr-defined]
        service = client.app.state.parts.service  # type: ignore[attr-defined]
        clock = {"now": datetime.now(UTC).replace(microsecond=0)}
        tournaments.clock = lambda: clock["now"]
        players = []
        for name in ("ann", "bob", "cyd"):
            with make_client_from(client) as browser:
                csrf = register(browser, name)
                players.append((browser.cookies, csrf, name))
        row = client.portal.call(
            tournaments.create,
            Spec("arena", "hugo", 2, clock["now"] + timedelta(minutes=1), rated=rated, minutes=5, turn_seconds=30),
            None,
        )  # type: ignore[attr-defined]
        ids = {}
        for cookies, csrf, name in players:
            browser = TestClient(client.app, cookies=cookies)
            ids[name] = browser.post(f"/api/tournaments/{row.id}/join", json={}, headers={"X-CSRF-Token": csrf}).json()
        clock["now"] += timedelta(minutes=1)

        async def play_all() -> None:
            for game in await asyncio.to_thread(tournaments.store.games, row.id):
                if (await service.table(game.table_id))["table"]["status"] == "playing":
                    await play_humans(service, game.table_id, {game.seats.index(e): t for e, t in game.tokens.items()})

        for _ in range(12):
            client.portal.call(runner.step)  # type: ignore[attr-defined]
            client.portal.call(play_all)  # type: ignore[attr-defined]
            clock["now"] += timedelta(seconds=30)
        client.portal.call(runner.step)  # type: ignore[attr-defined]
        client.portal.call(play_all)  # type: ignore[attr-defined]
        client.portal.call(runner.step)  # type: ignore[attr-defined]
        state = client.get(f"/api/tournaments/{row.id}").json()
        assert state["tournament"]["status"] == "finished"
        assert [p["name"] for p in state["podium"]] == [s["name"] for s in state["standings"][:3]]
        game = state["games"][0]
        table = client.get(f"/api/tables/{game['table']}").json()["table"]
        assert game["finished"] and table["status"] == "over" and table["rated"] is rated
        hugo = client.get(f"/api/players/{game['seats'][0]}").json()["ratings"]["hugo"]
        assert hugo["rated_games"] == (hugo["games"] if rated else 0) and hugo["games"] >= 2
        winner = state["podium"][0]["name"]
        trophies = client.get(f"/api/players/{winner}/trophies").json()["trophies"]
        assert trophies == [
            {
                "tournament": row.id,
                "kind": "arena",
                "rules": "hugo",
                "starts": state["tournament"]["starts"],
                "place": 1,
            }
        ]


def _sam_away_at_the_end(client: TestClient) -> tuple[Any, dict[str, tuple[str, str]], Any, dict[str, Any]]:
    """An arena of two guests, Sam and Bob, on a test clock; their first game played by Bob
    while Sam is away (a bot plays Sam's seat) and recorded. The tournament's row, the
    guests' (entrant, entry), that game, and the clock."""
    from ghostparty.server.tournaments.service import Spec
    from tests.fixtures.tables import play_humans

    tournaments = client.app.state.parts.accounts.tournaments  # type: ignore[attr-defined]
    runner = client.app.state.parts.accounts.tournament_runner  # type: ignore[attr-defined]
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    clock = {"now": datetime.now(UTC).replace(microsecond=0)}
    tournaments.clock = lambda: clock["now"]
    row = client.portal.call(
        tournaments.create,
        Spec("arena", "hugo", 2, clock["now"] + timedelta(minutes=1), minutes=30, turn_seconds=30),
        None,
    )  # type: ignore[attr-defined]
    entries = {}
    for name in ("Sam", "Bob"):  # each from a browser of their own (not entered as a block: no second start)
        joined = make_client_from(client).post(f"/api/tournaments/{row.id}/join", json={"name": name}).json()
        entries[name] = (joined["entrant"], joined["entry"])
    clock["now"] += timedelta(minutes=1)
    client.portal.call(runner.step)  # type: ignore[attr-defined]
    (game,) = client.portal.call(asyncio.to_thread, tournaments.store.games, row.id)  # type: ignore[attr-defined]
    sam_seat = game.seats.index(entries["Sam"][0])
    client.portal.call(lambda: service.play.set_away(game.table_id, sam_seat, away=True))  # type: ignore[attr-defined]
    bob = {1 - sam_seat: game.tokens[entries["Bob"][0]]}
    client.portal.call(play_humans, service, game.table_id, bob)  # type: ignore[attr-defined]
    client.portal.call(runner.step)  # type: ignore[attr-defined]
    return row, entries, game, clock


def test_a_player_away_at_a_games_end_is_told_and_comes_back_as_the_same_entrant(db_url: str) -> None:
    """An arena stops pairing a person away at their game's end (a bot finished it): their
    ``me`` names that game's table, and one join with their entry brings back the same
    entrant (one "Sam" in the standings), paired again at the next pass; nobody else may
    enter as Sam."""
    with make_client(db_url) as client:
        row, entries, game, clock = _sam_away_at_the_end(client)
        base = f"/api/tournaments/{row.id}"
        me = client.post(f"{base}/me", json={"entry": entries["Sam"][1]}).json()
        assert me["entrant"] == entries["Sam"][0] and me["active"] is False and me["away_in"] == game.table_id
        bobs = client.post(f"{base}/me", json={"entry": entries["Bob"][1]}).json()
        assert bobs["active"] is True and bobs["away_in"] is None

        stranger = make_client_from(client)  # someone else can't enter as a second Sam
        for name in ("Sam", "sam", "S a m"):
            taken = stranger.post(f"{base}/join", json={"name": name})
            assert taken.status_code == 409 and error(taken) == "name_taken", taken.text
            assert "'Sam' is already playing in this tournament" in taken.json()["error"]["message"]
        back = client.post(f"{base}/join", json={"name": "Sam", "entry": entries["Sam"][1]})
        assert back.status_code == 201, back.text
        assert (back.json()["entrant"], back.json()["entry"]) == entries["Sam"]
        state = client.get(base).json()
        assert [s["name"] for s in state["standings"]].count("Sam") == 1 and state["entrants"] == 2
        sam = next(s for s in state["standings"] if s["name"] == "Sam")
        assert sam["active"] is True and sam["games"] == 1 and sam["points"] == 0
        me = client.post(f"{base}/me", json={"entry": entries["Sam"][1]}).json()
        assert me["active"] is True and me["away_in"] is None
        clock["now"] += timedelta(seconds=30)
        runner = client.app.state.parts.accounts.tournament_runner  # type: ignore[attr-defined]
        client.portal.call(runner.step)  # type: ignore[attr-defined]
        store = client.app.state.parts.accounts.tournaments.store  # type: ignore[attr-defined]
        games = client.portal.call(asyncio.to_thread, store.games, row.id)  # type: ignore[attr-defined]
        assert len(games) == 2 and entries["Sam"][0] in games[1].seats  # paired again


def test_a_tables_tournament_game_names_who_forfeited_as_the_standings_count_it(db_url: str) -> None:
    """What a tournament game's table page shows at its end: the tournament, and the game
    as the standings count it — Sam, away at the end, forfeited (0 points) even if the
    bot playing Sam's seat came first; any other table has no tournament."""
    with make_client(db_url) as client:
        row, entries, game, _ = _sam_away_at_the_end(client)
        sam_seat = game.seats.index(entries["Sam"][0])
        answer = client.get(f"/api/tables/{game.table_id}/tournament")
        assert answer.status_code == 200, answer.text
        found = answer.json()
        assert found["tournament"]["id"] == row.id and found["tournament"]["kind"] == "arena"
        counted = found["game"]
        assert counted["table"] == game.table_id and counted["finished"] is True
        assert counted["forfeits"] == [sam_seat] and counted["points"][sam_seat] == 0
        standings = {s["name"]: s for s in client.get(f"/api/tournaments/{row.id}").json()["standings"]}
        assert [counted["points"][game.seats.index(entries[n][0])] for n in ("Sam", "Bob")] == [
            standings["Sam"]["points"],
            standings["Bob"]["points"],
        ]
        assert client.get(f"/api/tournaments/{row.id}").json()["games"][0]["forfeits"] == [sam_seat]
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        made = client.post("/api/tables", json={"rules": "hugo", "seats": seats})
        assert made.status_code == 201, made.text
        other = client.get(f"/api/tables/{made.json()['table']['id']}/tournament").json()
        assert other == {"tournament": None, "game": None}
