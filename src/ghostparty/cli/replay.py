"""``ghostparty replay``: a recorded game, move by move, with its events in words."""

from __future__ import annotations

import json
import sys
from typing import TextIO

import click
from rich.console import Console

from ghostparty.rules import Event, GameRecord, InvalidRecord, position_to_dict
from ghostparty.rules.narrate import describe_action, narrate, seat_name


@click.command()
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--final/--no-final", default=False, help="Also print the final position as JSON.")
def replay(file: TextIO, final: bool) -> None:
    """Print the game recorded in FILE (a ghostparty-record/1 JSON file, '-' for stdin).

    A record that does not replay is rejected with the index and reason of its first
    bad action.
    """
    console = Console(highlight=False)
    try:
        data = json.load(file)
    except ValueError as error:
        raise click.ClickException(f"{file.name} is not JSON: {error}") from None
    try:
        record = GameRecord.from_dict(data)
    except InvalidRecord as error:
        console.print(f"[red]invalid record[/] {file.name}: {error}", markup=True)
        sys.exit(1)
    start = record.start
    console.print(
        f"[bold]{start.ruleset.name}[/], {start.players} players "
        f"({', '.join(seat_name(s) for s in range(start.players))}), "
        f"first player {seat_name(start.first_player)}" + (f", seed {record.seed}" if record.seed is not None else "")
    )
    per_action: list[list[Event]] = []
    positions = record.replay(per_action)
    for index, events in enumerate(per_action):
        lines = narrate(events) or [describe_action(record.actions[index])]
        console.print(f"[dim]{index + 1:4d}[/]  {lines[0]}", highlight=False)
        for line in lines[1:]:
            console.print(f"        {line}", markup=False)
    end = positions[-1]
    console.print(f"[bold]{end.describe()}[/]")
    if final:
        print(json.dumps(position_to_dict(end)))
