"""A page's socket opening and saying hello where other instances change tables too
(``Tables.shared``): its tokens, its seats coming back and its state come from one read
of the store's version, not one each (every read a round trip to PostgreSQL)."""

from __future__ import annotations

from typing import Any

import orjson

from ghostparty.server.http.sockets import Connection
from tests.fixtures.tables import HUMAN, close, run, service


class _Socket:
    """A socket that keeps what it is sent."""

    client = None

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(orjson.loads(text))


def test_a_hello_reads_the_stored_version_once(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        svc.core.tables.shared = True  # as with Redis between instances
        try:
            table_id = str((await svc.create_table("hugo", [HUMAN, HUMAN], 0))["id"])
            ann, _ = await svc.join(table_id, 0, "Ann")
            bob, _ = await svc.join(table_id, 1, "Bob")
            await svc.start(table_id, 0, ann)
            await svc.play.set_away(table_id, 1, away=True)  # Bob's page closed a while ago
            reads = []
            version = svc.store.version

            def counted(read_id: str) -> int | None:
                reads.append(read_id)
                return version(read_id)

            svc.store.version = counted  # type: ignore[method-assign]
            socket = _Socket()
            connection = Connection(socket, svc, table_id, None)  # type: ignore[arg-type]
            connection.chat = False
            hello = {"type": "hello", "tokens": {"0": ann, "1": bob, "2": "x" * 20}, "odds": False, "chat": False}
            async with svc.pubsub.listen(table_id, connection.deliver):
                await svc.exists(table_id)  # (the socket's check that the table is there: its copy)
                await connection.handle(orjson.dumps(hello).decode())
                # One read for the tokens and the state, and one by the change that brings
                # Bob back (every change reads it); before, also one a token, one a seat, one
                # for the state: six
                assert reads == [table_id, table_id]
                state = next(m for m in socket.sent if m["type"] == "state")
                assert state["seats"] == [0, 1] and not state["table"]["seats"][1]["away"]
                assert [m["code"] for m in socket.sent if m["type"] == "error"] == ["bad_token"]  # seat 2's
                # Ann's page again: nobody is away, so nothing but the one read (before: three)
                reads.clear()
                again = Connection(_Socket(), svc, table_id, None)  # type: ignore[arg-type]
                await again.handle(orjson.dumps({**hello, "tokens": {"0": ann}}).decode())
                assert reads == [table_id]
            await svc.disconnected(table_id, connection.held)
            await svc.disconnected(table_id, again.held)
        finally:
            await close(svc)

    run(scenario)
