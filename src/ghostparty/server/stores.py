"""The stores an instance opens, put together by the composition root (:mod:`ghostparty.server.wiring`).

No store here knows another domain: each domain makes its own SQL store on the one
:class:`~ghostparty.server.infra.database.Database` (``SqlAccounts(database)``,
``SqlTournaments(database)``, …), and :class:`SqlStores` only holds them side by side,
with the one piece of glue between domains: deleting an account removes, in the same
transaction, what moderation, email, friends, push and puzzles keep of it (``SqlAccounts``'s
``forget`` steps). :class:`MemoryStore` is the tables', accounts', quick-match queue's,
API tokens', friends', moderation's, bot accounts', tournaments', email's, push's and puzzles' memory
stores; it keeps no other domain's, so a server on it offers no accounts (``no_accounts``):
account features are on exactly where a SQL database is.
"""

from __future__ import annotations

from dataclasses import dataclass

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.accounts.store import SqlAccounts
from ghostparty.server.accounts.tokens_memory import MemoryTokens
from ghostparty.server.accounts.tokens_store import SqlTokens
from ghostparty.server.botapi.memory import MemoryBots
from ghostparty.server.botapi.store import SqlBots
from ghostparty.server.common.model import GameResult
from ghostparty.server.community.friends_memory import MemoryFriends
from ghostparty.server.community.friends_store import SqlFriends, forget_follows
from ghostparty.server.community.moderation_memory import MemoryModeration
from ghostparty.server.community.moderation_store import SqlModeration, forget_player
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import metadata
from ghostparty.server.mail.memory import MemoryEmail
from ghostparty.server.mail.store import SqlEmail, forget_email
from ghostparty.server.push.memory import MemoryPush
from ghostparty.server.push.store import SqlPush, forget_push
from ghostparty.server.puzzles.memory import MemoryPuzzles
from ghostparty.server.puzzles.store import SqlPuzzles, forget_puzzles
from ghostparty.server.quickmatch.memory import MemoryQueue
from ghostparty.server.quickmatch.store import SqlQueue
from ghostparty.server.reviews.store import SqlReviews
from ghostparty.server.tables.memory import MemoryTables
from ghostparty.server.tables.store import SqlTables
from ghostparty.server.tournaments.memory import MemoryTournaments
from ghostparty.server.tournaments.store import SqlTournaments

#: The whole schema: the shared tables and every domain's own (each declared in its
#: ``schema`` module, all imported above), on one MetaData.
SCHEMA = metadata


@dataclass(frozen=True)
class SqlStores:
    """One SQL database's stores, each made by its own domain's package on the database."""

    #: Tables, seats, actions and chat: the service's :class:`~ghostparty.server.tables.store.Store`.
    tables: SqlTables
    #: Players, sessions, results and ratings.
    accounts: SqlAccounts
    #: The quick-match queue.
    queue: SqlQueue
    #: Personal API tokens.
    tokens: SqlTokens
    #: Bot accounts and their seats.
    bots: SqlBots
    #: Follows and invitations.
    friends: SqlFriends
    #: Blocks, mutes, reports, moderators and the audit log.
    moderation: SqlModeration
    #: Addresses, link tokens, the outbox and reminders.
    email: SqlEmail
    #: Tournaments, their entrants and games.
    tournaments: SqlTournaments
    #: The games' reviews.
    reviews: SqlReviews
    #: Web Push subscriptions, choices and the server's key.
    push: SqlPush
    #: Puzzles, puzzle ratings, attempts and the daily puzzle.
    puzzles: SqlPuzzles

    @classmethod
    def open(cls, url: str) -> SqlStores:
        """The stores on the database at ``url`` (opened, and migrated to this version)."""
        return cls.on(SqlTables(url))

    @classmethod
    def on(cls, tables: SqlTables) -> SqlStores:
        """Every domain's store on the database of ``tables``."""
        database = tables.database
        return cls(
            tables=tables,
            accounts=SqlAccounts(
                database, forget=(forget_player, forget_email, forget_follows, forget_push, forget_puzzles)
            ),
            queue=SqlQueue(database),
            tokens=SqlTokens(database),
            bots=SqlBots(database),
            friends=SqlFriends(database),
            moderation=SqlModeration(database),
            email=SqlEmail(database),
            tournaments=SqlTournaments(database),
            reviews=SqlReviews(database),
            push=SqlPush(database),
            puzzles=SqlPuzzles(database),
        )

    @property
    def database(self) -> Database:
        """The database they share."""
        return self.tables.database

    def close(self) -> None:
        """Close the tables' store and, with it, the database."""
        self.tables.close()


class MemoryStore(MemoryTables):
    """Tables, accounts, the quick-match queue, API tokens, friends, moderation, bot
    accounts, tournaments, email and push in memory; a finished game is rated by :meth:`MemoryAccounts.record <ghostparty.server.accounts.memory.MemoryAccounts.record>`
    within its save (``tests/server/accounts/test_accounts_contract.py`` holds the accounts and the
    queue to the SQL stores' behaviour, ``tests/server/accounts/test_tokens_contract.py`` the tokens,
    ``tests/server/community/test_friends_contract.py`` the follows and invitations,
    ``tests/server/community/test_moderation_contract.py`` moderation,
    ``tests/server/botapi/test_bots_contract.py`` the bot accounts,
    ``tests/server/tournaments/test_tournaments_contract.py`` the tournaments,
    ``tests/server/mail/test_email_contract.py`` the email,
    ``tests/server/push/test_push_contract.py`` push,
    ``tests/server/puzzles/test_puzzles_contract.py`` puzzles)."""

    def __init__(self) -> None:
        super().__init__()
        #: Players, sessions, results and ratings, sharing this store's lock and tables.
        self.accounts = MemoryAccounts(self._lock, self._tables)
        #: The quick-match queue.
        self.queue = MemoryQueue()
        #: Personal API tokens, of these accounts' players.
        self.tokens = MemoryTokens(self.accounts)
        #: Follows and invitations, of these accounts' players at these tables.
        self.friends = MemoryFriends(self.accounts, self._lock, self._tables)
        #: Blocks, mutes, roles, sanctions, reports and the audit log, of these players and tables.
        self.moderation = MemoryModeration(self.accounts, self)
        #: Bot accounts and invitations, sharing this store's lock, tables and accounts.
        self.bots = MemoryBots(self._lock, self._tables, self.accounts)
        #: Tournaments, their entrants and games (at these tables, of these accounts).
        self.tournaments = MemoryTournaments(self._lock, self._tables, self.accounts)
        #: Addresses, link tokens, the outbox and reminders, of these accounts' players.
        self.email = MemoryEmail(self._lock, self._tables, self.accounts)
        #: Web Push subscriptions, choices and the server's key, of these accounts' players.
        self.push = MemoryPush(self._lock, self._tables, self.accounts)
        #: Puzzles (every player of a server on this store is a guest; the contract suite rates accounts).
        self.puzzles = MemoryPuzzles()

    def _rate(self, table_id: str, result: GameResult) -> None:
        self.accounts.record(table_id, result)
