"""The memory store: the tables' (:class:`~ghostparty.server.tables.memory.MemoryTables`),
accounts and the quick-match queue in this process's memory, behind one lock.

It keeps accounts and the queue (:class:`~ghostparty.server.stores.capabilities.KeepsAccounts`,
held to :class:`~ghostparty.server.stores.sql.SqlStore`'s behaviour by
``tests/server/accounts/test_accounts_contract.py``), but not the other stores a server's account
features need (:class:`~ghostparty.server.stores.capabilities.KeepsPlayers`): a server on a
memory store offers no accounts.
"""

from __future__ import annotations

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.common.model import GameResult
from ghostparty.server.quickmatch.memory import MemoryQueue
from ghostparty.server.tables.memory import MemoryTables


class MemoryStore(MemoryTables):
    """Tables, accounts and the quick-match queue in memory; a finished game is rated by
    :meth:`MemoryAccounts.record <ghostparty.server.accounts.memory.MemoryAccounts.record>`
    within its save."""

    def __init__(self) -> None:
        super().__init__()
        #: Players, sessions, results and ratings, sharing this store's lock and tables.
        self.accounts = MemoryAccounts(self._lock, self._tables)
        #: The quick-match queue.
        self.queue = MemoryQueue()

    def _rate(self, table_id: str, result: GameResult) -> None:
        self.accounts.record(table_id, result)
