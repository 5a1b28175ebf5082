"""A tournament's games as CSV: one row per game, for spreadsheets and pandas."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import TextIO

from ghostparty.sim.tournament import GameResult, TournamentResult

__all__ = ["csv_header", "csv_rows", "write_csv"]


def csv_header(players: int) -> list[str]:
    """The CSV columns: ``game, seed, rotation, bot_0 …, score_0 …, winners, actions,
    decisions_0 …, think_ms_0 …``."""
    seats = range(players)
    return [
        "game",
        "seed",
        "rotation",
        *(f"bot_{s}" for s in seats),
        *(f"score_{s}" for s in seats),
        "winners",
        "actions",
        *(f"decisions_{s}" for s in seats),
        *(f"think_ms_{s}" for s in seats),
    ]


def csv_rows(games: Iterable[GameResult], rotations: int | None = None) -> Iterator[list[str | int]]:
    """One row per game, matching :func:`csv_header`; ``winners`` are seat numbers
    separated by spaces. ``rotation`` is ``index % rotations`` (default: the players)."""
    for game in games:
        yield [
            game.index,
            game.seed,
            game.index % (rotations or game.players),
            *game.lineup,
            *game.scores,
            " ".join(map(str, game.winners)),
            game.actions,
            *game.decisions,
            *(f"{t * 1000:.3f}" for t in game.think),
        ]


def write_csv(result: TournamentResult, file: TextIO) -> None:
    """Write the header and one row per game of ``result`` to ``file`` (opened with ``newline=""``)."""
    writer = csv.writer(file)
    writer.writerow(csv_header(result.config.players))
    writer.writerows(csv_rows(result.games, result.config.rotations))
