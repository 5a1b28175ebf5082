"""A position drawn with rich: the gallery, the rooms, the cellar steps and the scores.

Pure formatting, no I/O: :func:`render` turns a :class:`~ghostparty.rules.Position`
into a rich renderable, :func:`render_text` into plain text (for tests and logs).
Each seat has a colour (RULES.md §1.5) and a letter, so the board also reads without
colour: R red, B blue, T turquoise, Y yellow, K black, G green, W white, P purple.

The gallery is drawn row by row, ten squares a row (narrower squares below 99
columns, five a row below 79), in clockwise order; each square shows its number, Hugo, the room whose door it is (or
the arrow on square 0) and the guests standing on it.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ghostparty.rules import COLOURS, MOVE, OVER, PLACE, ROLL, Position
from ghostparty.rules.board import Room

#: Terminal style per seat colour; black and white are made readable on any background.
SEAT_STYLES: dict[str, str] = {
    "red": "bold red",
    "blue": "bold bright_blue",
    "turquoise": "bold cyan",
    "yellow": "bold yellow",
    "black": "bold bright_black",
    "green": "bold green",
    "white": "bold bright_white",
    "purple": "bold magenta",
}
#: One letter per seat colour (K for black, as blue takes B).
SEAT_LETTERS: dict[str, str] = {
    "red": "R",
    "blue": "B",
    "turquoise": "T",
    "yellow": "Y",
    "black": "K",
    "green": "G",
    "white": "W",
    "purple": "P",
}
SHIELD_STYLES: dict[str, str] = {"red": "bold red", "green": "bold green", "neutral": "cyan"}
HUGO_STYLE = "bold reverse"
#: Width of one gallery square (on a console narrower than :data:`WIDE`: 7 or, below
#: :data:`MEDIUM`, 9 with five squares a row).
CELL_WIDTH = 9
WIDE = 10 * CELL_WIDTH + 9
MEDIUM = 10 * 7 + 9


def seat_colour(seat: int) -> str:
    """The seat's colour name, e.g. ``"turquoise"`` for seat 2."""
    return COLOURS[seat]


def seat_letter(seat: int) -> str:
    """The seat's letter, e.g. ``"K"`` for seat 4 (black)."""
    return SEAT_LETTERS[COLOURS[seat]]


def seat_style(seat: int) -> str:
    """The rich style of the seat's colour."""
    return SEAT_STYLES[COLOURS[seat]]


def seat_tag(seat: int, label: str = "") -> Text:
    """``"R red"`` in red; with a label, ``"R red (you)"``."""
    text = Text(f"{seat_letter(seat)} {seat_colour(seat)}", style=seat_style(seat))
    if label:
        text.append(f" ({label})", style="default")
    return text


def guest_marks(seats: Sequence[int], width: int = CELL_WIDTH) -> Text:
    """The guests of ``seats`` (one entry per guest) as coloured letters within ``width``.

    ``[0, 0, 1]`` gives ``"R R B"``, or ``"RRB"`` when spaced letters do not fit, or
    counts such as ``"R6B4"`` when even that does not fit.
    """
    letters = [(seat_letter(s), seat_style(s)) for s in seats]
    text = Text()
    if 2 * len(letters) - 1 <= width:
        for i, (letter, style) in enumerate(letters):
            text.append((" " if i else "") + letter, style=style)
    elif len(letters) <= width:
        for letter, style in letters:
            text.append(letter, style=style)
    else:
        for seat, count in sorted(Counter(seats).items()):
            text.append(f"{seat_letter(seat)}{count}", style=seat_style(seat))
    return text


def room_label(room: Room, width: int = CELL_WIDTH) -> str:
    """A room's name cut to ``width``: ``"portrait"`` for ``portrait-hall``."""
    name = room.id if len(room.id) <= width else room.id.split("-")[0]
    return name if len(name) <= width else name[: width - 1] + "…"


def room_name(room: Room) -> str:
    """A room's name in words: ``"portrait hall"``."""
    return room.id.replace("-", " ")


def _hugo_place(position: Position) -> str:
    board = position.ruleset.board
    if position.hugo == board.start:
        return "at the cellar door (START)"
    if board.is_step(position.hugo):
        return f"on cellar step {board.name(position.hugo)}"
    return f"on {board.name(position.hugo)}"


# -- the gallery -------------------------------------------------------------------


def square_cell(position: Position, square: int, width: int = CELL_WIDTH) -> Text:
    """One gallery square in three lines: number and Hugo, door or arrow, guests."""
    board = position.ruleset.board
    cell = Text()
    cell.append(f"{square:>2}", style="bold" if square % 5 == 0 else "dim")
    if position.hugo == square:
        cell.append(" ")
        cell.append("HUGO", style=HUGO_STYLE)
    cell.append("\n")
    room = board.room_at[square]
    if square == 0:
        cell.append("↑ arrow", style="bold")
    elif room >= 0:
        shield = board.room(room).shield
        cell.append(room_label(board.room(room), width), style=SHIELD_STYLES[shield])
    cell.append("\n")
    cell.append_text(guest_marks(position.guests_at(square), width))
    return cell


def gallery_shape(width: int) -> tuple[int, int]:
    """Squares per row and the width of a square for a console ``width`` columns wide."""
    if width >= WIDE:
        return 10, CELL_WIDTH
    if width >= MEDIUM:
        return 10, 7
    return 5, CELL_WIDTH


def gallery(position: Position, per_row: int = 10, cell_width: int = CELL_WIDTH) -> Table:
    """The 40 squares, ``per_row`` to a row, clockwise row after row."""
    board = position.ruleset.board
    table = Table(box=box.SQUARE, show_header=False, show_edge=False, show_lines=True, padding=0, border_style="dim")
    for _ in range(per_row):
        table.add_column(width=cell_width, no_wrap=True, overflow="crop")
    for start in range(0, board.squares, per_row):
        row = [square_cell(position, sq, cell_width) for sq in range(start, min(start + per_row, board.squares))]
        table.add_row(*row)
    return table


# -- rooms, cellar, scores --------------------------------------------------------------


def _table(title: str) -> Table:
    return Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1), title_style="bold", pad_edge=False, show_edge=False)


def rooms_table(position: Position) -> Table:
    """Every room in board order, its shield's points beside its name, its door square
    and the guest inside."""
    board = position.ruleset.board
    rules = position.ruleset
    table = _table("rooms")
    table.add_column("room", no_wrap=True)
    table.add_column("door", no_wrap=True)
    table.add_column("guest", no_wrap=True)
    points = {"red": f" {rules.red_points:+d}", "green": f" {rules.green_points:+d}"}
    for loc in board.room_locations:
        room = board.room(loc)
        occupant = position.occupant(loc)
        table.add_row(
            Text(room_name(room) + points.get(room.shield, ""), style=SHIELD_STYLES[room.shield]),
            f"G{room.door}",
            Text(seat_letter(occupant), style=seat_style(occupant)) if occupant >= 0 else Text("—", style="dim"),
        )
    return table


def cellar_table(position: Position) -> Table:
    """The cellar steps, top step first, with the guests captured on each and Hugo."""
    board = position.ruleset.board
    table = _table("cellar")
    table.add_column("step", no_wrap=True)
    table.add_column("guests")
    rows = [board.step_location(value) for value in reversed(board.steps)]
    if board.start >= 0:
        rows.append(board.start)
    for loc in rows:
        marks = guest_marks(position.guests_at(loc), width=12)
        if position.hugo == loc:
            marks = Text.assemble(Text("HUGO", style=HUGO_STYLE), " ", marks)
        table.add_row(Text(board.name(loc), style="bold" if board.is_step(loc) else "dim"), marks)
    return table


def scores_table(position: Position, players: Sequence[str] = ()) -> Table:
    """One row per seat: who plays it and the score; per round in ``midnight-party``.

    ``players`` labels the seats (``"you"``, ``"random"`` …); the seat to move is
    marked with ``▶``, the winners of a finished game with ``★``.
    """
    rules = position.ruleset
    table = _table("spooky points" if rules.scores_during_play else "points")
    table.add_column("", no_wrap=True)
    table.add_column("player", no_wrap=True)
    table.add_column("", overflow="ellipsis", no_wrap=True, style="dim")
    if not rules.scores_during_play:
        for number in range(1, rules.rounds + 1):
            table.add_column(f"R{number}", justify="right", no_wrap=True)
    table.add_column("score" if rules.scores_during_play else "total", justify="right", no_wrap=True)
    winners = set(position.winners)
    for seat in range(position.players):
        if position.phase == OVER:
            mark = Text("★", style="bold yellow") if seat in winners else Text("")
        else:
            mark = Text("▶", style="bold") if seat == position.to_move else Text("")
        cells: list[Text | str] = [mark, seat_tag(seat), players[seat] if seat < len(players) else ""]
        if not rules.scores_during_play:
            cells += [
                f"{position.round_scores[r][seat]:+d}" if r < len(position.round_scores) else "·"
                for r in range(rules.rounds)
            ]
        cells.append(Text(str(position.scores[seat]), style="bold"))
        table.add_row(*cells)
    return table


# -- the header and the whole board ------------------------------------------------------


def turn_text(position: Position) -> Text:
    """Whose turn and the phase, e.g. ``"B blue to roll"``."""
    seat = position.to_move
    text = Text("▶ ")
    if position.phase == OVER:
        names = " and ".join(seat_colour(s) for s in position.winners)
        text.append(f"game over — {'winner' if len(position.winners) == 1 else 'winners'}: {names}", style="bold")
        return text
    text.append_text(seat_tag(seat))
    if position.phase == PLACE:
        left = len(position.place_queue)
        text.append(f" places a guest ({left} still to place)")
    elif position.phase == ROLL:
        text.append(" to roll")
    elif position.phase == MOVE:
        text.append(f" rolled {position.roll}: moves a guest")
    return text


def header(position: Position) -> Text:
    """The rule set, the clock or round, Hugo's speed and place, whose turn it is."""
    rules = position.ruleset
    text = Text(rules.name, style="bold")
    if position.clock_time is not None:
        text.append(f"   clock {position.clock_time}")
    else:
        text.append(f"   round {position.round} of {rules.rounds}")
    if position.phase != OVER:
        text.append(f" · Hugo moves {position.hugo_speed}")
    text.append(f" · Hugo {_hugo_place(position)}")
    text.append("\n")
    text.append_text(turn_text(position))
    return text


def render(position: Position, players: Sequence[str] = (), width: int = 100) -> RenderableType:
    """The whole board for a console ``width`` columns wide: header, gallery, then the
    rooms, the cellar and the scores side by side (the scores below them when narrow).

    ``players`` labels the seats in the scores table (``"you"``, ``"random"`` …).
    """
    lower = Table.grid(padding=(0, 2))
    tables = [rooms_table(position), cellar_table(position)]
    scores = scores_table(position, players)
    if width >= WIDE:
        lower.add_row(*tables, scores)
        below: list[RenderableType] = [lower]
    else:
        lower.add_row(*tables)
        below = [lower, scores]
    return Group(header(position), gallery(position, *gallery_shape(width)), Text(""), *below)


def render_text(position: Position, players: Sequence[str] = (), width: int = 100) -> str:
    """:func:`render` as plain text, ``width`` columns wide (no colour)."""
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(render(position, players, width))
    return console.export_text()
