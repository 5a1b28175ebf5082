"""What a registered player does about other players: block, mute at a table, report.

Blocking is an account's own and invisible to the one blocked: their chat lines never
reach the blocker's pages (live, on reload, in replays), quick-match never seats the two
together (:mod:`ghostparty.server.quickmatch.matching`, in both directions), and — once invitations exist — the
blocked player's invitations are refused (:meth:`Community.refuses_invitation`, the
hook for them). Guests have no account to block with or to be blocked by: they mute in
their browser. Mutes of a logged-in player are kept per table. Reports go to the
moderators (:mod:`ghostparty.server.community.moderation`), with the reported line and the lines around it copied
as evidence, so they stay when the line is removed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ghostparty.server.accounts.service import Accounts
from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import now
from ghostparty.server.common.names import name_key
from ghostparty.server.common.text import problem
from ghostparty.server.community.moderation_store import ModerationStore, Standing
from ghostparty.server.tables.chat import clean_text

#: The reasons a report may give (the client words them: ``report.reason.<key>``).
REASONS = ("insults", "harassment", "spam", "cheating", "name", "other")
#: The longest report text, and the longest reason a moderator gives.
MAX_REPORT_TEXT = 300
MAX_REASON = 200
#: Lines kept as evidence on each side of a reported line.
EVIDENCE_LINES = 5
#: A writer as muted: the channel and the name, folded (as the client's per-browser mute).
MAX_WRITER = 80


def checked_text(text: object, what: str, most: int, *, required: bool) -> str:
    """A report's or a moderator's text as the chat keeps it (one line, trimmed, no
    control or format characters, something visible); ``bad_request`` saying why not."""
    if text is None or text == "":
        if required:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"{what} is required: say why, in at most {most} characters")
        return ""
    if not isinstance(text, str):
        raise ServiceError(ErrorCode.BAD_REQUEST, f"{what} is text")
    cleaned = clean_text(text)
    why = problem(cleaned)
    if why is not None:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"{what} {why}")
    if len(cleaned) > most:
        raise ServiceError(ErrorCode.TOO_LONG, f"{what} has at most {most} characters, this one {len(cleaned)}")
    return cleaned


def report_text(reason: str, text: object) -> str:
    """A report's text, checked with its reason (before the report is counted: a report
    refused for its words costs nothing of the reporter's allowance)."""
    if reason not in REASONS:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"reason must be one of {', '.join(REASONS)}, not {reason!r}")
    return checked_text(text, "a report's text", MAX_REPORT_TEXT, required=reason == "other")


def time_text(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class Community:
    """Blocks, mutes and reports over a :class:`~ghostparty.server.community.moderation_store.ModerationStore`."""

    def __init__(self, store: ModerationStore, accounts: Accounts, *, clock: Callable[[], datetime] = now) -> None:
        self.store = store
        self.accounts = accounts
        self.clock = clock

    async def viewer(self, session: str | None) -> tuple[int, str] | None:
        """The logged-in reader of a page (a WebSocket's cookie): (id, name), or ``None``."""
        player = await self.accounts.session(session)
        return (player.id, player.name) if player is not None and player.kind == "user" else None

    async def account(self, name: object) -> Player:
        """The account named ``name``; ``unknown_player`` (404) if none."""
        player = None
        if isinstance(name, str) and 1 <= len(name) <= 40:
            player = await in_thread(self.accounts.store.player_by_key, name_key(name))
        if player is None or player.kind != "user":
            raise ServiceError(ErrorCode.UNKNOWN_PLAYER, f"no player {name!r}")
        return player

    # -- blocks ---------------------------------------------------------------------------

    async def hidden(self, player_id: int) -> frozenset[int]:
        """The accounts ``player_id`` blocked: their lines never reach that player."""
        return frozenset(found for found, _name in await in_thread(self.store.blocked, player_id))

    async def blocked(self, player: Player) -> list[str]:
        return [name for _id, name in await in_thread(self.store.blocked, player.id)]

    async def block(self, player: Player, name: str | None, table: str | None, line: int | None) -> str:
        """Block the account named ``name``, or the author of chat line ``line`` of
        ``table``; the name blocked."""
        if name is not None:
            target = await self.account(name)
            target_id, target_name = target.id, target.name
        else:
            row = await self._line(table, line)
            if row.player_id is None:
                raise ServiceError(ErrorCode.NOT_AN_ACCOUNT, "that line's writer is a guest: mute them instead")
            target_id, target_name = row.player_id, row.name
        if target_id == player.id:
            raise ServiceError(ErrorCode.BLOCK_SELF, "you can't block yourself: block another player's account")
        await in_thread(self.store.block, player.id, target_id, self.clock())
        return str(target_name)

    async def unblock(self, player: Player, name: str) -> None:
        target = await self.account(name)
        await in_thread(self.store.unblock, player.id, target.id)

    async def refuses_invitation(self, inviter: int, invitee: int) -> bool:
        """Whether ``invitee`` refuses ``inviter``'s invitations: either blocked the other.
        The hook for friends' invitations: call it before one is shown or sent."""
        return bool(await in_thread(self.store.avoided, (inviter, invitee)))

    # -- mutes ----------------------------------------------------------------------------

    async def mutes(self, player: Player, table_id: str) -> list[str]:
        return await in_thread(self.store.mutes, player.id, table_id)

    async def mute(self, player: Player, table_id: str, channel: str, name: str, muted: bool) -> list[str]:
        writer = f"{channel}:{name.casefold()}"
        if len(writer) > MAX_WRITER:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"a writer's name has at most {MAX_WRITER - 12} characters")
        if not await in_thread(self.store.set_mute, player.id, table_id, writer, muted):
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}")
        return await self.mutes(player, table_id)

    # -- reports --------------------------------------------------------------------------

    async def report(
        self,
        player: Player,
        reason: str,
        text: object,
        *,
        table: str | None = None,
        line: int | None = None,
        name: str | None = None,
    ) -> int:
        """Report a chat line (``table`` and ``line``) or a player (``name``, and the
        ``table`` it happened at, if any); the report's id. What it names must exist:
        ``unknown_line``, ``unknown_player``, ``unknown_table`` (404) if not."""
        said = report_text(reason, text)
        values: dict[str, Any] = {"reason": reason, "text": said, "reporter_id": player.id, "created": self.clock()}
        if name is not None:
            if line is not None:
                raise ServiceError(
                    ErrorCode.BAD_REQUEST,
                    "report a player (name, and the table if any) or a chat line (table and line), not both",
                )
            target = await self.account(name)
            target_id, target_name = target.id, target.name
            values |= {"kind": "player", "evidence": [], "table_id": table}
        else:
            row = await self._line(table, line)
            target_id, target_name = row.player_id, row.name
            evidence = await in_thread(self.store.around, row.table_id, row.id, EVIDENCE_LINES)
            values |= {"kind": "line", "evidence": evidence, "table_id": row.table_id, "line_id": row.id}
        if target_id == player.id:
            raise ServiceError(ErrorCode.BAD_REQUEST, "you can't report yourself")
        values |= {"target_id": target_id, "target_name": target_name}
        found = await in_thread(self.store.add_report, values)
        if found is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"no table {values['table_id']!r}")
        return found

    async def _line(self, table: str | None, line: int | None) -> Any:
        if table is None or line is None:
            raise ServiceError(ErrorCode.BAD_REQUEST, "name a player (name), or a chat line (table and line)")
        row = await in_thread(self.store.line, table, line)
        if row is None or row.removed:
            raise ServiceError(ErrorCode.UNKNOWN_LINE, f"no chat line {line} at table {table!r}")
        return row

    # -- sanctions, as they stop a player -------------------------------------------------

    async def standing(self, player_id: int) -> Standing:
        return await in_thread(self.store.standing, player_id)

    async def chat_refusal(self, player_id: int) -> ServiceError | None:
        """``chat_timeout`` (403, with until and the reason) while a moderator keeps the
        account out of the chat."""
        found = await self.standing(player_id)
        if found.chat_until is None or found.chat_until <= self.clock():
            return None
        until, reason = time_text(found.chat_until), found.chat_reason or ""
        return ServiceError(
            ErrorCode.CHAT_TIMEOUT,
            f"a moderator has taken you out of the chat until {until}: {reason}",
            details={"until": until, "reason": reason},
        )

    async def check_rated(self, player_id: int) -> None:
        """``rated_banned`` (403, with until and the reason) while a moderator keeps the
        account out of rated play."""
        found = await self.standing(player_id)
        if found.rated_until is not None and found.rated_until > self.clock():
            until, reason = time_text(found.rated_until), found.rated_reason or ""
            raise ServiceError(
                ErrorCode.RATED_BANNED,
                f"a moderator has barred you from rated games until {until}: {reason}",
                details={"until": until, "reason": reason},
            )
