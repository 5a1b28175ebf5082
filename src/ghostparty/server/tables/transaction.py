"""One way to change a table: :func:`change`, a transaction over one table.

Every change of a table, whoever makes it (the lobby, play, playing again, the keeper,
quick-match, the tournament runner, an operator), goes the same way::

    async with core.change(table_id, seat, token, expect=OPEN) as draft:
        draft.table = draft.table.with_seat(...)  # the caller edits a draft

The transaction locks the table on this instance, reads it, checks the seat's token and
the table's status (refusing with the usual :class:`ServiceError` codes), and hands the
caller a :class:`Draft`. When the block ends without an error and the draft changed, it
bumps the version, stamps ``updated``, saves (a compare-and-set on the version), makes
the draft's game and action the live table's, publishes one update, tells the table's
keeper and runs the draft's ``after`` steps — in that order, under the lock, here only.
If the block or the save fails, nothing is kept: an action pushed on the game is undone
and the table is read afresh on its next use. A draft left as it was saves nothing.

Nothing else takes a table's lock (a test checks), so no change can skip a step.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ghostparty.rules import Action, Game, action_to_dict
from ghostparty.rules.events import Event
from ghostparty.server.common.errors import ErrorCode, ServiceError, StoreUnavailable
from ghostparty.server.common.model import OPEN, OVER, PLAYING, ActionRow, GameResult, Seat, Table
from ghostparty.server.tables.live import LiveTable
from ghostparty.server.wire.protocol import entry_message

if TYPE_CHECKING:
    from ghostparty.server.tables.core import Core

#: The error code of a table found in another status than the one a change expects.
REFUSALS: dict[str, ErrorCode] = {OPEN: ErrorCode.NOT_OPEN, PLAYING: ErrorCode.NOT_PLAYING, OVER: ErrorCode.NOT_OVER}


@lru_cache(maxsize=8192)
def hash_token(token: str) -> str:
    """A seat token's stored form (SHA-256, hex); the tokens of the seats in play are
    kept hashed, so that an action does not hash its seat's token again."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(table: Table, seat: object) -> Seat:
    """``table``'s seat number ``seat``; ``bad_seat`` if there is none."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
        raise ServiceError(ErrorCode.BAD_SEAT, f"seat must be 0 to {table.players - 1}, not {seat!r}")
    return table.seats[seat]


def check_token(table: Table, seat: object, token: object) -> None:
    """``bad_token`` unless ``token`` holds ``seat`` at ``table``."""
    held = seat_of(table, seat)
    if (
        held.kind != "human"
        or held.token_hash is None
        or not isinstance(token, str)
        or not hmac.compare_digest(held.token_hash, hash_token(token))
    ):
        raise ServiceError(ErrorCode.BAD_TOKEN, f"that token doesn't hold seat {seat}")


@dataclass(eq=False)
class Draft:
    """A change of one table in the making, handed out by :func:`change`.

    Edit :attr:`table` (its ``version`` and, with :attr:`touch`, its ``updated`` are the
    transaction's), push at most one action with :meth:`push`, begin a game by setting
    :attr:`game`; :attr:`live` is the table as read and stays so until the save.
    """

    live: LiveTable
    table: Table
    clock: Callable[[], datetime]
    #: Stamp ``updated`` with :meth:`now` (off where a new token mustn't restart the
    #: turn's clock, or the change brings its own moment).
    touch: bool = True
    #: Tell the table's keeper even if its status stays (a seat away or back, a new token).
    wake_keeper: bool = False
    #: A game begun by this change: the live table's once saved.
    game: Game | None = None
    #: The finished game's result, kept with the save (:class:`GameResult`).
    result: GameResult | None = None
    _action: tuple[ActionRow, Sequence[Event]] | None = None
    _moment: datetime | None = None
    _after: list[Callable[[], Awaitable[None] | None]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether committing this draft saves anything."""
        return self.table is not self.live.table or self._action is not None or self.game is not None

    def now(self) -> datetime:
        """The change's moment: read from the clock once, and ``updated`` if :attr:`touch`."""
        if self._moment is None:
            self._moment = self.clock()
        return self._moment

    def push(self, seat: int, action: Action) -> tuple[int, Sequence[Event]]:
        """Apply ``seat``'s checked ``action`` to the live game (undone if the change
        fails); its index in the game and its events."""
        game = self.live.game
        if game is None or self._action is not None:
            raise RuntimeError("a change pushes one action, on a game under way")
        index = len(game.history)
        events = game.push(action)
        self._action = (ActionRow(index, seat, action_to_dict(action)), events)
        return index, events

    def after(self, step: Callable[[], Awaitable[None] | None]) -> None:
        """Run ``step`` once the change is saved, published and told to the keeper."""
        self._after.append(step)

    def _undo(self) -> None:
        if self._action is not None and self.live.game is not None:
            self.live.game.undo()
            self._action = None


@asynccontextmanager
async def change(
    core: Core,
    table_id: str,
    seat: int | None = None,
    token: str | None = None,
    *,
    expect: str | Collection[str] | None = None,
    refusal: str | None = None,
    version: int | None = None,
    fresh: bool = False,
    refresh: bool = False,
    min_version: int = 0,
    quiet: bool = False,
) -> AsyncIterator[Draft]:
    """Change ``table_id``: lock, read, check, hand out a :class:`Draft`, then commit it
    (see the module docstring).

    The read: from memory, or (``fresh``) the store's version where other instances
    change tables too, or (``refresh``) the store's, or a copy at least ``min_version``.
    The checks, in this order: ``seat``'s ``token`` (``bad_token``); with ``version``,
    the table is read afresh if its copy is another; its status is ``expect`` (one or
    several; else ``not_open``, ``not_playing`` or ``not_over`` by the first, with
    ``refusal`` as the message, ``{status}`` filled in); it is at ``version``
    (``stale_version``). ``quiet``: the change is saved only, neither published nor told
    to the keeper — a table nobody watches yet, given up before its start.
    """
    tables = core.tables
    async with tables.lock(table_id):
        live = await tables.get(table_id, refresh=refresh, min_version=max(min_version, version or 0), fresh=fresh)
        if seat is not None:
            check_token(live.table, seat, token)
        if version is not None and live.table.version != version:
            live = await tables.get(table_id, refresh=True)
        if expect is not None:
            _check_status(live, (expect,) if isinstance(expect, str) else tuple(expect), refusal)
        if version is not None and live.table.version != version:
            raise ServiceError(
                ErrorCode.STALE_VERSION,
                f"the table is at version {live.table.version}, not {version}: reload and choose again",
            )
        draft = Draft(live, live.table, core.clock)
        status = live.table.status
        try:
            yield draft
            changed = draft.changed
            if changed:
                await _save(core, draft)
        except BaseException:
            draft._undo()
            raise
        if changed:
            await _tell(core, draft, status, quiet=quiet)


async def refresh(core: Core, table_id: str, *, newer_than: int = -1, forget: bool = False) -> LiveTable:
    """Read ``table_id`` from the store again (``forget``: rebuilt even at the same
    version, its seats changed outside play) and publish it if its version is past
    ``newer_than``: after a save whose answer was lost, or a change made in the store."""
    tables = core.tables
    async with tables.lock(table_id):
        if forget:
            tables.forget(table_id)
        live = await tables.get(table_id, refresh=True)
        if live.table.version > newer_than:
            await core.publish(live, None)
        return live


def _check_status(live: LiveTable, expect: tuple[str, ...], refusal: str | None) -> None:
    status = live.table.status
    if status in expect and (status != PLAYING or live.game is not None):
        return
    message = refusal or "the table is {status}, not " + " or ".join(expect)
    raise ServiceError(REFUSALS.get(expect[0], ErrorCode.NOT_OPEN), message.format(status=status))


async def _save(core: Core, draft: Draft) -> None:
    live = draft.live
    before = live.table
    stamped = draft.table
    version = before.version + 1
    if draft.touch and (stamped.version != version or stamped.updated != draft.now()):
        stamped = replace(stamped, version=version, updated=draft.now())
    elif stamped.version != version:  # (a caller that stamped the draft itself saves a copy)
        stamped = replace(stamped, version=version)
    rows = [draft._action[0]] if draft._action is not None else []
    try:
        await core.tables.save(live, stamped, rows, draft.result)
    except StoreUnavailable:
        # the store may have it nevertheless (a commit whose answer was lost): once it
        # answers again, everyone is told of what it holds
        core.recheck_later(before.id, before.version)
        raise
    if draft.game is not None:
        live.game = draft.game


async def _tell(core: Core, draft: Draft, status: str, *, quiet: bool) -> None:
    live = draft.live
    message = None
    if draft._action is not None:
        row, events = draft._action
        entry: dict[str, Any] = {"index": row.index, "seat": row.seat, "action": row.action}
        live.log.append(entry)
        live.events.append(events)
        message = entry_message(entry, events)
    if not quiet:
        await core.publish(live, message)
        if draft.wake_keeper or live.table.status != status:
            await core.changed(live, always=True)
        elif live.table.status == PLAYING:
            await core.changed(live)
    for step in draft._after:
        done = step()
        if done is not None:
            await done
