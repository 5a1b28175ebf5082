"""Bot accounts in the database: which accounts are bots, the seats they hold, and the
invitations of people to seats that they may accept.

:class:`BotStore` is what a store of bot accounts promises; :class:`SqlBots` keeps it in the
database, :class:`~ghostparty.server.botapi.memory.MemoryBots` in memory
(``tests/server/botapi/test_bots_contract.py`` holds both to it)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from sqlalchemy import delete, exists, insert, select, update

from ghostparty.server.botapi.schema import bot_invitations
from ghostparty.server.common.model import OPEN
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import players, results, seats, tables


class BotStore(Protocol):
    """Where bot accounts and the invitations of bots to seats are kept."""

    def is_bot(self, player_id: int) -> bool:
        """Whether the account is a bot account."""

    def make_bot(self, player_id: int) -> bool:
        """Make a person's account a bot account for good; ``False`` (and nothing changed)
        if it holds or held any seat or has any result."""

    def bot_named(self, key: str) -> tuple[int, str] | None:
        """(id, name) of the bot account whose name has this look-alike key."""

    def bot_keys(self, keys: list[str]) -> set[str]:
        """Those of the look-alike ``keys`` that are bot accounts' names."""

    def bots_among(self, player_ids: list[int]) -> set[int]:
        """Those of ``player_ids`` that are bot accounts."""

    def held_seats(self, player_id: int) -> list[tuple[str, int, str, str]]:
        """(table id, seat, status, rules) of the account's seats at open and running tables,
        oldest table first."""

    def invite(self, table_id: str, seat: int, bot_id: int, inviter_id: int, now: datetime, expires: datetime) -> None:
        """Keep the invitation of the bot to ``seat`` of ``table_id`` (asking again renews it)."""

    def invited(self, table_id: str, seat: int, bot_id: int, now: datetime) -> bool:
        """Whether the bot has an invitation to that seat that stands: not expired, the
        table open, and its inviter still seated there."""

    def answered(self, table_id: str, seat: int, bot_id: int) -> None:
        """The bot accepted or declined that invitation: it stands no more."""

    def prune(self, before: datetime) -> int:
        """Delete the invitations that expired before ``before``; how many."""


class SqlBots:
    """Bot accounts on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def is_bot(self, player_id: int) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(select(players.c.bot_account).where(players.c.id == player_id)).scalar()
        return bool(found)

    def make_bot(self, player_id: int) -> bool:
        """Make the account a bot account for good; ``False`` (and nothing changed) if it
        holds or held any seat or has any result."""
        with self._writing, self.engine.begin() as conn:
            played = conn.execute(
                select(
                    exists().where(seats.c.player_id == player_id) | exists().where(results.c.player_id == player_id)
                )
            ).scalar()
            if played:
                return False
            conn.execute(
                update(players).where(players.c.id == player_id, players.c.kind == "user").values(bot_account=True)
            )
        return True

    def bot_named(self, key: str) -> tuple[int, str] | None:
        """(id, name) of the bot account whose name has this look-alike key."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(players.c.id, players.c.name).where(players.c.name_key == key, players.c.bot_account)
            ).first()
        return (row.id, row.name) if row is not None else None

    def bot_keys(self, keys: list[str]) -> set[str]:
        """Those of the look-alike ``keys`` that are bot accounts' names."""
        if not keys:
            return set()
        with self.engine.connect() as conn:
            return {
                row.name_key
                for row in conn.execute(
                    select(players.c.name_key).where(players.c.name_key.in_(sorted(set(keys))), players.c.bot_account)
                )
            }

    def bots_among(self, player_ids: list[int]) -> set[int]:
        """Those of ``player_ids`` that are bot accounts."""
        if not player_ids:
            return set()
        with self.engine.connect() as conn:
            return {
                row.id
                for row in conn.execute(
                    select(players.c.id).where(players.c.id.in_(sorted(set(player_ids))), players.c.bot_account)
                )
            }

    def held_seats(self, player_id: int) -> list[tuple[str, int, str, str]]:
        """(table id, seat, status, rules) of the account's seats at open and running tables."""
        with self.engine.connect() as conn:
            return [
                (row.id, row.seat, row.status, row.rules)
                for row in conn.execute(
                    select(tables.c.id, seats.c.seat, tables.c.status, tables.c.rules)
                    .join(seats, seats.c.table_id == tables.c.id)
                    .where(seats.c.player_id == player_id, tables.c.status.in_(["open", "playing"]))
                    .order_by(tables.c.created)
                )
            ]

    # -- invitations ----------------------------------------------------------------------

    def invite(self, table_id: str, seat: int, bot_id: int, inviter_id: int, now: datetime, expires: datetime) -> None:
        """Keep the invitation of the bot to ``seat`` of ``table_id`` (asking again renews it)."""
        key = (
            bot_invitations.c.table_id == table_id,
            bot_invitations.c.seat == seat,
            bot_invitations.c.bot_id == bot_id,
        )
        values = {"inviter_id": inviter_id, "created": now, "expires": expires}
        with self._writing, self.engine.begin() as conn:
            if not conn.execute(update(bot_invitations).where(*key).values(**values)).rowcount:
                conn.execute(insert(bot_invitations).values(table_id=table_id, seat=seat, bot_id=bot_id, **values))

    def invited(self, table_id: str, seat: int, bot_id: int, now: datetime) -> bool:
        """Whether the bot has an invitation to ``seat`` of ``table_id`` that stands: not
        expired, the table open, and its inviter still seated there."""
        inviter_seated = exists().where(
            seats.c.table_id == bot_invitations.c.table_id, seats.c.player_id == bot_invitations.c.inviter_id
        )
        with self.engine.connect() as conn:
            found = conn.execute(
                select(bot_invitations.c.seat)
                .join(tables, tables.c.id == bot_invitations.c.table_id)
                .where(
                    bot_invitations.c.table_id == table_id,
                    bot_invitations.c.seat == seat,
                    bot_invitations.c.bot_id == bot_id,
                    bot_invitations.c.expires > now,
                    tables.c.status == OPEN,
                    inviter_seated,
                )
            ).first()
        return found is not None

    def answered(self, table_id: str, seat: int, bot_id: int) -> None:
        """The bot accepted or declined that invitation: it stands no more."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(
                delete(bot_invitations).where(
                    bot_invitations.c.table_id == table_id,
                    bot_invitations.c.seat == seat,
                    bot_invitations.c.bot_id == bot_id,
                )
            )

    def prune(self, before: datetime) -> int:
        """Delete the invitations that expired before ``before``; how many."""
        with self._writing, self.engine.begin() as conn:
            return int(conn.execute(delete(bot_invitations).where(bot_invitations.c.expires < before)).rowcount)
