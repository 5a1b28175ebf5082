"""Chat at the table: the players' channel, and the spectators' own, which the players
don't see while the game is under way (as on the big sites).

Lines are kept with the game (shown again after a reload, and in the replay), at most
:data:`MAX_TEXT` characters of plain text — the pages show them as text, never HTML —
or one of the quick :data:`PHRASES`, sent as its key so that every reader sees it in
their own language. Muting is each reader's own: a guest's in their page, a logged-in
player's kept per table (:mod:`ghostparty.server.community.blocks`). A line is published on the table's chat
channel (``chat:{table}``) as an :class:`~ghostparty.server.bus.envelope.Chat`: the ``chat`` message's JSON,
its author's account id (``None`` for a guest), so that each page drops the lines of
players its reader blocked, and whether only spectators may see it now; a
``chat_removed`` message likewise when a moderator removed a line;
:class:`~ghostparty.server.bus.envelope.GameEnded` says the game is over. A player a moderator timed out of the chat is refused (``chat_timeout``,
403, with the reason).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from ghostparty.server.bus import envelope
from ghostparty.server.common import outbound
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.model import PLAYING, ChatLine
from ghostparty.server.common.text import clean_name, problem
from ghostparty.server.tables.core import Core
from ghostparty.server.wire.protocol import dumps

MAX_TEXT = 200
#: Lines kept per table; beyond, the table's chat is full.
MAX_KEPT = 500
#: The quick phrases' keys (the client's i18n files hold their words: ``chat.phrase.<key>``).
PHRASES = ("good_luck", "well_played", "oops", "thanks")
CHANNELS = ("players", "spectators")


def chat_channel(table_id: str) -> str:
    return f"chat:{table_id}"


def line_json(line: ChatLine) -> dict[str, Any]:
    return {
        "id": line.id,
        "channel": line.channel,
        "seat": line.seat,
        "name": line.name,
        "text": line.text,
        "phrase": line.phrase,
        "sent": line.sent.strftime("%Y-%m-%dT%H:%M:%SZ"),
        #: Written by an account: it may be blocked (by the line, ``POST /api/blocks``).
        "account": line.player_id is not None,
    }


def clean_text(text: str) -> str:
    """A chat text as it is kept: one line, trimmed, without control or format characters."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(
        " " if unicodedata.category(c) in {"Cc", "Zl", "Zp"} else c  # control characters, line breaks
        for c in text
        if unicodedata.category(c) != "Cf"  # invisible format characters (bidi overrides …)
    )
    return " ".join(kept.split())


class Chat:
    """``refusal`` (set when the server keeps accounts) says why an account may not write
    now (a moderator's timeout or ban), or ``None``."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.refusal: Callable[[int], Awaitable[ServiceError | None]] | None = None

    async def say(
        self,
        table_id: str,
        held: tuple[int, ...],
        channel: str,
        *,
        text: str | None = None,
        phrase: str | None = None,
        name: str | None = None,
        viewer: tuple[int, str] | None = None,
    ) -> ChatLine:
        """Write a line: ``held`` are the seats the writer's page holds (the players'
        channel needs one; the spectators' channel is for pages that hold none);
        ``viewer`` the logged-in reader of the page (id, name), if any: a spectator
        account writes under its own name."""
        if channel not in CHANNELS:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"channel must be 'players' or 'spectators', not {channel!r}")
        if (text is None) == (phrase is None):
            raise ServiceError(ErrorCode.BAD_REQUEST, "a chat line is a text or a phrase")
        if phrase is not None and phrase not in PHRASES:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"phrase must be one of {', '.join(PHRASES)}")
        if text is not None:
            text = clean_text(text)
            why = problem(text)
            if why is not None:
                raise ServiceError(ErrorCode.BAD_REQUEST, f"a chat line {why}")
            if len(text) > MAX_TEXT:
                raise ServiceError(
                    ErrorCode.TOO_LONG, f"a chat line has at most {MAX_TEXT} characters, this one {len(text)}"
                )
        tables = self.core.tables
        table = (await tables.get(table_id)).table
        seat = None
        if channel == "players":
            if not held:
                raise ServiceError(
                    ErrorCode.NOT_SEATED, "the players' chat is for the players: spectators write to theirs"
                )
            seat = held[0]
            writer = table.seats[seat].name or "?"
            author = table.seats[seat].player_id
        else:
            if held:
                raise ServiceError(
                    ErrorCode.NOT_SPECTATOR, "the spectators' chat is for those watching: write to the players'"
                )
            author = viewer[0] if viewer is not None else None
            writer = viewer[1] if viewer is not None else clean_name(name) if name else "spectator"
        if author is not None and self.refusal is not None:
            refused = await self.refusal(author)
            if refused is not None:
                raise refused
        line = ChatLine(
            table_id, channel, seat, writer, text, phrase, table.status == PLAYING, self.core.clock(), player_id=author
        )
        kept = await tables.read(tables.store.add_chat, line, MAX_KEPT)
        if kept is None:
            raise ServiceError(ErrorCode.CHAT_FULL, f"this table's chat keeps {MAX_KEPT} lines, and has them all")
        line = replace(line, id=kept)
        hidden = channel == "spectators" and line.during_game
        message = envelope.Chat(dumps(outbound.chat(line_json(line))), author, spectators_only=hidden)
        await self.core.pubsub.publish(chat_channel(table_id), message)
        return line

    async def removed(self, table_id: str, line_id: int) -> None:
        """Tell the table's pages that a moderator removed a line."""
        await self.core.pubsub.publish(chat_channel(table_id), envelope.Chat(dumps(outbound.chat_removed(line_id))))

    async def lines(
        self, table_id: str, held: tuple[int, ...], hidden: frozenset[int] = frozenset()
    ) -> list[dict[str, Any]]:
        """The lines a page holding ``held`` may see: the spectators' lines written during
        the game are hidden from players until it is over; the lines of the accounts in
        ``hidden`` (those the reader blocked) never show."""
        tables = self.core.tables
        live = await tables.get(table_id)
        playing = live.table.status == PLAYING
        kept = await tables.read(tables.store.chat, table_id)
        return [
            line_json(line)
            for line in kept
            if (line.channel == "players" or not held or not playing) and line.player_id not in hidden
        ]
