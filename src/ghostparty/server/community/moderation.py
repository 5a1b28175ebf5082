"""What moderators do: read the queue of open reports and the audit log, time a player
out of the chat, ban them from the chat or rated play for a while, remove a chat line,
close a report, rename an offensive name.

Only a moderator (``ghostparty admin moderator NAME``) may: anyone else gets 403
``moderators_only``. An action on a moderator (``not_on_moderator``) or on oneself
(``not_on_self``) is refused. Every action and its audit row (who, what, when, why) are
written in one transaction; the audit log can be read, never changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.names import check_name, name_key
from ghostparty.server.community.blocks import MAX_REASON, Community, checked_text, time_text
from ghostparty.server.community.moderation_store import Audit
from ghostparty.server.tables.chat import Chat

#: The timeouts a moderator may give, in minutes: 15 min, 1 h, 1 day.
TIMEOUTS = (15, 60, 1440)
#: The longest ban, in days (0 lifts one).
MAX_BAN_DAYS = 365
#: Reports and audit rows in one answer.
PAGE = 100


class Moderation:
    """Moderators' work over the :class:`~ghostparty.server.community.blocks.Community`'s store."""

    def __init__(
        self,
        community: Community,
        chat: Chat,
        *,
        seats_changed: Callable[[Sequence[str]], Awaitable[None]] | None = None,
    ) -> None:
        self.community = community
        self.store = community.store
        self.chat = chat
        self.seats_changed = seats_changed

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.community.clock

    async def require(self, player: Player | None) -> Player:
        """The moderator; ``moderators_only`` (403) for anyone else, logged in or not."""
        if player is None or not (await self.community.standing(player.id)).moderator:
            raise ServiceError(ErrorCode.MODERATORS_ONLY, "only moderators may do this")
        return player

    async def _target(self, moderator: Player, name: object) -> Player:
        target = await self.community.account(name)
        await self._check(moderator, target.id, target.name)
        return target

    async def _check(self, moderator: Player, target_id: int, target_name: str) -> None:
        if target_id == moderator.id:
            raise ServiceError(ErrorCode.NOT_ON_SELF, "a moderator can't act on themselves")
        if (await self.community.standing(target_id)).moderator:
            raise ServiceError(ErrorCode.NOT_ON_MODERATOR, f"{target_name} is a moderator: ask the operator")

    @staticmethod
    def _reason(reason: object) -> str:
        return checked_text(reason, "the reason", MAX_REASON, required=True)

    # -- reading --------------------------------------------------------------------------

    async def queue(self) -> list[dict[str, Any]]:
        """The open reports, most reported target first, then the oldest."""
        rows = await in_thread(self.store.open_reports, PAGE)
        return [
            {
                "id": row.id,
                "kind": row.kind,
                "reason": row.reason,
                "text": row.text,
                "target": row.target_name,
                "account": row.target_id is not None,
                "table": row.table_id,
                "line": row.line_id,
                "evidence": row.evidence,
                "created": time_text(row.created),
                "reporters": reporters,
            }
            for row, reporters in rows
        ]

    async def audit(self, before: int | None) -> list[dict[str, Any]]:
        rows = await in_thread(self.store.audit_log, PAGE, before)
        return [
            {
                "id": row.id,
                "at": time_text(row.at),
                "moderator": row.moderator,
                "action": row.action,
                "target": row.target,
                "reason": row.reason,
                "detail": row.detail,
            }
            for row in rows
        ]

    # -- acting ---------------------------------------------------------------------------

    def _entry(self, moderator: Player, action: str, target: Player | None, reason: str, **detail: Any) -> Audit:
        return Audit(
            moderator.id,
            moderator.name,
            action,
            target.id if target else None,
            target.name if target else None,
            reason,
            detail,
        )

    async def timeout(self, moderator: Player, name: object, minutes: int, reason: object) -> str:
        """Out of the chat for ``minutes`` (one of :data:`TIMEOUTS`); until when."""
        if minutes not in TIMEOUTS:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"minutes must be one of {', '.join(map(str, TIMEOUTS))}")
        return await self._sanction(moderator, name, "chat", timedelta(minutes=minutes), reason, "timeout")

    async def ban(self, moderator: Player, name: object, what: str, days: int, reason: object) -> str:
        """Out of ``what`` ("chat" or "rated") for ``days`` (0 lifts a ban); until when."""
        if what not in ("chat", "rated"):
            raise ServiceError(ErrorCode.BAD_REQUEST, f"what must be 'chat' or 'rated', not {what!r}")
        if not 0 <= days <= MAX_BAN_DAYS:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"days must be 0 (lift the ban) to {MAX_BAN_DAYS}, not {days}")
        return await self._sanction(moderator, name, what, timedelta(days=days), reason, "ban")

    async def _sanction(
        self, moderator: Player, name: object, what: str, length: timedelta, reason: object, action: str
    ) -> str:
        target = await self._target(moderator, name)
        why = self._reason(reason)
        now = self.clock()
        until = now + length
        entry = self._entry(moderator, action, target, why, what=what, until=time_text(until))
        await in_thread(self.store.sanction, target.id, what, until, why, entry, now)
        return time_text(until)

    async def remove_line(self, moderator: Player, table: str, line: int, reason: object) -> None:
        row = await self.community._line(table, line)
        why = self._reason(reason)
        if row.player_id is not None:
            await self._check(moderator, row.player_id, row.name)
        detail = {"table": table, "line": line, "text": row.text or row.phrase}
        entry = Audit(moderator.id, moderator.name, "remove_line", row.player_id, row.name, why, detail)
        await in_thread(self.store.remove_line, table, line, entry, self.clock())
        await self.chat.removed(table, line)

    async def close(self, moderator: Player, report_id: int, reason: object) -> None:
        why = self._reason(reason)
        row = await in_thread(self.store.report, report_id)
        if row is None:
            raise ServiceError(ErrorCode.UNKNOWN_REPORT, f"no report {report_id}")
        entry = Audit(moderator.id, moderator.name, "close", row.target_id, row.target_name, why, {"report": report_id})
        if not await in_thread(self.store.close_report, report_id, entry, self.clock()):
            raise ServiceError(ErrorCode.REPORT_CLOSED, f"report {report_id} is already closed")

    async def rename(self, moderator: Player, name: object, new: object, reason: object) -> str:
        """Give an account a new name (its seats and chat lines too); the new name."""
        target = await self._target(moderator, name)
        why = self._reason(reason)
        new_name = check_name(new)
        entry = self._entry(moderator, "rename", target, why, old=target.name, new=new_name)
        changed = await in_thread(self.store.rename, target.id, new_name, name_key(new_name), entry, self.clock())
        if changed is None:
            raise ServiceError(ErrorCode.NAME_TAKEN, f"the name {new_name!r} (or one that reads like it) is taken")
        if self.seats_changed is not None and changed:
            await self.seats_changed(changed)
        return new_name
