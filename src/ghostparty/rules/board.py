"""Boards as data: the gallery, the rooms and the cellar steps of both board sides.

Every number about a board lives in :data:`HUGO_BOARD` and :data:`MIDNIGHT_PARTY_BOARD`
(RULES.md §1.1–§1.3). The rest of the engine reads the tables a :class:`Board` derives
from them and never hard-codes a door, a shield or a step.

Locations are small integers, board-relative, ordered as FORMAT.md writes them:

* ``0 … squares-1`` — gallery squares (``G0`` … ``G39``; 0 is the arrow square);
* then one per room, in board order (``R:library`` …);
* then one per cellar step from the bottom (highest value) up (``C10``, ``C9`` …);
* then ``START`` where the board has it.

``board.name(loc)`` and ``board.location(name)`` convert to and from FORMAT.md's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Shield = Literal["neutral", "red", "green"]

#: Die faces that move a guest (RULES.md §1.4); the other two faces are HUGO.
NUMBER_FACES: tuple[int, ...] = (1, 2, 4, 5)


@dataclass(frozen=True)
class Room:
    """A room: its id, the gallery square of its door and its shield (RULES.md §1.2)."""

    id: str
    door: int
    shield: Shield = "neutral"

    def __reduce__(self) -> tuple[type[Room], tuple[str, int, Shield]]:
        # By its fields: compiled (mypyc), a frozen class cannot be unpickled attribute by attribute.
        return Room, (self.id, self.door, self.shield)


@dataclass(frozen=True, eq=False)
class Board:
    """One side of the board, with lookup tables derived from its data.

    Boards compare and hash by identity: there is one object per board side.
    """

    id: str
    rooms: tuple[Room, ...]
    #: Cellar step values from the bottom up, e.g. ``(10, 9, …, 3)`` (RULES.md §1.3).
    steps: tuple[int, ...]
    #: Value of the step that holds any number of guests once every step is taken.
    overflow: int
    #: Whether Hugo starts on ``START`` below the bottom step (else on the bottom step).
    has_start: bool
    squares: int = 40

    # Derived tables (filled in __post_init__).
    room_base: int = field(init=False, repr=False)
    step_base: int = field(init=False, repr=False)
    start: int = field(init=False, repr=False)
    """Location of ``START``, or -1 on a board without it."""
    size: int = field(init=False, repr=False)
    names: tuple[str, ...] = field(init=False, repr=False)
    index: dict[str, int] = field(init=False, repr=False)
    door: tuple[int, ...] = field(init=False, repr=False)
    """Door square per room location (indexed by ``loc - room_base``)."""
    room_at: tuple[int, ...] = field(init=False, repr=False)
    """Room location whose door is on each gallery square, or -1."""
    red: frozenset[int] = field(init=False, repr=False)
    green: frozenset[int] = field(init=False, repr=False)
    step_value: tuple[int, ...] = field(init=False, repr=False)
    """Spooky points per location (0 outside the cellar steps)."""
    overflow_loc: int = field(init=False, repr=False)
    hugo_start: int = field(init=False, repr=False)
    hugo_next: tuple[int, ...] = field(init=False, repr=False)
    """Hugo's next location from each location on his path (RULES.md §1.3, §5.1)."""
    paths: tuple[tuple[Path, ...], ...] = field(init=False, repr=False)
    """Guest paths, see :meth:`path`."""

    def __post_init__(self) -> None:
        n = self.squares
        rooms = self.rooms
        doors = [room.door for room in rooms]
        if len(set(doors)) != len(doors) or not all(0 <= d < n for d in doors):
            raise ValueError(f"board {self.id!r}: room doors must be distinct gallery squares")
        if len({room.id for room in rooms}) != len(rooms):
            raise ValueError(f"board {self.id!r}: room ids must be distinct")
        if self.overflow not in self.steps:
            raise ValueError(f"board {self.id!r}: overflow step {self.overflow} is not a step")
        room_base = n
        step_base = n + len(rooms)
        start = step_base + len(self.steps) if self.has_start else -1
        size = step_base + len(self.steps) + (1 if self.has_start else 0)
        names = [f"G{sq}" for sq in range(n)]
        names += [f"R:{room.id}" for room in rooms]
        names += [f"C{value}" for value in self.steps]
        if self.has_start:
            names.append("START")
        room_at = [-1] * n
        for i, room in enumerate(rooms):
            room_at[room.door] = room_base + i
        step_value = [0] * size
        for j, value in enumerate(self.steps):
            step_value[step_base + j] = value
        # Hugo's path: START (if any), every step from the bottom, then the gallery.
        hugo_next = list(range(size))
        for sq in range(n):
            hugo_next[sq] = (sq + 1) % n
        climb = ([start] if self.has_start else []) + [step_base + j for j in range(len(self.steps))]
        for a, b in zip(climb, [*climb[1:], 0], strict=False):
            hugo_next[a] = b
        s = object.__setattr__
        s(self, "room_base", room_base)
        s(self, "step_base", step_base)
        s(self, "start", start)
        s(self, "size", size)
        s(self, "names", tuple(names))
        s(self, "index", {name: loc for loc, name in enumerate(names)})
        s(self, "door", tuple(doors))
        s(self, "room_at", tuple(room_at))
        s(self, "red", frozenset(room_base + i for i, r in enumerate(rooms) if r.shield == "red"))
        s(self, "green", frozenset(room_base + i for i, r in enumerate(rooms) if r.shield == "green"))
        s(self, "step_value", tuple(step_value))
        s(self, "overflow_loc", step_base + self.steps.index(self.overflow))
        s(self, "hugo_start", climb[0])
        s(self, "hugo_next", tuple(hugo_next))
        s(self, "paths", tuple(tuple(self._make_path(loc, roll) for roll in range(6)) for loc in range(size)))

    # -- locations ---------------------------------------------------------------

    def __reduce__(self) -> tuple[type[Board], tuple[str, tuple[Room, ...], tuple[int, ...], int, bool, int]]:
        # A new board from the same data, as unpickling always made (see Room.__reduce__).
        return Board, (self.id, self.rooms, self.steps, self.overflow, self.has_start, self.squares)

    def name(self, loc: int) -> str:
        """FORMAT.md's text for a location, e.g. ``"G0"``, ``"R:chapel"``, ``"C10"``."""
        return self.names[loc]

    def location(self, name: str) -> int:
        """The location named ``name``; raises :class:`KeyError` if this board has none."""
        return self.index[name]

    def is_gallery(self, loc: int) -> bool:
        return 0 <= loc < self.room_base

    def is_room(self, loc: int) -> bool:
        return self.room_base <= loc < self.step_base

    def is_step(self, loc: int) -> bool:
        return self.step_base <= loc < self.step_base + len(self.steps)

    def room(self, loc: int) -> Room:
        """The :class:`Room` at a room location."""
        return self.rooms[loc - self.room_base]

    def step_location(self, value: int) -> int:
        """The location of the step worth ``value`` spooky points."""
        return self.step_base + self.steps.index(value)

    @property
    def room_locations(self) -> range:
        return range(self.room_base, self.step_base)

    @property
    def step_locations(self) -> range:
        return range(self.step_base, self.step_base + len(self.steps))

    # -- guest paths (RULES.md §4.1, §4.2) ------------------------------------------

    def path(self, loc: int, roll: int) -> Path:
        """Where a move of ``roll`` steps from ``loc`` can go, ignoring the position.

        A guest on a cellar step always starts its path at square 0 (RULES.md §4.1).
        """
        return self.paths[loc][roll]

    def _make_path(self, loc: int, roll: int) -> Path:
        n = self.squares
        if roll == 0 or loc == self.start or not (0 <= loc < self.step_base + len(self.steps)):
            return Path((), -1, ())
        if loc < n:  # gallery: step i reaches loc+i; standing on a door counts as step 0
            squares = tuple((loc + i) % n for i in range(1, roll + 1))
            reached = (loc, *squares)
        elif loc < self.step_base:  # room: step 1 reaches its own door
            first = self.door[loc - self.room_base]
            squares = tuple((first + i) % n for i in range(roll))
            reached = (-1, *squares)
        else:  # cellar step: step 1 reaches square 0
            squares = tuple(i % n for i in range(roll))
            reached = (-1, *squares)
        entries = []
        for i in range(roll):  # a door reached after step i is entered with step i+1
            sq = reached[i]
            if sq >= 0 and self.room_at[sq] >= 0 and self.room_at[sq] != loc:  # §4.2.2
                entries.append((self.room_at[sq], i + 1))
        return Path(squares, squares[-1], tuple(entries))


@dataclass(frozen=True)
class Path:
    """A guest move's geometry: the squares passed, where it ends, the rooms on the way.

    ``entries`` holds ``(room location, step k)``: the room may be entered with step k,
    subject to the position (RULES.md §4.2).
    """

    squares: tuple[int, ...]
    end: int
    entries: tuple[tuple[int, int], ...]

    def __reduce__(self) -> tuple[type[Path], tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]]:
        return Path, (self.squares, self.end, self.entries)  # see Room.__reduce__


# RULES.md §1.2 and §1.3: the two board sides.
HUGO_BOARD = Board(
    id="hugo",
    rooms=(
        Room("library", 2),
        Room("fireplace", 3),
        Room("chapel", 8),
        Room("tower", 13),
        Room("armory", 17, "red"),
        Room("portrait-hall", 22),
        Room("ballroom", 26, "green"),
        Room("banquet-hall", 31, "green"),
        Room("bedchamber", 35),
    ),
    steps=(10, 9, 8, 7, 6, 5, 4, 3),
    overflow=10,
    has_start=True,
)

MIDNIGHT_PARTY_BOARD = Board(
    id="midnight-party",
    rooms=(
        Room("library", 2),
        Room("fireplace", 3),
        Room("chapel", 7),
        Room("abandoned-room", 11, "red"),
        Room("tower", 14),
        Room("armory", 18, "red"),
        Room("portrait-hall", 22),
        Room("ballroom", 25, "green"),
        Room("banquet-hall", 29, "green"),
        Room("bedchamber", 33),
        Room("music-room", 36),
    ),
    steps=(10, 9, 8, 7, 6, 5, 4, 3, 2),
    overflow=2,
    has_start=False,
)
