"""The time bank of real-time timed tables: a few extra seconds per person and game.

At a table with a limit per decision below :data:`~ghostparty.server.common.model.TURN_BASED_FROM`, each person
has, on top of every decision's ``turn_seconds``, a bank for the whole game:
:func:`full_bank` seconds (a minute, or one decision's time if that is longer; at most
four decisions' time). When a decision's own seconds run out the bank drains; only
when both are spent does the table's bot take over (the person is marked away). Every
decision or roll the person takes themselves gives :data:`INCREMENT` seconds back,
never above the full bank. A seat keeps what is left (``Seat.bank``, stored with the
seat, ``None`` while full), so a restart or another instance goes on from it. Bots,
untimed and turn-based tables have no bank, nor have a bot ladder's tables (``Table.deal``
set): there every decision has exactly ``turn_seconds``.

A decision's time runs from the table's last change (``Table.updated``), as the deadline
always has: another seat's change meanwhile (marked away or back) starts the mover's
decision afresh, and what it had drawn from its bank so far is not charged.
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, timedelta

from ghostparty.server.common.model import PLAYING, Seat, Table

#: The bank of a table of a minute or less a decision (shorter tables: four decisions' time).
MIN_BANK = 60
#: Seconds given back to the bank for each decision a person takes themselves.
INCREMENT = 5


def full_bank(table: Table) -> int | None:
    """The seconds each person's bank holds at the start of a game; ``None``: no bank."""
    if table.turn_seconds is None or table.turn_based or table.deal is not None:
        return None
    return min(4 * table.turn_seconds, max(MIN_BANK, table.turn_seconds))


def bank_left(table: Table, seat: Seat) -> int | None:
    """The seconds left in ``seat``'s bank at the start of its current or next decision."""
    full = full_bank(table)
    if full is None or seat.kind != "human":
        return None
    return full if seat.bank is None else seat.bank


def turn_clock(table: Table) -> tuple[datetime, datetime] | None:
    """For the person to move: when the decision's own seconds run out (the bank starts
    to drain) and when the bank does too (the bot takes over); ``None`` if no time runs."""
    if table.status != PLAYING or table.to_move is None or table.turn_seconds is None:
        return None
    mover = table.seats[table.to_move]
    if mover.played_by_bot:
        return None
    own = table.updated + timedelta(seconds=table.turn_seconds)
    return own, own + timedelta(seconds=bank_left(table, mover) or 0)


def after_decision(table: Table, seat: int, moment: datetime) -> Table:
    """``table`` with ``seat``'s bank once it took a decision at ``moment`` (the decision
    began at ``table.updated``): the seconds over the decision's own drawn from the bank,
    :data:`INCREMENT` given back. Unchanged where the seat has no bank or a bot played."""
    held = table.seats[seat]
    full = full_bank(table)
    left = bank_left(table, held)
    if full is None or left is None or held.away or table.turn_seconds is None:
        return table
    over = max(0.0, (moment - table.updated).total_seconds() - table.turn_seconds)
    bank = min(full, max(0, math.floor(left - over)) + INCREMENT)
    if bank == left:
        return table
    return table.with_seat(replace(held, bank=None if bank == full else bank))


def spent(table: Table, seat: int) -> Table:
    """``table`` with ``seat``'s bank empty (its time ran out)."""
    held = table.seats[seat]
    if bank_left(table, held) is None:
        return table
    return table.with_seat(replace(held, bank=0))
