"""``ghostparty review`` of many records at once, on local processes or a Dask cluster."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ghostparty.analysis.review.batch import review_file
from ghostparty.cli.analyze_run import jobs_of, running
from ghostparty.rules.narrate import seat_name


def record_files(names: Sequence[str]) -> list[str]:
    """The files named, a folder standing for its ``*.json`` files (sorted); a usage
    error for a name that is neither."""
    found: list[str] = []
    for name in names:
        if os.path.isdir(name):
            found.extend(sorted(os.path.join(name, entry) for entry in os.listdir(name) if entry.endswith(".json")))
        elif os.path.isfile(name):
            found.append(name)
        else:
            raise click.UsageError(f"{name}: no such file or folder")
    if not found:
        raise click.UsageError(f"no game records (*.json) in {', '.join(names)}")
    return found


def review_many(
    names: Sequence[str],
    *,
    depth: int,
    horizon: int,
    jobs: int,
    dask: str | None,
    as_json: bool,
    rollouts: int | None = None,
) -> None:
    """Review every record of ``names``; a line a game (ndjson with ``as_json``). Files
    that are no records are listed and make the exit status 1; the others are reviewed.
    With ``rollouts``, the deep review with that many rollouts an action."""
    console = Console(highlight=False, stderr=as_json)
    files = record_files(names)
    jobs = min(jobs_of(jobs, dask), len(files))
    reviews: list[dict[str, Any]] = []
    with running(console, len(files), "reviewing", jobs, True, dask) as (pool, advance):
        for reviewed in pool.map(review_file, [(name, depth, horizon, rollouts) for name in files], advance):
            reviews.append(reviewed)
            if as_json:
                sys.stdout.write(json.dumps(reviewed) + "\n")
                sys.stdout.flush()
    failed = [r for r in reviews if "error" in r]
    if not as_json:
        _table(console, [r for r in reviews if "error" not in r])
    for bad in failed:
        console.print(f"[red]{escape(bad['source'])}[/]: {escape(bad['error'])}")
    cpu = sum(r["stats"].get("cpu_seconds", 0.0) for r in reviews if "error" not in r)
    console.print(f"{len(reviews) - len(failed)} of {len(reviews)} games reviewed in {cpu:.1f} s of CPU")
    if failed:
        sys.exit(1)


def _table(console: Console, reviews: list[dict[str, Any]]) -> None:
    table = Table(title="accuracy · PR per seat (100 · 0 is every decision best)")
    for column in ("game", "rules", "actions", "winners", "per seat"):
        table.add_column(column)
    for reviewed in reviews:
        seats = "  ".join(
            f"{seat_name(p['seat'])} {_num(p['accuracy'])} · {_num(p['pr'])}" for p in reviewed["players_review"]
        )
        winners = ", ".join(seat_name(s) for s in reviewed["winners"]) or "—"
        table.add_row(
            escape(os.path.basename(reviewed["source"])),
            f"{reviewed['rules']} {reviewed['players']}p",
            str(len(reviewed["steps"])),
            winners,
            seats,
        )
    console.print(table)


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"
