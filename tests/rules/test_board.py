"""RULES.md §1.1–§1.3: the gallery, the rooms and the cellar steps of both board sides."""

from __future__ import annotations

import pytest

from ghostparty.rules import HUGO_BOARD, MIDNIGHT_PARTY_BOARD, Board, Room

# RULES.md §1.2, transcribed from its tables.
HUGO_ROOMS = [
    ("library", 2, "neutral"),
    ("fireplace", 3, "neutral"),
    ("chapel", 8, "neutral"),
    ("tower", 13, "neutral"),
    ("armory", 17, "red"),
    ("portrait-hall", 22, "neutral"),
    ("ballroom", 26, "green"),
    ("banquet-hall", 31, "green"),
    ("bedchamber", 35, "neutral"),
]
MP_ROOMS = [
    ("library", 2, "neutral"),
    ("fireplace", 3, "neutral"),
    ("chapel", 7, "neutral"),
    ("abandoned-room", 11, "red"),
    ("tower", 14, "neutral"),
    ("armory", 18, "red"),
    ("portrait-hall", 22, "neutral"),
    ("ballroom", 25, "green"),
    ("banquet-hall", 29, "green"),
    ("bedchamber", 33, "neutral"),
    ("music-room", 36, "neutral"),
]
BOARDS = [
    pytest.param(HUGO_BOARD, HUGO_ROOMS, [10, 9, 8, 7, 6, 5, 4, 3], 10, "START", id="hugo"),
    pytest.param(MIDNIGHT_PARTY_BOARD, MP_ROOMS, [10, 9, 8, 7, 6, 5, 4, 3, 2], 2, "C10", id="midnight-party"),
]


@pytest.mark.parametrize(("board", "rooms", "steps", "overflow", "start"), BOARDS)
def test_board_tables_match_rules(board: Board, rooms: list, steps: list[int], overflow: int, start: str) -> None:
    """§1.1–§1.3: 40 squares, the room table, the steps from the bottom, overflow, Hugo's start."""
    assert board.squares == 40
    assert [(r.id, r.door, r.shield) for r in board.rooms] == rooms
    assert list(board.steps) == steps
    assert board.overflow == overflow
    assert board.name(board.hugo_start) == start
    assert board.name(board.overflow_loc) == f"C{overflow}"


@pytest.mark.parametrize(("board", "rooms", "steps", "overflow", "start"), BOARDS)
def test_location_names_round_trip(board: Board, rooms: list, steps: list[int], overflow: int, start: str) -> None:
    expected = [f"G{i}" for i in range(40)] + [f"R:{r[0]}" for r in rooms] + [f"C{v}" for v in steps]
    expected += ["START"] if start == "START" else []
    names = [board.name(loc) for loc in range(board.size)]
    assert sorted(names) == sorted(expected)
    assert len(set(names)) == len(names)
    for name in expected:
        loc = board.location(name)
        assert board.name(loc) == name
        assert board.is_gallery(loc) == name.startswith("G")
        assert board.is_room(loc) == name.startswith("R:")
        assert board.is_step(loc) == (name.startswith("C"))


@pytest.mark.parametrize(
    ("board", "name"),
    [
        (HUGO_BOARD, "R:music-room"),  # §1.2: only on the midnight-party side
        (HUGO_BOARD, "R:abandoned-room"),
        (HUGO_BOARD, "C2"),  # §1.3: the hugo steps end at 3
        (HUGO_BOARD, "C11"),
        (HUGO_BOARD, "G40"),
        (HUGO_BOARD, "G-1"),
        (MIDNIGHT_PARTY_BOARD, "START"),  # Hugo starts on step 10 there
        (MIDNIGHT_PARTY_BOARD, "C1"),
        (MIDNIGHT_PARTY_BOARD, "g1"),
        (MIDNIGHT_PARTY_BOARD, "R:Library"),
    ],
)
def test_unknown_locations(board: Board, name: str) -> None:
    with pytest.raises(KeyError):
        board.location(name)


@pytest.mark.parametrize(
    ("board", "path"),
    [
        (HUGO_BOARD, ["START", "C10", "C9", "C8", "C7", "C6", "C5", "C4", "C3", "G0"]),
        (MIDNIGHT_PARTY_BOARD, ["C10", "C9", "C8", "C7", "C6", "C5", "C4", "C3", "C2", "G0"]),
    ],
    ids=["hugo", "midnight-party"],
)
def test_hugo_climbs_nine_points_then_circles_clockwise(board: Board, path: list[str]) -> None:
    """§1.3: from his start through every step, top step last, then square 0: 9 points on both boards."""
    loc = board.hugo_start
    walked = [board.name(loc)]
    for _ in range(9):
        loc = board.hugo_next[loc]
        walked.append(board.name(loc))
    assert walked == path
    # §1.1: clockwise round the gallery, 39 followed by 0
    for sq in range(40):
        assert board.name(board.hugo_next[board.location(f"G{sq}")]) == f"G{(sq + 1) % 40}"


@pytest.mark.parametrize("board", [HUGO_BOARD, MIDNIGHT_PARTY_BOARD], ids=["hugo", "midnight-party"])
def test_two_rooms_reachable_from_the_cellar_with_a_4_or_5(board: Board) -> None:
    """§1.2: the layouts honour "two rooms reachable from the cellar with a 4 or a 5".

    From a step, step 1 reaches G0, so a door on square d is reached with step d+1 and
    entered with step d+2: a 5 reaches the rooms with doors on squares 0 to 3.
    """
    cellar = board.location("C10")
    reachable = {board.name(room) for room, _ in board.path(cellar, 5).entries}
    assert reachable == {"R:library", "R:fireplace"}
    assert {board.name(room) for room, _ in board.path(cellar, 4).entries} == {"R:library"}
    assert not board.path(cellar, 2).entries


def test_guest_paths_are_geometry_only() -> None:
    """§4.1: the three ways a path starts; §4.2.2 a guest never re-enters its own room."""
    b = HUGO_BOARD
    names = b.name
    # gallery, wrapping past 39; standing on no door, the library (door 2) is entered with step 5
    path = b.path(b.location("G38"), 5)
    assert [names(sq) for sq in path.squares] == ["G39", "G0", "G1", "G2", "G3"]
    assert names(path.end) == "G3"
    assert [(names(r), k) for r, k in path.entries] == [("R:library", 5)]
    # standing on a door: entry with step 1
    path = b.path(b.location("G8"), 2)
    assert [(names(r), k) for r, k in path.entries] == [("R:chapel", 1)]
    # a room's step 1 is its door; its own room is never an entry, the fireplace is step 3
    path = b.path(b.location("R:library"), 4)
    assert [names(sq) for sq in path.squares] == ["G2", "G3", "G4", "G5"]
    assert [(names(r), k) for r, k in path.entries] == [("R:fireplace", 3)]
    # any step starts at G0
    for step in ("C10", "C3"):
        path = b.path(b.location(step), 4)
        assert [names(sq) for sq in path.squares] == ["G0", "G1", "G2", "G3"]
        assert [(names(r), k) for r, k in path.entries] == [("R:library", 4)]


def test_shield_sets() -> None:
    assert {HUGO_BOARD.name(r) for r in HUGO_BOARD.red} == {"R:armory"}
    assert {HUGO_BOARD.name(r) for r in HUGO_BOARD.green} == {"R:ballroom", "R:banquet-hall"}
    assert {MIDNIGHT_PARTY_BOARD.name(r) for r in MIDNIGHT_PARTY_BOARD.red} == {"R:abandoned-room", "R:armory"}
    assert {MIDNIGHT_PARTY_BOARD.name(r) for r in MIDNIGHT_PARTY_BOARD.green} == {"R:ballroom", "R:banquet-hall"}


def test_step_values() -> None:
    for board in (HUGO_BOARD, MIDNIGHT_PARTY_BOARD):
        for value in board.steps:
            assert board.step_value[board.location(f"C{value}")] == value
            assert board.step_location(value) == board.location(f"C{value}")
        assert board.step_value[board.location("G5")] == 0
        assert board.step_value[board.location("R:library")] == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rooms": (Room("a", 2), Room("b", 2))},  # two doors on one square
        {"rooms": (Room("a", 2), Room("a", 3))},  # two rooms with one id
        {"rooms": (Room("a", 40),)},  # a door off the gallery
        {"rooms": (Room("a", 2),), "overflow": 2},  # the overflow is not a step
    ],
)
def test_board_data_is_checked(kwargs: dict) -> None:
    data = {"id": "test", "rooms": (Room("a", 2),), "steps": (10, 9), "overflow": 10, "has_start": True}
    data.update(kwargs)
    with pytest.raises(ValueError, match="board 'test'"):
        Board(**data)


def test_a_custom_board_is_pure_data() -> None:
    """Boards are data (§1.2): a different layout derives its own tables, nothing is hard-coded."""
    board = Board(id="tiny", rooms=(Room("den", 1, "green"),), steps=(5, 4), overflow=5, has_start=False, squares=6)
    assert board.names == ("G0", "G1", "G2", "G3", "G4", "G5", "R:den", "C5", "C4")
    assert board.name(board.hugo_start) == "C5"
    walk = [board.hugo_start]
    for _ in range(4):
        walk.append(board.hugo_next[walk[-1]])
    assert [board.name(loc) for loc in walk] == ["C5", "C4", "G0", "G1", "G2"]
    assert board.name(board.hugo_next[board.location("G5")]) == "G0"
    path = board.path(board.location("G4"), 4)
    assert [board.name(sq) for sq in path.squares] == ["G5", "G0", "G1", "G2"]
    assert [(board.name(r), k) for r, k in path.entries] == [("R:den", 4)]
