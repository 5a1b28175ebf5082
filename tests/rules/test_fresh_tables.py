"""Boards and move tables made inside the test, checked against the reference model.

The engine makes its two boards once, at import, and each rule set's move tables once, at
their first use (``movegen.TABLES``); every other test reads those. These tests make new
ones from the same data and check every table against ``refmodel`` (RULES.md written out
again without the engine), so that a fault in how a board or a table is made shows even
in a process that holds tables made before (mutation testing runs each mutant so).
RULES.md §1.1–§1.3 (the boards), §4.1–§4.2 and §8.2 (where a guest may go), §5.1 (Hugo's path).
"""

from __future__ import annotations

import random

import pytest

from ghostparty import Game
from ghostparty.rules import HUGO_RULES, MIDNIGHT_PARTY, Board, Room, position_from_dict
from ghostparty.rules.actions import Move, Place
from ghostparty.rules.movegen import TABLES, MoveTables, _ByRuleset, movable_sources, room_occupants, targets

from . import refmodel
from .builders import hugo_pos, mp_pos

RULES = ["hugo", "midnight-party"]


def fresh_board(rules: str) -> Board:
    """A board made now from RULES.md's tables as the reference model transcribes them."""
    return Board(
        id=rules,
        rooms=tuple(Room(rid, door, shield) for rid, door, shield in refmodel.ROOMS[rules]),  # type: ignore[arg-type]
        steps=tuple(refmodel.STEPS[rules]),
        overflow=refmodel.OVERFLOW[rules],
        has_start=refmodel.HUGO_START[rules] == "START",
    )


def names_of(rules: str) -> list[str]:
    """FORMAT.md's locations in board order: the gallery, the rooms, the steps, START."""
    names = [f"G{sq}" for sq in range(refmodel.SQUARES)]
    names += [f"R:{rid}" for rid, _, _ in refmodel.ROOMS[rules]]
    names += [f"C{value}" for value in refmodel.STEPS[rules]]
    return names + (["START"] if refmodel.HUGO_START[rules] == "START" else [])


@pytest.mark.parametrize("rules", RULES)
def test_a_new_board_derives_every_table_from_its_data(rules: str) -> None:
    """§1.1–§1.3: locations, doors, shields, step values, the overflow step, Hugo's path."""
    board = fresh_board(rules)
    names = names_of(rules)
    rooms, steps = refmodel.ROOMS[rules], refmodel.STEPS[rules]
    assert list(board.names) == names
    assert board.index == {name: loc for loc, name in enumerate(names)}
    assert (board.room_base, board.step_base, board.size) == (40, 40 + len(rooms), len(names))
    assert board.start == (names.index("START") if "START" in names else -1)
    assert list(board.door) == [door for _, door, _ in rooms]
    for sq in range(40):
        rid = refmodel.room_at(rules, sq)
        assert board.room_at[sq] == (names.index(f"R:{rid}") if rid else -1), sq
    assert {names[loc] for loc in board.red} == {f"R:{rid}" for rid, _, shield in rooms if shield == "red"}
    assert {names[loc] for loc in board.green} == {f"R:{rid}" for rid, _, shield in rooms if shield == "green"}
    for loc, name in enumerate(names):
        assert board.step_value[loc] == (refmodel.step_value(name) if refmodel.is_step(name) else 0), name
        assert board.is_gallery(loc) == refmodel.is_gallery(name)
        assert board.is_room(loc) == refmodel.is_room(name)
        assert board.is_step(loc) == refmodel.is_step(name)
        if refmodel.is_room(name):
            assert board.room(loc).id == name[2:]
    for value in steps:
        assert board.step_location(value) == names.index(f"C{value}")
    assert names[board.overflow_loc] == f"C{refmodel.OVERFLOW[rules]}"
    assert names[board.hugo_start] == refmodel.HUGO_START[rules]
    assert list(board.room_locations) == [names.index(f"R:{rid}") for rid, _, _ in rooms]
    assert list(board.step_locations) == [names.index(f"C{value}") for value in steps]
    for loc, name in enumerate(names):
        if refmodel.is_room(name):
            assert board.hugo_next[loc] == loc  # never on his path
        else:
            assert names[board.hugo_next[loc]] == refmodel.hugo_path_next(rules, name), name


def _geometry(rules: str, source: str, roll: int) -> tuple[list[str], list[tuple[str, int]]]:
    """§4.1, §4.2.2: the squares a move of ``roll`` steps passes, and each door it passes
    with the step that would enter it (the door reached after step k-1), never its own room."""
    if refmodel.is_gallery(source):
        first = refmodel.square(source) + 1
        standing: list[int | None] = [refmodel.square(source)]
    else:
        first = refmodel.room_door(rules, source[2:]) if refmodel.is_room(source) else 0
        standing = [None]
    squares = [(first + i) % 40 for i in range(roll)]
    standing += squares[:-1]
    entries = []
    for k, sq in enumerate(standing, start=1):
        rid = refmodel.room_at(rules, sq) if sq is not None else None
        if rid is not None and f"R:{rid}" != source:
            entries.append((f"R:{rid}", k))
    return [f"G{sq}" for sq in squares], entries


@pytest.mark.parametrize("rules", RULES)
def test_a_new_board_makes_every_guest_path(rules: str) -> None:
    board = fresh_board(rules)
    names = names_of(rules)
    for loc, source in enumerate(names):
        for roll in range(6):
            path = board.path(loc, roll)
            if roll == 0 or source == "START":
                assert (path.squares, path.end, path.entries) == ((), -1, ()), (source, roll)
                continue
            squares, entries = _geometry(rules, source, roll)
            assert [names[sq] for sq in path.squares] == squares, (source, roll)
            assert names[path.end] == squares[-1]
            assert [(names[room], k) for room, k in path.entries] == entries, (source, roll)
    assert [len(paths) for paths in board.paths] == [6] * len(names)  # one per roll, 0 to 5


def test_a_door_may_stand_on_square_0() -> None:
    """§1.2 puts no door there, but a board is data: square 0 is a gallery square like any."""
    board = Board(id="tiny", rooms=(Room("den", 0),), steps=(5, 4), overflow=5, has_start=False, squares=6)
    assert board.room_at[0] == board.location("R:den")
    assert [(board.name(r), k) for r, k in board.path(board.location("C4"), 2).entries] == [("R:den", 2)]


def test_off_the_gallery_nothing_is_entered_before_the_first_step() -> None:
    """§4.1, §4.2: from a step or a room, the first step reaches G0 or the room's door, so a
    door on G1 is entered with step 3 from a step, and never with step 1."""
    board = Board(
        id="tiny", rooms=(Room("den", 1), Room("hall", 3)), steps=(5, 4), overflow=5, has_start=False, squares=6
    )
    names = board.name
    assert board.path(board.location("C4"), 2).entries == ()
    assert [(names(r), k) for r, k in board.path(board.location("C4"), 3).entries] == [("R:den", 3)]
    assert board.path(board.location("R:hall"), 2).entries == ()
    assert [(names(r), k) for r, k in board.path(board.location("R:den"), 4).entries] == [("R:hall", 4)]


def _positions(rules: str, source: str, roll: int) -> list[dict]:
    """Positions with seat 0's guest on ``source`` and the rooms empty, held by seat 1
    (the first six), or held by seat 0 (its other five guests)."""
    rooms = [f"R:{rid}" for rid, _, _ in refmodel.ROOMS[rules]]
    pos = hugo_pos if rules == "hugo" else mp_pos
    hugo = "G38" if source != "G38" else "G37"
    fill = ["G39"] * 5
    others = [r for r in rooms if r != source]
    found = [
        pos([[source, *fill], ["G39"] * 6], roll=roll, hugo=hugo),
        pos([[source, *fill], others[:6]], roll=roll, hugo=hugo),
        pos([[source, *others[-5:]], ["G39"] * 6], roll=roll, hugo=hugo),
    ]
    # §4.2.1: Hugo in the cellar, no room may be entered
    cellar = {"hugo": refmodel.HUGO_START[rules]} | ({"clock": "23:45"} if rules == "hugo" else {})
    found.append(pos([[source, *fill], ["G39"] * 6], roll=roll, **cellar))
    return found


@pytest.mark.parametrize("rules", RULES)
def test_new_move_tables_give_the_reference_targets(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """§4.1, §4.2, §8.2: from every location and roll, with rooms empty, held by another
    seat or by the mover, the targets of move tables made now are the reference model's."""
    ruleset = HUGO_RULES if rules == "hugo" else MIDNIGHT_PARTY
    monkeypatch.setitem(TABLES, ruleset, MoveTables.build(ruleset))  # type: ignore[index]
    board = ruleset.board
    for source in names_of(rules):
        if source == "START" or (rules == "midnight-party" and not refmodel.is_gallery(source)):
            continue
        for roll in (1, 2, 4, 5):
            for data in _positions(rules, source, roll):
                position = position_from_dict(data)
                expected = refmodel.move_targets(data, source)
                found = [board.names[t] for t in targets(position, board.location(source))]
                assert found == expected, (source, roll, data["guests"], data["hugo"])
                moves = [a for a in Game.from_position(data).legal_actions() if a.get("from") == source]
                assert moves == [{"from": source, "to": t} for t in expected]


@pytest.mark.parametrize("rules", RULES)
def test_new_move_tables_hold_every_action_once(rules: str) -> None:
    ruleset = HUGO_RULES if rules == "hugo" else MIDNIGHT_PARTY
    tables = MoveTables.build(ruleset)
    names = names_of(rules)
    assert [[(m.source, m.target) for m in row] for row in tables.moves] == [[(a, b) for b in names] for a in names]
    assert all(tables.moves[a][b] is Move(names[a], names[b]) for a in range(len(names)) for b in (0, 39))
    assert [p.square for p in tables.places] == [f"G{sq}" for sq in range(40)]
    assert tables.squares == {Place(f"G{sq}"): sq for sq in range(40)}
    assert len(tables.locations) == len(names) ** 2
    assert all(tables.locations[Move(names[a], names[b])] == (a, b) for a in range(len(names)) for b in (0, 5, 45))
    for roll in range(6):
        for source in range(len(names)):
            end = ruleset.board.path(source, roll).end
            assert tables.end_squares[roll][source] == end
            assert tables.ends[roll][source] is tables.moves[source][max(end, 0)]


def test_tables_are_made_on_first_use_and_kept() -> None:
    tables = _ByRuleset()
    assert HUGO_RULES not in tables
    made = tables[HUGO_RULES]
    assert isinstance(made, MoveTables)
    assert tables[HUGO_RULES] is made and list(tables) == [HUGO_RULES]
    assert made.end_squares == TABLES[HUGO_RULES].end_squares


@pytest.mark.parametrize(("rules", "players", "seed"), [("hugo", 3, 11), ("midnight-party", 4, 12)])
def test_sources_and_room_occupants_in_whole_games(rules: str, players: int, seed: int) -> None:
    """§4.1 (only the highest step of the player's guests moves), §8.2 (only gallery guests
    move where rooms hold): the movable sources and who sits in each room, at every move."""
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over:
        if game.state.phase == "roll":
            game.roll()
            continue
        data = game.position()
        position = game.state
        board = position.ruleset.board
        if data["phase"] == "move":
            assert [board.names[s] for s in movable_sources(position)] == refmodel.move_sources(data)
            checked += 1
        expected = [refmodel.room_holder(data, name) for name in board.names[board.room_base : board.step_base]]
        assert room_occupants(position) == [-1 if seat is None else seat for seat in expected]
        game.push(rng.choice(game.actions()))
    assert checked > 20
