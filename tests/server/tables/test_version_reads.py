"""Fresh reads of stored versions where other instances change tables too and the store
is in another process (live.py, ``_VersionReads``): the reads asked for while one is
being made are made next, together, so every answer is the store's as of after it was
asked; a failure fails the reads it carried, as ``unavailable``, and the next read is
made anew."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest

from ghostparty.server.common.errors import StoreUnavailable
from ghostparty.server.tables.live import Tables, _VersionReads


class _Store:
    """The two reads of a store in another process; each call waits for ``go``."""

    embedded = False

    def __init__(self, stored: dict[str, int]) -> None:
        self.stored = stored
        self.calls: list[list[str]] = []
        self.go = threading.Event()
        self.go.set()
        self.fail: Exception | None = None

    def version(self, table_id: str) -> int | None:
        return self.versions([table_id]).get(table_id)

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        self.calls.append(sorted(table_ids))
        assert self.go.wait(5)
        if self.fail is not None:
            raise self.fail
        return {t: self.stored[t] for t in table_ids if t in self.stored}


def test_reads_asked_together_are_one_read_and_each_gets_its_own_answer() -> None:
    async def scenario() -> None:
        store = _Store({"a": 3, "b": 7})
        reads = _VersionReads(store)  # type: ignore[arg-type]
        answers = await asyncio.gather(reads.read("a"), reads.read("b"), reads.read("a"), reads.read("nope"))
        assert answers == [3, 7, 3, None]
        assert store.calls == [["a", "b", "nope"]]

    asyncio.run(scenario())


def test_a_read_asked_while_another_is_made_waits_for_the_next_one() -> None:
    """A read in flight may have been answered before a change the asker saw: a read
    asked meanwhile is not given its answer, but one made after."""

    async def scenario() -> None:
        store = _Store({"a": 3})
        reads = _VersionReads(store)  # type: ignore[arg-type]
        store.go.clear()
        first = reads.read("a")
        while not store.calls:  # the first read is being made
            await asyncio.sleep(0.001)
        store.stored["a"] = 4  # a change lands while it is made
        second = reads.read("a")
        store.go.set()
        assert await first in (3, 4)
        assert await second == 4
        assert store.calls == [["a"], ["a"]]

    asyncio.run(scenario())


def test_a_failed_read_is_unavailable_for_those_it_carried_and_the_next_is_made_anew() -> None:
    async def scenario() -> None:
        store = _Store({"a": 3, "b": 7})
        tables = Tables(store, shared=True)  # type: ignore[arg-type]
        store.fail = ConnectionError("server closed the connection unexpectedly")
        results = await asyncio.gather(tables._stored_version("a"), tables._stored_version("b"), return_exceptions=True)
        assert all(isinstance(result, StoreUnavailable) for result in results), results
        assert tables.metrics.read_errors._value.get() == 2
        store.fail = None
        assert await tables._stored_version("b") == 7

    asyncio.run(scenario())


def test_an_embedded_store_is_read_at_once() -> None:
    async def scenario() -> None:
        store = _Store({"a": 3})
        store.embedded = True
        tables = Tables(store, shared=True)  # type: ignore[arg-type]
        assert tables._versions is None
        assert await tables._stored_version("a") == 3

    asyncio.run(scenario())


@pytest.mark.parametrize("cancelled", [0, 1])
def test_a_cancelled_asker_leaves_the_others_their_answers(cancelled: int) -> None:
    async def scenario() -> None:
        store = _Store({"a": 3, "b": 7})
        reads = _VersionReads(store)  # type: ignore[arg-type]
        store.go.clear()
        asks = [asyncio.ensure_future(reads.read(t)) for t in ("a", "b")]
        await asyncio.sleep(0.01)
        asks[cancelled].cancel()
        store.go.set()
        other = asks[1 - cancelled]
        assert await other == (7 if cancelled == 0 else 3)

    asyncio.run(scenario())
