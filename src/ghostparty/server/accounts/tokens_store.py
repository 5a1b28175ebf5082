"""Personal API tokens in the database (the same engine as the games'): only each
secret's SHA-256 is kept, looked up by that hash (:mod:`ghostparty.server.accounts.tokens`).

:class:`TokenStore` is what a store of tokens promises; :class:`SqlTokens` keeps it in the
database, :class:`~ghostparty.server.accounts.tokens_memory.MemoryTokens` in memory
(``tests/server/accounts/test_tokens_contract.py`` holds both to it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, or_, select, update

from ghostparty.server.accounts.schema import api_tokens
from ghostparty.server.accounts.store import Player
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import players
from ghostparty.server.infra.rows import utc


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A token as its owner sees it in the list (never its secret)."""

    id: int
    player_id: int
    name: str
    scopes: tuple[str, ...]
    created: datetime
    expires: datetime | None
    last_used: datetime | None


def _info(row: Any) -> TokenInfo:
    return TokenInfo(
        id=row.id,
        player_id=row.player_id,
        name=row.name,
        scopes=tuple(row.scopes.split()),
        created=utc(row.created),
        expires=utc(row.expires) if row.expires is not None else None,
        last_used=utc(row.last_used) if row.last_used is not None else None,
    )


class TokenStore(Protocol):
    """Where API tokens are kept."""

    def create(
        self,
        player_id: int,
        token_hash: str,
        name: str,
        scopes: tuple[str, ...],
        created: datetime,
        expires: datetime | None,
        most: int,
    ) -> TokenInfo | None:
        """A new token, unless the player already has ``most`` (then ``None``), counted
        and kept at once; the player's tokens expired by ``created`` are deleted first."""

    def of_player(self, player_id: int) -> list[TokenInfo]:
        """The player's tokens, newest first (expired ones included, until deleted)."""

    def revoke(self, player_id: int, token_id: int) -> bool:
        """Delete one of the player's tokens; whether there was one."""

    def look_up(self, token_hash: str, now: datetime) -> tuple[TokenInfo, Player, str] | None:
        """The unexpired token with this hash, its owner (without a password hash) and
        the hash as stored, or ``None``."""

    def touch(self, token_id: int, now: datetime) -> None:
        """Note that the token was used now."""


class SqlTokens:
    """API tokens on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def create(
        self,
        player_id: int,
        token_hash: str,
        name: str,
        scopes: tuple[str, ...],
        created: datetime,
        expires: datetime | None,
        most: int,
    ) -> TokenInfo | None:
        """A new token, unless the player already has ``most`` (then ``None``): counted
        and written in one transaction; expired tokens are deleted first."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(
                delete(api_tokens).where(
                    api_tokens.c.player_id == player_id,
                    api_tokens.c.expires.is_not(None),
                    api_tokens.c.expires <= created,
                )
            )
            # The owner's row locked (PostgreSQL; SQLite writes one at a time anyway): two
            # creations at once can't both count fewer than ``most``.
            conn.execute(select(players.c.id).where(players.c.id == player_id).with_for_update())
            count = conn.execute(
                select(func.count()).select_from(api_tokens).where(api_tokens.c.player_id == player_id)
            ).scalar_one()
            if count >= most:
                return None
            inserted = conn.execute(
                insert(api_tokens).values(
                    player_id=player_id,
                    hash=token_hash,
                    name=name,
                    scopes=" ".join(scopes),
                    created=created,
                    expires=expires,
                )
            ).inserted_primary_key
            assert inserted is not None
            token_id = int(inserted[0])
        return TokenInfo(token_id, player_id, name, scopes, created, expires, None)

    def of_player(self, player_id: int) -> list[TokenInfo]:
        """The player's tokens, newest first (expired ones included, until deleted)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(api_tokens)
                .where(api_tokens.c.player_id == player_id)
                .order_by(api_tokens.c.created.desc(), api_tokens.c.id.desc())
            ).all()
        return [_info(row) for row in rows]

    def revoke(self, player_id: int, token_id: int) -> bool:
        """Delete one of the player's tokens; whether there was one."""
        with self._writing, self.engine.begin() as conn:
            done = conn.execute(
                delete(api_tokens).where(api_tokens.c.id == token_id, api_tokens.c.player_id == player_id)
            )
        return bool(done.rowcount)

    def look_up(self, token_hash: str, now: datetime) -> tuple[TokenInfo, Player, str] | None:
        """The unexpired token with this hash, its owner and the hash as stored, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    api_tokens,
                    players.c.name.label("player_name"),
                    players.c.kind,
                    players.c.created.label("player_created"),
                )
                .join(players, players.c.id == api_tokens.c.player_id)
                .where(
                    api_tokens.c.hash == token_hash,
                    or_(api_tokens.c.expires.is_(None), api_tokens.c.expires > now),
                )
            ).first()
        if row is None:
            return None
        return _info(row), Player(row.player_id, row.player_name, row.kind, None, utc(row.player_created)), row.hash

    def touch(self, token_id: int, now: datetime) -> None:
        """Note that the token was used now."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(api_tokens).where(api_tokens.c.id == token_id).values(last_used=now))
