"""Who sits where in ``ghostparty play``: seat numbers and colours, people and bots."""

from __future__ import annotations

from collections.abc import Sequence

import click

from ghostparty.bots import bot_names
from ghostparty.rules import COLOURS
from ghostparty.rules.rulesets import MAX_PLAYERS

#: A seat played by a person at the terminal.
HUMAN = "human"


def parse_seat_number(text: str) -> int:
    """A seat by number (``0`` … ``7``) or colour (``red``, ``blue`` …).

    :raises ValueError: for anything else.
    """
    word = text.strip().lower()
    if word.isdigit() and int(word) < MAX_PLAYERS:
        return int(word)
    if word in COLOURS:
        return COLOURS.index(word)
    raise ValueError(f"{text!r} is not a seat: use 0 to {MAX_PLAYERS - 1} or a colour ({', '.join(COLOURS)})")


class SeatNumber(click.ParamType[int, object]):
    """A seat given as a number or a colour."""

    name = "SEAT"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return parse_seat_number(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


class SeatSpec(click.ParamType[tuple[int, str], object]):
    """``SEAT=WHO``: a seat (number or colour) and ``human`` or a bot level."""

    name = "SEAT=WHO"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, str]:
        if isinstance(value, tuple):
            return value
        seat_text, sep, who = str(value).partition("=")
        who = who.strip().lower()
        kinds = [HUMAN, *bot_names()]
        if not sep or who not in kinds:
            self.fail(f"{value!r}: expected SEAT=WHO with WHO one of {', '.join(kinds)}, e.g. 0=human", param, ctx)
        try:
            return parse_seat_number(seat_text), who
        except ValueError as error:
            self.fail(str(error), param, ctx)


def seat_plan(players: int, humans: int, specs: Sequence[tuple[int, str]], bot: str) -> list[str]:
    """Who plays each seat: seats 0 … humans-1 are people, ``specs`` override single
    seats, every other seat is a ``bot``.

    :raises click.UsageError: for a seat beyond the players or too many people.
    """
    if humans > players:
        raise click.UsageError(f"--humans {humans}: there are only {players} players")
    plan = [HUMAN if seat < humans else bot for seat in range(players)]
    for seat, who in specs:
        if seat >= players:
            raise click.UsageError(f"--seat {seat}={who}: there are only {players} players (seats 0 to {players - 1})")
        plan[seat] = who
    return plan


def seat_labels(plan: Sequence[str]) -> list[str]:
    """Labels for the scores table: ``you`` when one person plays, else ``human``; bot levels."""
    people = plan.count(HUMAN)
    return [("you" if people == 1 else "human") if who == HUMAN else who for who in plan]
