"""A position in a few lines of text: what the environments' ``render()`` returns."""

from __future__ import annotations

from ghostparty.rules import COLOURS, Position


def position_text(position: Position) -> str:
    """The one-line summary, then each seat's guests and points, e.g.::

    hugo 2p, move: seat 0 rolled 4, clock 24:00, Hugo on G3
      seat 0 red: G5 G9 R:chapel C10 | 12 points
      seat 1 blue: G1 G2 G20 G30 … | 10 points
    """
    board = position.ruleset.board
    lines = [position.describe()]
    waiting = [position.place_queue.count(seat) for seat in range(position.players)]
    for seat, locs in enumerate(position.guests):
        where = " ".join(board.name(loc) for loc in locs) or "-"
        to_place = f", {waiting[seat]} to place" if waiting[seat] else ""
        lines.append(f"  seat {seat} {COLOURS[seat]}: {where}{to_place} | {position.scores[seat]} points")
    return "\n".join(lines)
