"""What clients send to block, mute and report, and what moderators send (docs/PROTOCOL.md).

Lengths here only bound what is read; the texts' own rules (visible characters, no
control or format characters, their lengths) are :func:`ghostparty.server.community.blocks.checked_text`'s.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from ghostparty.server.common.ids import LIMIT
from ghostparty.server.http.schemas import Model

Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]
TableId = Annotated[str, StringConstraints(min_length=1, max_length=16)]
LineId = Annotated[int, Field(ge=1, lt=LIMIT)]
Said = Annotated[str, StringConstraints(max_length=1000)]


class BlockRequest(Model):
    """Block a player by name, or the writer of a chat line."""

    name: Name | None = None
    table: TableId | None = None
    line: LineId | None = None
    #: False: unblock (by name).
    blocked: bool = True


class MuteRequest(Model):
    channel: Literal["players", "spectators"]
    name: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    muted: bool = True


class ReportRequest(Model):
    """A report of a chat line (table and line) or of a player (name)."""

    reason: Annotated[str, StringConstraints(max_length=32)]
    text: Said = ""
    name: Name | None = None
    table: TableId | None = None
    line: LineId | None = None


class TimeoutRequest(Model):
    name: Name
    minutes: int
    reason: Said


class BanRequest(Model):
    name: Name
    what: Literal["chat", "rated"]
    days: int
    reason: Said


class RemoveLineRequest(Model):
    table: TableId
    line: LineId
    reason: Said


class CloseRequest(Model):
    reason: Said


class RenameRequest(Model):
    name: Name
    new_name: Name
    reason: Said
