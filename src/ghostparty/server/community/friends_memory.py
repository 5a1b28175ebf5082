"""Follows and invitations in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryFriends` keeps :class:`~ghostparty.server.community.friends_store.FriendStore`'s
contract as :class:`~ghostparty.server.community.friends_store.SqlFriends` does
(``tests/server/community/test_friends_contract.py`` holds both to it); its players are the
memory accounts', its tables and seats the memory store's.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.common.model import OPEN, PLAYING, Table
from ghostparty.server.community.friends_store import Invitation, Sitting


@dataclass(frozen=True, slots=True)
class _Kept:
    """An invitation as a row keeps it: ids, not names."""

    id: int
    inviter_id: int
    invitee_id: int
    table_id: str
    status: str
    created: datetime
    expires: datetime


class MemoryFriends:
    """A :class:`~ghostparty.server.community.friends_store.FriendStore` in a few dicts, behind a lock.

    Its own lock keeps the follows and invitations; the memory store's (``tables_lock``)
    is taken, never while its own is held, to read the tables and seats.
    """

    def __init__(self, accounts: MemoryAccounts, tables_lock: threading.Lock, tables: dict[str, Table]) -> None:
        self._accounts = accounts
        self._tables_lock = tables_lock
        self._tables = tables
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        #: Follower id -> followed id -> when.
        self._follows: dict[int, dict[int, datetime]] = {}
        self._invitations: dict[int, _Kept] = {}

    def _name(self, player_id: int) -> str | None:
        found = self._accounts.player(player_id)
        return None if found is None else found.name

    # -- follows --------------------------------------------------------------------------

    def follow(self, follower: int, followed: int, now: datetime, most: int) -> bool:
        # Following an account that doesn't exist keeps nothing, as a database's foreign keys refuse it.
        both = self._name(follower) is not None and self._name(followed) is not None
        with self._lock:
            mine = self._follows.setdefault(follower, {})
            if followed in mine:
                return True
            if len(mine) >= most:
                return False
            if both:
                mine[followed] = now
        return True

    def unfollow(self, follower: int, followed: int) -> None:
        with self._lock:
            self._follows.get(follower, {}).pop(followed, None)

    def following(self, follower: int) -> list[tuple[int, str]]:
        with self._lock:
            ids = list(self._follows.get(follower, {}))
        named = [(found, self._name(found)) for found in ids]
        return sorted(((found, name) for found, name in named if name is not None), key=lambda pair: pair[1])

    def follows(self, follower: int, followed: int) -> bool:
        with self._lock:
            return followed in self._follows.get(follower, {})

    def sittings(self, ids: Sequence[int]) -> list[Sitting]:
        wanted = set(ids)
        with self._tables_lock:
            found = [table for table in self._tables.values() if table.status in (OPEN, PLAYING)]
        found.sort(key=lambda table: table.updated, reverse=True)
        return [
            Sitting(seat.player_id, table.id, seat.seat, table.status, table.rules, table.players)
            for table in found
            for seat in table.seats
            if seat.player_id is not None and seat.player_id in wanted
        ]

    # -- invitations ----------------------------------------------------------------------

    def invite(self, inviter: int, invitee: int, table_id: str, now: datetime, expires: datetime) -> int:
        with self._lock:
            for kept in self._invitations.values():
                if (kept.inviter_id, kept.invitee_id, kept.table_id) == (inviter, invitee, table_id):
                    self._invitations[kept.id] = replace(kept, status="open", created=now, expires=expires)
                    return kept.id
            made = _Kept(next(self._ids), inviter, invitee, table_id, "open", now, expires)
            self._invitations[made.id] = made
        return made.id

    def _named(self, kept: _Kept) -> Invitation | None:
        inviter, invitee = self._name(kept.inviter_id), self._name(kept.invitee_id)
        if inviter is None or invitee is None:
            return None
        return Invitation(
            kept.id,
            kept.inviter_id,
            inviter,
            kept.invitee_id,
            invitee,
            kept.table_id,
            kept.status,
            kept.created,
            kept.expires,
        )

    def invitation(self, invitation_id: int) -> Invitation | None:
        with self._lock:
            kept = self._invitations.get(invitation_id)
        return None if kept is None else self._named(kept)

    def received(self, invitee: int, now: datetime, most: int) -> list[Invitation]:
        with self._lock:
            found = [
                kept
                for kept in self._invitations.values()
                if kept.invitee_id == invitee and kept.status == "open" and kept.expires > now
            ]
        with self._tables_lock:
            found = [kept for kept in found if (t := self._tables.get(kept.table_id)) is not None and t.status == OPEN]
        found.sort(key=lambda kept: (kept.created, kept.id), reverse=True)
        named = [invitation for kept in found if (invitation := self._named(kept)) is not None]
        return named[: max(most, 0)]

    def answer(self, invitation_id: int, status: str) -> bool:
        with self._lock:
            kept = self._invitations.get(invitation_id)
            if kept is None or kept.status != "open":
                return False
            self._invitations[invitation_id] = replace(kept, status=status)
        return True

    def prune(self, before: datetime) -> int:
        with self._lock:
            gone = [kept.id for kept in self._invitations.values() if kept.expires < before]
            for invitation_id in gone:
                del self._invitations[invitation_id]
        return len(gone)
