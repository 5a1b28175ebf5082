"""One database's stores together: the tables' (:class:`~ghostparty.server.tables.store.SqlTables`)
and each domain's, all on its one engine and its one writers' turn."""

from __future__ import annotations

from ghostparty.server.accounts.store import SqlAccounts
from ghostparty.server.accounts.tokens_store import SqlTokens
from ghostparty.server.botapi.store import SqlBots
from ghostparty.server.community.friends_store import SqlFriends, forget_follows
from ghostparty.server.community.moderation_store import SqlModeration, forget_player
from ghostparty.server.mail.store import SqlEmail, forget_email
from ghostparty.server.quickmatch.store import SqlQueue
from ghostparty.server.reviews.store import SqlReviews
from ghostparty.server.tables.store import SqlTables
from ghostparty.server.tournaments.store import SqlTournaments


class SqlStore(SqlTables):
    """The tables' store on any SQLAlchemy database URL, and every domain's on its engine."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        super().__init__(url, echo=echo)
        self._accounts: SqlAccounts | None = None

    @property
    def queue(self) -> SqlQueue:
        """The quick-match queue, on this store's database."""
        return SqlQueue(self.engine, self._writing)

    @property
    def accounts(self) -> SqlAccounts:
        """Players, sessions, results and ratings, on this store's database."""
        if self._accounts is None:
            self._accounts = SqlAccounts(
                self.engine, self._writing, forget=(forget_player, forget_email, forget_follows)
            )
        return self._accounts

    @property
    def email(self) -> SqlEmail:
        """Addresses, link tokens, the outbox and reminders, on this store's database."""
        return SqlEmail(self.engine, self._writing)

    @property
    def moderation(self) -> SqlModeration:
        """Blocks, mutes, reports, moderators and the audit log, on this store's database."""
        return SqlModeration(self.engine, self._writing)

    @property
    def bots(self) -> SqlBots:
        """Bot accounts and their seats, on this store's database."""
        return SqlBots(self.engine, self._writing)

    @property
    def tournaments(self) -> SqlTournaments:
        """Tournaments, their entrants and games, on this store's database."""
        return SqlTournaments(self.engine, self._writing)

    @property
    def tokens(self) -> SqlTokens:
        """Personal API tokens, on this store's database."""
        return SqlTokens(self.engine, self._writing)

    @property
    def friends(self) -> SqlFriends:
        """Follows and invitations, on this store's database."""
        return SqlFriends(self.engine, self._writing)

    @property
    def reviews(self) -> SqlReviews:
        """The games' reviews, on this store's database."""
        return SqlReviews(self.engine, self._writing)
