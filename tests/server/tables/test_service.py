"""The table service: lobby, turns, the die, bots, versions and restarts (no transport)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ghostparty.rules import GameRecord
from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.tables.service import ServiceError, TableService, clean_name
from tests.fixtures.tables import HUMAN, bot, close, decode, play_humans, run, service


def error_code(call: Any) -> str:
    with pytest.raises(ServiceError) as caught:
        run(call)
    return caught.value.code


async def open_table(svc: TableService, seats: list[Any] | None = None, first: int | None = 0) -> str:
    table = await svc.create_table("hugo", seats or [HUMAN, bot()], first)
    return str(table["id"])


# -- lobby ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "seats", "first", "code"),
    [
        ("chess", [HUMAN, HUMAN], None, "bad_request"),
        ("hugo", [HUMAN], None, "bad_request"),
        ("hugo", [HUMAN] * 9, None, "bad_request"),
        ("hugo", [HUMAN, bot("expectimax:depth=banana")], None, "bad_request"),
        ("hugo", [HUMAN, bot("nobody")], None, "bad_request"),
        ("hugo", [HUMAN, HUMAN], 2, "bad_seat"),
    ],
)
def test_creation_checks_what_it_is_given(
    sqlite_url: str, rules: str, seats: list[Any], first: int | None, code: str
) -> None:
    svc = service(sqlite_url)
    assert error_code(lambda: svc.create_table(rules, seats, first)) == code
    svc.store.close()


def test_join_leave_and_start(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        table_id = await open_table(svc, [HUMAN, HUMAN, bot()])
        token, view = await svc.join(table_id, 0, "  Ann ")
        assert view["seats"][0]["name"] == "Ann" and view["version"] == 1
        with pytest.raises(ServiceError, match="taken") as taken:
            await svc.join(table_id, 0, "Eve")
        assert taken.value.code == "seat_taken"
        with pytest.raises(ServiceError) as bot_seat:
            await svc.join(table_id, 2, "Eve")
        assert bot_seat.value.code == "seat_taken"
        with pytest.raises(ServiceError) as early:
            await svc.start(table_id, 0, token)
        assert early.value.code == "seats_empty"
        bob, _ = await svc.join(table_id, 1, "Bob")
        view = await svc.leave(table_id, 1, bob)
        assert view["seats"][1]["name"] is None
        bob, _ = await svc.join(table_id, 1, "Bob")
        with pytest.raises(ServiceError) as forged:
            await svc.start(table_id, 1, token)  # Ann's token names seat 1
        assert forged.value.code == "bad_token"
        state = await svc.start(table_id, 1, bob)
        assert state["table"]["status"] == "playing" and state["position"]["phase"] == "place"
        for call in (svc.join(table_id, 2, "Cy"), svc.leave(table_id, 0, token), svc.start(table_id, 0, token)):
            with pytest.raises(ServiceError) as late:
                await call
            assert late.value.code in {"not_open", "seat_taken"}
        await close(svc)

    run(scenario)


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 25, "<script>alert(1)</script>", "Tom & Jerry", 'a"b', "it's", "tab\there", "a\u202eb"]
)
def test_names_that_cannot_be_shown_as_they_are_are_refused(name: str) -> None:
    with pytest.raises(ServiceError) as caught:
        clean_name(name)
    assert caught.value.code == "bad_name"


def test_names_are_trimmed_and_may_be_any_script() -> None:
    assert clean_name("  Jürgen ") == "Jürgen"
    assert clean_name("幽霊") == "幽霊"


def test_a_random_first_player_is_drawn_at_the_start_from_the_table_seed(sqlite_url: str) -> None:
    async def scenario() -> set[int]:
        svc = service(sqlite_url, seed=5)
        firsts = set()
        for _ in range(12):
            table = await svc.create_table("hugo", [bot(), bot()], None)
            firsts.add((await svc.table(table["id"]))["table"]["first_player"])
        await close(svc)
        return firsts

    assert run(scenario) == {0, 1}


# -- play ----------------------------------------------------------------------------------


def test_a_table_of_bots_plays_to_the_end_and_its_record_replays(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        table = await svc.create_table("midnight-party", [bot("greedy"), bot("random"), bot("greedy")], None)
        await svc.idle()
        done = await svc.table(table["id"])
        assert done["table"]["status"] == "over"
        assert done["table"]["winners"] == done["position"]["winners"] != []
        record = GameRecord.from_dict(await svc.record(table["id"]))
        assert record.replay()[-1].winners == tuple(done["position"]["winners"])
        await close(svc)

    run(scenario)


def test_a_person_plays_a_whole_game_against_a_bot(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        table_id = await open_table(svc)
        token, _ = await svc.join(table_id, 0, "Ann")
        await svc.start(table_id, 0, token)
        state = await play_humans(svc, table_id, {0: token})
        assert state["table"]["status"] == "over"
        assert len(state["log"]) == len((await svc.record(table_id))["actions"])
        assert state["table"]["version"] == 2 + len(state["log"])  # join, start, then one per action
        await close(svc)

    run(scenario)


def test_refused_actions_change_nothing(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        table_id = await open_table(svc, [HUMAN, HUMAN])
        ann, _ = await svc.join(table_id, 0, "Ann")
        bob, _ = await svc.join(table_id, 1, "Bob")
        state = await svc.start(table_id, 0, ann)
        version = state["table"]["version"]
        attempts = [
            (1, bob, version, {"place": "G5"}, "not_your_turn"),
            (0, bob, version, {"place": "G5"}, "bad_token"),
            (0, "x" * 40, version, {"place": "G5"}, "bad_token"),
            (7, ann, version, {"place": "G5"}, "bad_seat"),
            (0, ann, version - 1, {"place": "G5"}, "stale_version"),
            (0, ann, version + 1, {"place": "G5"}, "stale_version"),
            (0, ann, version, {"place": "G40"}, "illegal_action"),
            (0, ann, version, {"place": "R:chapel"}, "illegal_action"),
            (0, ann, version, {"roll": True}, "illegal_action"),
            (0, ann, version, {"from": "G1", "to": "G2"}, "illegal_action"),
            (0, ann, version, {"dance": 1}, "illegal_action"),
            (0, ann, version, ["place", "G5"], "illegal_action"),
        ]
        for seat, token, at, action, code in attempts:
            with pytest.raises(ServiceError) as caught:
                await svc.act(table_id, seat, token, at, action)
            assert caught.value.code == code, (seat, action, caught.value.message)
        after = await svc.table(table_id)
        assert after["table"]["version"] == version
        assert after["position"] == state["position"]
        # Now legal moves pass, and the die is the server's.
        await svc.act(table_id, 0, ann, version, {"place": "G5"})
        await svc.act(table_id, 1, bob, version + 1, {"place": "G20"})
        await play_until_roll(svc, table_id, {0: ann, 1: bob})
        now = await svc.state(table_id, {0: ann, 1: bob})
        seat, at = now["table"]["to_move"], now["table"]["version"]
        assert now["legal"] == [{"roll": True}]
        token = {0: ann, 1: bob}[seat]
        with pytest.raises(ServiceError, match="server rolls") as face:
            await svc.act(table_id, seat, token, at, {"roll": 4})
        assert face.value.code == "illegal_action"
        await svc.act(table_id, seat, token, at, {"roll": True})
        assert (await svc.state(table_id, {}))["log"][-1]["action"]["roll"] in {1, 2, 4, 5, "hugo"}
        # A move the rules refuse as they apply it: named, with the legal ones, and nothing kept
        tokens = {0: ann, 1: bob}
        now = await svc.state(table_id, tokens)
        while not any("from" in a for a in now["legal"]):
            mover = now["table"]["to_move"]
            await svc.act(table_id, mover, tokens[mover], now["table"]["version"], now["legal"][0])
            now = await svc.state(table_id, tokens)
        seat, at = now["table"]["to_move"], now["table"]["version"]
        square = next(a for a in now["legal"] if "from" in a)["from"]
        with pytest.raises(ServiceError) as refused:
            await svc.act(table_id, seat, tokens[seat], at, {"from": square, "to": square})
        assert refused.value.code == "illegal_action"
        assert refused.value.message.startswith(f"{square}→{square} is not legal now; expected one of: ")
        assert f"{square}→" in refused.value.message
        after = await svc.state(table_id, tokens)
        assert (after["table"]["version"], after["position"]) == (at, now["position"])
        await svc.act(table_id, seat, tokens[seat], at, now["legal"][0])  # and the game goes on
        await close(svc)

    run(scenario)


async def play_until_roll(svc: TableService, table_id: str, tokens: dict[int, str]) -> None:
    while True:
        state = await svc.state(table_id, tokens)
        if state["position"]["phase"] == "roll":
            return
        seat = state["table"]["to_move"]
        await svc.act(table_id, seat, tokens[seat], state["table"]["version"], state["legal"][0])


def test_each_change_is_published_once_in_order(sqlite_url: str) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        pubsub = MemoryPubSub()
        svc = service(sqlite_url, pubsub=pubsub)
        table_id = await open_table(svc, [HUMAN, bot("greedy")])
        seen: list[dict[str, Any]] = []

        async def listen() -> None:
            async with pubsub.subscribe(table_id) as messages:
                ready.set()
                async for message in messages:
                    seen.append(decode(message))

        ready = asyncio.Event()
        listener = asyncio.create_task(listen())
        await ready.wait()
        token, _ = await svc.join(table_id, 0, "Ann")
        await svc.start(table_id, 0, token)
        await play_humans(svc, table_id, {0: token}, steps=30)
        await svc.idle()
        await asyncio.sleep(0)
        listener.cancel()
        state = await svc.state(table_id, {})
        await close(svc)
        return seen, state

    seen, state = run(scenario)
    versions = [m["table"]["version"] for m in seen]
    assert versions == list(range(1, len(seen) + 1))
    entries = [m["entry"] for m in seen if m["entry"] is not None]
    assert [e["index"] for e in entries] == list(range(len(entries)))
    rolls = [e for e in entries if "roll" in e["action"]]
    assert rolls and all(
        e["events"][0] == {"type": "rolled", "seat": e["seat"], "face": e["action"]["roll"]} for e in rolls
    )
    # A page loaded later gets the same log, events included (it tells them in its language).
    assert state["log"] == entries
    # Legal actions travel with the update only for the seat to move.
    for message in seen:
        if message["table"]["to_move"] == 0 and message["position"]["phase"] in {"place", "move"}:
            assert message["legal"]


def test_two_instances_on_one_store_never_both_apply(sqlite_url: str) -> None:
    async def scenario() -> None:
        first = service(sqlite_url, seed=1)
        second = service(sqlite_url, seed=2)
        table_id = await open_table(first, [HUMAN, HUMAN])
        ann, _ = await first.join(table_id, 0, "Ann")
        await second.join(table_id, 1, "Bob")  # second knew nothing of Ann: it loads
        state = await second.start(table_id, 0, ann)
        version = state["table"]["version"]
        # The first instance's cache is stale (it never saw Bob or the start): it refreshes.
        results = await asyncio.gather(
            first.act(table_id, 0, ann, version, {"place": "G5"}),
            second.act(table_id, 0, ann, version, {"place": "G9"}),
            return_exceptions=True,
        )
        errors = [r for r in results if isinstance(r, ServiceError)]
        assert len(errors) == 1 and errors[0].code == "stale_version"
        loaded = first.store.load(table_id)
        assert loaded is not None and len(loaded[1]) == 1
        await close(first)
        await close(second)

    run(scenario)


def test_a_restart_loses_nothing_and_bots_play_on(sqlite_url: str) -> None:
    async def scenario() -> None:
        before = service(sqlite_url)
        table_id = await open_table(before, [HUMAN, bot("greedy"), bot("random")])
        token, _ = await before.join(table_id, 0, "Ann")
        await before.start(table_id, 0, token)
        state = await play_humans(before, table_id, {0: token}, steps=12)
        await before.idle()
        state = await before.state(table_id, {0: token})
        # Stop while a bot is to move: cancel its pending turn as a crash would.
        before.bot_delay = 60.0
        while state["table"]["to_move"] == 0:
            await before.act(table_id, 0, token, state["table"]["version"], state["legal"][0])
            state = await before.state(table_id, {0: token})
        mid = state
        assert mid["table"]["seats"][mid["table"]["to_move"]]["kind"] == "bot"
        await close(before)

        after = service(sqlite_url, seed=99)
        restored = await after.state(table_id, {0: token})
        assert restored == {**mid, "table": restored["table"]}
        assert restored["table"]["version"] == mid["table"]["version"]
        assert await after.resume() == 1
        await after.idle()
        moved_on = await after.state(table_id, {0: token})
        assert moved_on["table"]["version"] > mid["table"]["version"]
        assert moved_on["table"]["to_move"] == 0 or moved_on["table"]["status"] == "over"
        final = await play_humans(after, table_id, {0: token})
        assert final["table"]["status"] == "over"
        await close(after)

    run(scenario)


def test_the_die_depends_only_on_the_table_and_the_action_index(sqlite_url: str, tmp_path: Any) -> None:
    async def game(url: str, service_seed: int) -> list[Any]:
        svc = service(url, seed=service_seed)
        table = await svc.create_table("hugo", [bot("greedy"), bot("greedy")], 0)
        await svc.idle()
        actions = (await svc.record(table["id"]))["actions"]
        await close(svc)
        return list(actions)

    # The same table seed (drawn from the service's seeded source) gives the same game …
    assert run(lambda: game(sqlite_url, 3)) == run(lambda: game(f"sqlite:///{tmp_path}/other.db", 3))
    # … and another gives another.
    assert run(lambda: game(sqlite_url, 3)) != run(lambda: game(f"sqlite:///{tmp_path}/third.db", 4))


def test_a_table_id_already_taken_is_drawn_again(sqlite_url: str) -> None:
    async def scenario() -> None:
        first, second = service(sqlite_url, seed=8), service(sqlite_url, seed=8)
        a = await first.create_table("hugo", [HUMAN, HUMAN], None)
        b = await second.create_table("hugo", [HUMAN, HUMAN], None)  # draws a's id first
        assert a["id"] != b["id"]
        await close(first)
        await close(second)

    run(scenario)


@pytest.mark.parametrize("embedded", [True, False])
def test_an_embedded_store_is_called_on_the_event_loop_any_other_in_a_thread(
    sqlite_url: str, embedded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's calls are quick local work: a hop to a worker thread would only wait for
    the GIL behind the event loop (store.py, ``Store.embedded``)."""
    threaded: list[str] = []
    hop = asyncio.to_thread

    async def to_thread(call: Any, /, *args: Any, **kwargs: Any) -> Any:
        threaded.append(getattr(call, "__name__", repr(call)))
        return await hop(call, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", to_thread)

    async def scenario() -> None:
        svc = service(sqlite_url)
        svc.store.embedded = embedded  # type: ignore[attr-defined]
        table_id = await open_table(svc)
        token, _ = await svc.join(table_id, 0, "Ann")
        await svc.start(table_id, 0, token)
        await play_humans(svc, table_id, {0: token}, steps=6)
        await close(svc)

    run(scenario)
    store_calls = [name for name in threaded if name in {"create", "load", "save", "save_many", "list_tables"}]
    assert (store_calls == []) is embedded
    if not embedded:
        assert {"create", "save_many"} <= set(store_calls)


def test_the_odds_are_computed_once_per_position(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Presence updates and page loads resend the odds of the same position: not recomputed."""
    from ghostparty.server.wire import protocol as protocol_module

    protocol_module._odds.cache_clear()
    calls: list[object] = []
    real = protocol_module.capture_odds

    def counting(position: Any, seat: Any = None) -> Any:
        calls.append(position)
        return real(position, seat)

    monkeypatch.setattr(protocol_module, "capture_odds", counting)

    async def scenario() -> None:
        svc = service(sqlite_url)
        table_id = await open_table(svc, [HUMAN, HUMAN])
        tokens = {seat: (await svc.join(table_id, seat, name))[0] for seat, name in ((0, "Ann"), (1, "Bob"))}
        await svc.start(table_id, 0, tokens[0])
        first = await svc.state(table_id, tokens)
        assert len(calls) == 1
        await svc.connected(table_id, [0])
        await svc.disconnected(table_id, [0])
        again = await svc.state(table_id, {0: tokens[0]})
        assert len(calls) == 1 and again["odds"] == first["odds"]
        assert (await svc.state(table_id, {}))["odds"] == []  # only for whoever holds the seat to move
        await svc.act(table_id, 0, tokens[0], first["table"]["version"], first["legal"][0])
        assert len(calls) == 1  # nobody who shows odds has been sent the update yet
        await svc.state(table_id, tokens)
        assert len(calls) == 2  # a new position: new odds
        await close(svc)

    run(scenario)


def test_a_table_id_never_begins_with_a_dash(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command line would read ``-Yab…`` as an option (``ghostparty admin close ID``)."""
    import secrets

    from ghostparty.server.tables.store import SqlTables

    drawn = iter(["-Yabcdef", "-Zabcdef", "Qabcdefg"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes: next(drawn) if nbytes == 6 else "t" * 24)
    svc = TableService(SqlTables(db_url), MemoryPubSub(), bot_delay=0.0, rng=None)

    async def scenario() -> str:
        try:
            return await open_table(svc)
        finally:
            await close(svc)

    assert run(scenario) == "Qabcdefg"
