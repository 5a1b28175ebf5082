"""What a store can do beyond keeping tables: its capabilities, declared and checked.

Every store keeps tables, seats, actions and chat (:class:`~ghostparty.server.tables.store.Store`). Beyond that a
store may keep:

- :class:`KeepsAccounts`: players, sessions and ratings
  (:class:`~ghostparty.server.accounts.store.AccountStore`) and the quick-match queue
  (:class:`~ghostparty.server.quickmatch.store.QueueStore`). :class:`~ghostparty.server.stores.sql.SqlStore` and
  :class:`~ghostparty.server.stores.memory.MemoryStore` both do (``tests/server/accounts/test_accounts_contract.py``
  holds them to the same behaviour).
- :class:`KeepsPlayers`: everything the server's account features need together: the
  above and the email, moderation, Bot API, tournament, API token and friends stores.
  Only :class:`~ghostparty.server.stores.sql.SqlStore` does; a server turns accounts on for a store that is one
  (:mod:`ghostparty.server.wiring`), so a server without a database offers none (``no_accounts``).
- :class:`KeepsReviews`: the games' reviews (else the server keeps them in memory).
- :class:`SavesMany`: many games' changes in one transaction (:mod:`ghostparty.server.tables.live` batches them).
- :class:`ReachedByUrl`: a database other processes can open by its URL (the Redis
  review queue's workers do).

Each is a ``runtime_checkable`` :class:`~typing.Protocol`: ``isinstance(store, KeepsPlayers)``
asks a store at run time and tells mypy what it then has.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ghostparty.server.accounts.store import AccountStore
from ghostparty.server.accounts.tokens_store import SqlTokens
from ghostparty.server.botapi.store import SqlBots
from ghostparty.server.community.friends_store import SqlFriends
from ghostparty.server.community.moderation_store import SqlModeration
from ghostparty.server.mail.store import SqlEmail
from ghostparty.server.quickmatch.store import QueueStore
from ghostparty.server.reviews.store import ReviewStore
from ghostparty.server.tables.store import SavesMany
from ghostparty.server.tournaments.store import SqlTournaments


@runtime_checkable
class KeepsAccounts(Protocol):
    """A store that keeps players and the quick-match queue."""

    @property
    def accounts(self) -> AccountStore: ...

    @property
    def queue(self) -> QueueStore: ...


@runtime_checkable
class KeepsPlayers(KeepsAccounts, Protocol):
    """A store with everything the server's account features need: a server turns
    accounts on for such a store only."""

    @property
    def email(self) -> SqlEmail: ...

    @property
    def moderation(self) -> SqlModeration: ...

    @property
    def bots(self) -> SqlBots: ...

    @property
    def tournaments(self) -> SqlTournaments: ...

    @property
    def tokens(self) -> SqlTokens: ...

    @property
    def friends(self) -> SqlFriends: ...


@runtime_checkable
class KeepsReviews(Protocol):
    """A store that keeps the games' reviews."""

    @property
    def reviews(self) -> ReviewStore: ...


@runtime_checkable
class ReachedByUrl(Protocol):
    """A store on a database that other processes can open by its URL."""

    @property
    def url(self) -> str: ...


def capabilities(store: Any) -> frozenset[str]:
    """The names of the capabilities ``store`` has (for logs and tests)."""
    kinds: dict[str, type] = {
        "accounts": KeepsAccounts,
        "players": KeepsPlayers,
        "reviews": KeepsReviews,
        "save_many": SavesMany,
        "url": ReachedByUrl,
    }
    return frozenset(name for name, kind in kinds.items() if isinstance(store, kind))
