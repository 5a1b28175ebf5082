"""Catching up the clients whose update was lost (catchup.py): one look's grace, then
the state; nothing for a client that is current or whose update came meanwhile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from ghostparty.server.bus.catchup import CatchUp
from tests.fixtures.tables import run


@dataclass(eq=False)
class Client:
    version: int
    sent: int = 0
    #: Whether a state is on its way already (a hello or a resync): nothing more is sent.
    sending: bool = False

    def catch_up(self) -> bool:
        if self.sending:
            return False
        self.sent += 1
        return True


class Store:
    def __init__(self, **versions: int) -> None:
        self.versions = dict(versions)
        self.asked: list[list[str]] = []

    async def read(self, table_ids: Sequence[str]) -> dict[str, int]:
        self.asked.append(sorted(table_ids))
        return {i: self.versions[i] for i in table_ids if i in self.versions}


def test_a_client_behind_for_two_looks_is_sent_the_state_once() -> None:
    store = Store(a=5)
    counted: list[int] = []
    catch_up = CatchUp(store.read, caught_up=lambda: counted.append(1))
    behind, current = Client(4), Client(5)

    async def scenario() -> list[int]:
        with catch_up.watching("a", behind), catch_up.watching("a", current):
            sent = [await catch_up.look()]  # behind, but its update may be on its way
            sent.append(await catch_up.look())  # still behind what the store had: it is lost
            behind.version = 5  # the state told it
            sent.append(await catch_up.look())
            return sent

    assert run(scenario) == [0, 1, 0]
    assert (behind.sent, current.sent, counted) == (1, 0, [1])
    assert store.asked == [["a"]] * 3  # one read for every table watched


def test_a_client_whose_state_is_on_its_way_is_not_counted() -> None:
    """A hello or resync about to send the state anyway: nothing sent, nothing counted."""
    store = Store(a=5)
    counted: list[int] = []
    catch_up = CatchUp(store.read, caught_up=lambda: counted.append(1))
    client = Client(4, sending=True)

    async def scenario() -> list[int]:
        with catch_up.watching("a", client):
            return [await catch_up.look(), await catch_up.look()]

    assert run(scenario) == [0, 0]
    assert (client.sent, counted) == (0, [])


def test_an_update_that_comes_between_two_looks_needs_no_state() -> None:
    store = Store(a=5)
    catch_up = CatchUp(store.read)
    client = Client(4)

    async def scenario() -> list[int]:
        with catch_up.watching("a", client):
            sent = [await catch_up.look()]
            client.version = 5  # its update came
            store.versions["a"] = 7  # and the table moved on twice more: on their way too
            sent.append(await catch_up.look())
            client.version = 6  # one came; the other is lost
            sent.append(await catch_up.look())
            sent.append(await catch_up.look())  # the state on its way: a look's grace
            return sent

    assert run(scenario) == [0, 0, 1, 0]
    assert client.sent == 1


def test_a_client_sent_the_state_is_sent_it_again_only_if_still_behind() -> None:
    store = Store(a=5)
    catch_up = CatchUp(store.read)
    client = Client(4)

    async def scenario() -> list[int]:
        with catch_up.watching("a", client):
            sent = [await catch_up.look(), await catch_up.look()]  # sent the state
            sent.append(await catch_up.look())  # the state is on its way: a look's grace again
            sent.append(await catch_up.look())  # it never came (the store was away): again
            return sent

    assert run(scenario) == [0, 1, 0, 1]
    assert client.sent == 2


def test_unknown_tables_and_clients_gone_are_left_alone() -> None:
    store = Store(a=5)
    catch_up = CatchUp(store.read)
    gone, elsewhere = Client(1), Client(1)

    async def scenario() -> int:
        with catch_up.watching("nope", elsewhere):
            with catch_up.watching("a", gone):
                await catch_up.look()
            assert len(catch_up) == 1  # "a" has no watcher left
            await catch_up.look()
            return await catch_up.look()

    assert run(scenario) == 0
    assert (gone.sent, elsewhere.sent) == (0, 0)
    assert store.asked == [["a", "nope"], ["nope"], ["nope"]]


def test_a_client_told_nothing_yet_is_left_to_its_hello() -> None:
    """A socket is watched from its opening, and told its first state only after its
    hello, which a busy server may take seconds to answer: no unasked state before it."""
    store = Store(a=5)
    catch_up = CatchUp(store.read)
    opened = Client(-1)

    async def scenario() -> list[int]:
        with catch_up.watching("a", opened):
            sent = [await catch_up.look(), await catch_up.look(), await catch_up.look()]
            opened.version = 4  # its hello's state, then an update lost
            sent += [await catch_up.look(), await catch_up.look()]
            return sent

    assert run(scenario) == [0, 0, 0, 0, 1]
    assert opened.sent == 1


def test_nothing_watched_reads_nothing() -> None:
    store = Store()
    assert run(CatchUp(store.read).look) == 0
    assert store.asked == []


def test_a_failed_look_is_logged_and_the_next_one_made(caplog: pytest.LogCaptureFixture) -> None:
    reads = 0
    client = Client(1)

    async def flaky(table_ids: Sequence[str]) -> dict[str, int]:
        nonlocal reads
        reads += 1
        if reads == 1:
            raise ConnectionError("the database went away")
        return {"a": 2}

    catch_up = CatchUp(flaky, every=0.01)

    async def scenario() -> None:
        with catch_up.watching("a", client):
            task = asyncio.get_running_loop().create_task(catch_up.run())
            while client.sent == 0:
                await asyncio.sleep(0.01)
            task.cancel()

    with caplog.at_level(logging.WARNING, logger="ghostparty.server"):
        asyncio.run(asyncio.wait_for(scenario(), 5))
    assert client.sent == 1 and reads >= 3
    assert "checking the clients' versions failed: the database went away" in caplog.text
