"""The tables kept in memory (:class:`~ghostparty.server.tables.live.Tables`): when a copy is
used as it is and when the store is read again."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from ghostparty.server.common.model import ActionRow, Table
from ghostparty.server.stores import MemoryStore
from ghostparty.server.tables.live import Tables
from ghostparty.server.tables.service import ServiceError
from tests.server.tables.test_store_contract import table


class CountingStore(MemoryStore):
    """A memory store that counts full loads and version checks."""

    def __init__(self) -> None:
        super().__init__()
        self.loads = 0
        self.versions = 0

    def load(self, table_id: str) -> tuple[Table, list[ActionRow]] | None:
        self.loads += 1
        return super().load(table_id)

    def version(self, table_id: str) -> int | None:
        self.versions += 1
        return super().version(table_id)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


@pytest.mark.parametrize("shared", [False, True], ids=["alone", "shared"])
def test_a_current_copy_is_used_without_reading_the_actions(shared: bool) -> None:
    store = CountingStore()
    store.create(table())
    tables = Tables(store, shared=shared)

    async def scenario() -> None:
        first = await tables.get("abc")
        assert store.loads == 1
        again = await tables.get("abc", fresh=True)
        assert again is first
        # Alone, nobody else changes tables: memory is the truth. Shared, the store is
        # asked for the version only, not for the game's actions.
        assert (store.loads, store.versions) == (1, 1 if shared else 0)

    run(scenario())


def test_a_copy_another_instance_has_moved_on_from_is_read_again() -> None:
    store = CountingStore()
    store.create(table())
    tables = Tables(store, shared=True)

    async def scenario() -> None:
        first = await tables.get("abc")
        assert store.save(replace(table(), version=1), 0)  # by another instance
        second = await tables.get("abc", fresh=True)
        assert second is not first and second.table.version == 1
        assert store.loads == 2
        # Not fresh: the copy in memory serves (bots and timers of this instance's own).
        assert await tables.get("abc") is second and store.loads == 2

    run(scenario())


def test_a_table_gone_from_the_store_is_unknown_even_if_a_copy_is_kept() -> None:
    store = CountingStore()
    store.create(table())
    tables = Tables(store, shared=True)

    async def scenario() -> None:
        await tables.get("abc")
        store._tables.clear()
        with pytest.raises(ServiceError) as caught:
            await tables.get("abc", fresh=True)
        assert caught.value.code == "unknown_table"

    run(scenario())
