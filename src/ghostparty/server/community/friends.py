"""Friends: following players and inviting them to a table.

Following is one-way, as on lichess: an account follows another without asking and the
other isn't told. The Friends list shows the accounts one follows — their names, whether
a page of theirs holds one of their seats now (:mod:`ghostparty.server.bus.presence`), and the tables open or
under way where they sit, to join or watch; nothing else of theirs.

An invitation asks an account to sit at an open table where the inviter sits and a
person's seat is free. It lasts :data:`INVITATION_MINUTES`, or until the table starts,
is answered, or either account is deleted. The invitee's lobby hears of it at once on
the pub/sub channel ``invitations:{id}`` (:func:`invitations_channel`), which crosses
instances through Redis. An invitee who blocked the inviter, or whom the inviter blocked
(:meth:`~ghostparty.server.community.blocks.Community.refuses_invitation`), never sees it, and the inviter is
answered as if it were sent. After an invitation is stored, ``on_invited`` is awaited
with it (the mailer's hook: an email for those who chose so); its failure is logged and
never fails the invitation.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from ghostparty.server.accounts.store import Player
from ghostparty.server.bus.envelope import InvitationsChanged
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import OPEN, Table, now
from ghostparty.server.community.blocks import Community, time_text
from ghostparty.server.community.friends_store import FriendStore, Invitation
from ghostparty.server.tables.service import TableService

log = logging.getLogger("ghostparty.server")

#: The most accounts one may follow (lichess allows 400; a list shown whole stays short).
MAX_FOLLOWS = 500
#: How long an invitation stands, at most (it ends sooner when the table starts).
INVITATION_MINUTES = 30
#: The most open invitations a lobby shows.
MAX_SHOWN = 50
#: The tables of one friend whose presence is asked, newest first.
TABLES_PER_FRIEND = 3
#: How often an instance deletes the invitations that ended a day ago or more.
PRUNE_EVERY = timedelta(hours=1)

#: Called with each invitation stored (not with one refused because of a block).
InvitedHook = Callable[[Invitation], Awaitable[None]]


def invitations_channel(player_id: int) -> str:
    """The pub/sub channel of an account's invitations (table ids never hold a colon)."""
    return f"invitations:{player_id}"


def invitation_view(invitation: Invitation, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """An invitation as the lobby gets it: no more than the invitee needs."""
    found: dict[str, Any] = {
        "id": invitation.id,
        "from": invitation.inviter,
        "to": invitation.invitee,
        "table": invitation.table_id,
        "expires": time_text(invitation.expires),
    }
    if table is not None:
        found |= {"rules": table["rules"], "players": table["players"], "rated": table["rated"]}
    return found


def free_seat(table: Table) -> int | None:
    """The first person's seat nobody holds, if any."""
    return next((s.seat for s in table.seats if s.kind == "human" and not s.taken), None)


class Friends:
    """Follows and invitations over a :class:`~ghostparty.server.community.friends_store.FriendStore`."""

    def __init__(
        self,
        store: FriendStore,
        community: Community,
        service: TableService,
        *,
        on_invited: InvitedHook | None = None,
        clock: Callable[[], datetime] = now,
    ) -> None:
        self.store = store
        self.community = community
        self.service = service
        #: The mailer's hook (see the module's docstring); ``None``: nothing but the lobby.
        self.on_invited = on_invited
        self.clock = clock
        self._pruned: datetime | None = None

    # -- follows --------------------------------------------------------------------------

    async def follow(self, player: Player, name: str) -> str:
        """Follow the account named ``name``; the name followed."""
        target = await self.community.account(name)
        if target.id == player.id:
            raise ServiceError(ErrorCode.BAD_REQUEST, "you can't follow yourself")
        if not await in_thread(self.store.follow, player.id, target.id, self.clock(), MAX_FOLLOWS):
            raise ServiceError(
                ErrorCode.TOO_MANY_FOLLOWS, f"you follow {MAX_FOLLOWS} players, the most: unfollow someone first"
            )
        return target.name

    async def unfollow(self, player: Player, name: str) -> str:
        target = await self.community.account(name)
        await in_thread(self.store.unfollow, player.id, target.id)
        return target.name

    async def follows(self, player: Player, name: str) -> bool:
        target = await self.community.account(name)
        return await in_thread(self.store.follows, player.id, target.id)

    async def friends(self, player: Player) -> list[dict[str, Any]]:
        """The accounts ``player`` follows, by name: whether they are at a table now
        (a page holds their seat) and the tables open or under way where they sit."""
        followed = await in_thread(self.store.following, player.id)
        sittings = await in_thread(self.store.sittings, [found for found, _name in followed])
        by_player: dict[int, list[dict[str, Any]]] = {}
        for sitting in sittings:
            tables = by_player.setdefault(sitting.player_id, [])
            if len(tables) >= TABLES_PER_FRIEND:
                continue
            online = sitting.seat in await self.service.presence.online(sitting.table_id)
            tables.append(
                {
                    "id": sitting.table_id,
                    "status": sitting.status,
                    "rules": sitting.rules,
                    "players": sitting.players,
                    "online": online,
                }
            )
        return [
            {
                "name": name,
                "online": any(t["online"] for t in by_player.get(found, [])),
                "tables": by_player.get(found, []),
            }
            for found, name in followed
        ]

    # -- invitations ----------------------------------------------------------------------

    async def invite(self, player: Player, name: str, table_id: str) -> dict[str, Any]:
        """Invite the account named ``name`` to ``table_id``, where ``player`` sits and a
        person's seat is free; the invitation as its inviter sees it."""
        target = await self.community.account(name)
        if target.id == player.id:
            raise ServiceError(ErrorCode.BAD_REQUEST, "you can't invite yourself")
        live = await self.service.core.tables.get(table_id, fresh=True)
        table = live.table
        if table.status != OPEN:
            raise ServiceError(ErrorCode.NOT_OPEN, "the game has started: invite to a table that is still open")
        if not any(s.player_id == player.id for s in table.seats):
            raise ServiceError(ErrorCode.NOT_AT_TABLE, "invite to a table where you sit: take a seat there first")
        if free_seat(table) is None:
            raise ServiceError(ErrorCode.NO_FREE_SEAT, "every person's seat of that table is taken")
        stamp = self.clock()
        if self._pruned is None or stamp - self._pruned >= PRUNE_EVERY:
            self._pruned = stamp
            await in_thread(self.store.prune, stamp - timedelta(days=1))
        expires = stamp + timedelta(minutes=INVITATION_MINUTES)
        sent = {"to": target.name, "table": table.id, "expires": time_text(expires)}
        if await self.community.refuses_invitation(player.id, target.id):
            return sent  # never shown, never mailed; the inviter isn't told why (or at all)
        invitation_id = await in_thread(self.store.invite, player.id, target.id, table.id, stamp, expires)
        invitation = Invitation(
            invitation_id, player.id, player.name, target.id, target.name, table.id, "open", stamp, expires
        )
        await self._notify(target.id)
        if self.on_invited is not None:
            try:
                await self.on_invited(invitation)
            except Exception:  # the mailer's trouble is not the inviter's
                log.exception("the on_invited hook failed for invitation %d", invitation_id)
        return sent

    async def received(self, player: Player) -> list[dict[str, Any]]:
        """``player``'s open invitations, newest first (none from accounts either blocked)."""
        found = await in_thread(self.store.received, player.id, self.clock(), MAX_SHOWN)
        ids = {player.id} | {invitation.inviter_id for invitation in found}
        avoided = (await in_thread(self.community.store.avoided, ids)).get(player.id, frozenset())
        shown = []
        for invitation in found:
            if invitation.inviter_id in avoided:
                continue
            live = await self.service.core.tables.get(invitation.table_id)
            shown.append(invitation_view(invitation, await self.service.core.view(live.table)))
        return shown

    async def accept(self, player: Player, invitation_id: int) -> tuple[int, str, dict[str, Any]]:
        """Sit ``player`` at the invitation's table, in its first free person's seat:
        (seat, token, table)."""
        invitation = await self._open(player, invitation_id)
        live = await self.service.core.tables.get(invitation.table_id, fresh=True)
        if live.table.status != OPEN:
            raise ServiceError(ErrorCode.NOT_OPEN, "the game has started without you: the invitation has ended")
        seat = free_seat(live.table)
        if seat is None:
            raise ServiceError(ErrorCode.NO_FREE_SEAT, "every person's seat of that table was taken meanwhile")
        # The join checks whether the account may sit there (a ban from rated play).
        token, view = await self.service.join(invitation.table_id, seat, None, (player.id, player.name))
        await in_thread(self.store.answer, invitation.id, "accepted")
        await self._notify(player.id)
        return seat, token, view

    async def decline(self, player: Player, invitation_id: int) -> None:
        invitation = await self._open(player, invitation_id)
        await in_thread(self.store.answer, invitation.id, "declined")
        await self._notify(player.id)

    async def _open(self, player: Player, invitation_id: int) -> Invitation:
        """``player``'s own invitation, still open; ``unknown_invitation`` (404) otherwise
        (another's invitation is answered exactly as one that doesn't exist)."""
        found = await in_thread(self.store.invitation, invitation_id)
        if (
            found is None
            or found.invitee_id != player.id
            or found.status != "open"
            or found.expires <= self.clock()
            or await self.community.refuses_invitation(found.inviter_id, player.id)
        ):
            raise ServiceError(ErrorCode.UNKNOWN_INVITATION, f"no open invitation {invitation_id} for you")
        return found

    async def _notify(self, player_id: int) -> None:
        await self.service.core.pubsub.publish(invitations_channel(player_id), InvitationsChanged())
