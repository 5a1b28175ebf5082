"""What a store can do beyond keeping tables: its capabilities, declared and checked.

Every store keeps tables, seats, actions and chat (:class:`~ghostparty.server.tables.store.Store`). Beyond that a
store may keep:

- :class:`KeepsAccounts`: players, sessions and ratings (:class:`AccountStore`) and the
  quick-match queue (:class:`QueueStore`). :class:`~ghostparty.server.store.SqlStore` and
  :class:`~.memory_store.MemoryStore` both do (``tests/server/test_accounts_contract.py``
  holds them to the same behaviour).
- :class:`KeepsPlayers`: everything the server's account features need together: the
  above and the email, moderation, Bot API, tournament, API token and friends stores.
  Only :class:`~ghostparty.server.store.SqlStore` does; a server turns accounts on for a store that is one
  (:mod:`.wiring`), so a server without a database offers none (``no_accounts``).
- :class:`KeepsReviews`: the games' reviews (else the server keeps them in memory).
- :class:`SavesMany`: many games' changes in one transaction (:mod:`ghostparty.server.tables.live` batches them).
- :class:`ReachedByUrl`: a database other processes can open by its URL (the Redis
  review queue's workers do).

Each is a ``runtime_checkable`` :class:`~typing.Protocol`: ``isinstance(store, KeepsPlayers)``
asks a store at run time and tells mypy what it then has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from ghostparty.server.accounts_store import Player, Profile
from ghostparty.server.bot_store import SqlBots
from ghostparty.server.common.ratings import Rating
from ghostparty.server.email_store import SqlEmail
from ghostparty.server.friends_store import SqlFriends
from ghostparty.server.matching import Waiting
from ghostparty.server.moderation_store import SqlModeration
from ghostparty.server.queue_store import Ticket
from ghostparty.server.review_store import ReviewStore
from ghostparty.server.tables.standings import Reliability
from ghostparty.server.tables.store import SavesMany
from ghostparty.server.tokens_store import SqlTokens
from ghostparty.server.tournament_store import SqlTournaments


class AccountStore(Protocol):
    """Players, their sessions, results and ratings (:class:`~.accounts.Accounts` uses it)."""

    def create_player(self, name: str, key: str, password_hash: str, created: datetime) -> Player | None:
        """A new account (rated as a new player in every rule set); ``None`` if an account
        of name key ``key`` exists."""

    def bot_player(self, level: str, created: datetime) -> int:
        """The id of the player a bot level is, made on first use."""

    def player_by_key(self, key: str) -> Player | None:
        """The player of name key ``key``."""

    def set_password(self, player_id: int, password_hash: str) -> None:
        """Keep ``password_hash`` as the player's."""

    def delete_player(self, player_id: int) -> list[str]:
        """Delete the account; its seats stay, called ``former player``, and its results stay
        without it. The ids of the tables whose seats changed."""

    def rating(self, player_id: int, rules: str) -> Rating:
        """A registered player's rating in ``rules`` (a new player's if none is kept)."""

    def rating_and_games(self, player_id: int, rules: str) -> tuple[Rating, int]:
        """A registered player's rating in ``rules`` and their rated games in it."""

    def create_session(self, session_hash: str, player_id: int, created: datetime, expires: datetime) -> None:
        """Keep a session (and forget those expired before ``created``)."""

    def session_player(self, session_hash: str, now: datetime) -> Player | None:
        """The player of a session that expires after ``now``."""

    def end_session(self, session_hash: str) -> None:
        """Forget a session."""

    def end_sessions(self, player_id: int) -> None:
        """Forget every session of the player."""

    def open_data_opt_out(self, player_id: int) -> bool:
        """Whether the player keeps their name out of the open game data."""

    def set_open_data_opt_out(self, player_id: int, opt_out: bool) -> None:
        """Keep whether the player keeps their name out of the open game data."""

    def link_seats(self, player: Player, held: Sequence[tuple[str, int, str]]) -> list[tuple[str, int]]:
        """Make the guest seats held (table id, seat, token hash) the player's: only seats of
        open or running tables whose token matches and that no account holds yet."""

    def profile(self, key: str, *, own: bool) -> Profile | None:
        """The player of name key ``key``, their record per rule set and last games (and,
        if ``own``, their open and running tables)."""

    def reliability(self, player_ids: Sequence[int]) -> dict[int, Reliability]:
        """How often each player finished their games."""

    def reliability_by_key(self, keys: Sequence[str]) -> dict[str, tuple[str, Reliability]]:
        """Per name key of a registered person: the name and how often they finished."""

    def leaderboard(
        self, rules: str, min_games: int, bots: bool = False
    ) -> list[tuple[int | None, str, str, Rating, int]]:
        """(player id, name, kind, rating, rated games), best first."""


class QueueStore(Protocol):
    """The quick-match queue (:class:`~.quickmatch.QuickMatch` uses it)."""

    def add(self, ticket: str, name: str, entry: Waiting) -> None:
        """Put a player in the queue; a registered player's earlier waiting ticket is replaced."""

    def waiting(self, stale_before: datetime, forget_before: datetime) -> list[Ticket]:
        """Everyone still waiting, the first to join first; drops the waiting tickets last
        seen before ``stale_before`` and the seated ones last seen before ``forget_before``."""

    def claim(self, seats: Mapping[str, tuple[str, int, str]]) -> bool:
        """Seat the waiting tickets (ticket -> table, seat, token), all or none."""

    def look(self, ticket: str, now: datetime) -> Ticket | None:
        """The ticket, seen at ``now``."""

    def leave(self, ticket: str) -> bool:
        """Leave the queue; ``False`` if the ticket was already seated (or unknown)."""

    def count_waiting(self) -> int:
        """How many tickets wait (seated ones not counted)."""

    def all_waiting(self) -> Sequence[Waiting]:
        """Every waiting ticket's entry, in no particular order."""


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
