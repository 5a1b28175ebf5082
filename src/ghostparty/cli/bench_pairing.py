"""``ghostparty bench --pairing``: CPU time of one Swiss round and one arena pass over a
big field (:mod:`ghostparty.sim.pairing_bench`), as a table or JSON."""

from __future__ import annotations

import json
import statistics

import click
from rich.console import Console
from rich.table import Table

from ghostparty.sim.bench import machine
from ghostparty.sim.pairing_bench import PASSES, PairingTime, arena_pass, swiss_round
from ghostparty.tournaments import TABLE_SIZES


def bench_pairing(console: Console, sizes: tuple[int, ...], entrants: int, seed: int, as_json: bool) -> None:
    """Time both kinds of pass for every table size and print the results."""
    wrong = [s for s in sizes if s not in TABLE_SIZES]
    if wrong:
        raise click.BadParameter(
            f"tournament tables seat {TABLE_SIZES[0]} to {TABLE_SIZES[-1]} players, got {wrong[0]}",
            param_hint="--players",
        )
    if entrants < max(sizes or TABLE_SIZES):
        raise click.BadParameter(f"need at least a table's worth of players, got {entrants}", param_hint="--entrants")
    results: list[PairingTime] = []
    with console.status("timing the pairing") as status:
        for size in sizes or TABLE_SIZES:
            status.update(f"{entrants:,} players, tables of {size}: a Swiss round")
            results.append(swiss_round(size, entrants, seed))
            status.update(f"{entrants:,} players, tables of {size}: an arena pass")
            results.append(arena_pass(size, entrants, seed))
    if as_json:
        print(json.dumps([x.to_dict() for x in results], indent=2))
        return
    table = Table(title=f"tournament pairing, CPU ms per pass, one core — {machine()}")
    for column in ("pass", "per table", "players", "tables", "repeats", "median CPU ms", "max CPU ms", "wall ms"):
        table.add_column(column, justify="left" if column == "pass" else "right")
    for x in results:
        table.add_row(
            "Swiss round" if x.kind == "swiss" else "arena pass",
            str(x.table_size),
            f"{x.entrants:,}",
            f"{x.tables:,}",
            str(x.repeats),
            f"{statistics.median(x.cpu_ms):.1f}",
            f"{max(x.cpu_ms):.1f}",
            f"{statistics.median(x.wall_ms):.1f}",
        )
    console.print(table)
    console.print(
        f"{PASSES} passes each. Swiss: round 5 after four rounds of random places (score groups, byes, "
        "table-mates to avoid); arena: everyone free again after one game. repeats: table-mates seated together "
        "again (Swiss: anyone met before; arena: last game's opponents)."
    )
