"""One fixed action space for both rule sets and 2–8 players: every action as an integer id.

Like a chess program's move encoding, an id names an action without the position:
the same id means the same action whatever the number of players, and on both boards
as far as squares and steps go (rooms are numbered in each board's own order).
Locations are first mapped to *slots* (:data:`N_SLOTS` of them):

* ``0 … 39`` — the gallery squares ``G0`` … ``G39``;
* ``40 … 50`` — the rooms, ``40 + k`` for the board's k-th room in board order
  (RULES.md §1.2: ``R:library`` is 40 on both boards, ``R:tower`` 43 on ``hugo`` and 44
  on ``midnight-party``);
* ``51 … 59`` — the cellar steps from the bottom up, ``51 + j`` for the j-th
  (``C10`` is 51 on both boards, ``C3`` 58, ``C2`` 59 on ``midnight-party`` only);
* ``60`` — ``START`` (Hugo only).

The ids, :data:`N_ACTIONS` = 3106 in all:

=================  ==========================  =========================================
ids                action                      phase
=================  ==========================  =========================================
0 … 4              ``Roll(1)``, ``Roll(2)``,   ``"roll"``: the die's outcomes, chosen
                   ``Roll(4)``, ``Roll(5)``,   only by a chance player (the die is
                   ``Roll(HUGO)``              otherwise rolled by the environment)
5                  ``Pass()``                  ``"move"``, ``midnight-party`` (§8.3)
6 … 45             ``Place("G<s>")``: 6 + s    ``"place"`` (§2.2)
46 … 3105          ``Move(a, b)``:             ``"move"``: from slot a (a guest's
                   46 + 51·a + b               location, 0 … 59) to slot b (a square or
                                               a room, 0 … 50) (§4.6)
=================  ==========================  =========================================

>>> from ghostparty.rules import HUGO_BOARD, Move, Place
>>> action_id(HUGO_BOARD, Move("G3", "R:chapel"))
241
>>> action_from_id(HUGO_BOARD, 241)
Move(source='G3', target='R:chapel')
>>> action_id(HUGO_BOARD, Place("G12")), action_from_id(HUGO_BOARD, 5)
(18, Pass())
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ghostparty.rules import PASS, RULESETS, Action, Board, Move, Place, Position, legal_actions
from ghostparty.rules.actions import ROLLS

#: Gallery squares on every board (RULES.md §1.1).
SQUARES = 40
#: Room slots: the most rooms of any board (11, ``midnight-party``).
MAX_ROOMS = max(len(rules.board.rooms) for rules in RULESETS.values())
#: Cellar-step slots: the most steps of any board (9, ``midnight-party``).
MAX_STEPS = max(len(rules.board.steps) for rules in RULESETS.values())
ROOM_SLOT = SQUARES
STEP_SLOT = ROOM_SLOT + MAX_ROOMS
START_SLOT = STEP_SLOT + MAX_STEPS
#: Slots of every location: squares, rooms, steps, ``START``.
N_SLOTS = START_SLOT + 1
#: Slots a guest can stand on (all but ``START``): the sources of a move.
N_SOURCES = START_SLOT
#: Slots a move can end on: squares and rooms.
N_TARGETS = STEP_SLOT

ROLL_ID = 0
PASS_ID = ROLL_ID + len(ROLLS)
PLACE_ID = PASS_ID + 1
MOVE_ID = PLACE_ID + SQUARES
#: The size of the action space.
N_ACTIONS = MOVE_ID + N_SOURCES * N_TARGETS

assert all(rules.board.squares == SQUARES for rules in RULESETS.values()), "every board has 40 squares (§1.1)"


class ActionIdError(ValueError):
    """An action id that is out of range, or names no action on this board."""


def slots(board: Board) -> tuple[int, ...]:
    """``slots(board)[loc]``: the slot of each of the board's locations."""
    return _tables(board).slot


def slot_locations(board: Board) -> dict[int, int]:
    """The board's location in each slot it uses (the inverse of :func:`slots`)."""
    return {slot: loc for loc, slot in enumerate(_tables(board).slot)}


def action_id(board: Board, action: Action) -> int:
    """The id of ``action`` (see the module docstring).

    :raises ActionIdError: if ``action`` names a location the board does not have, or
        could never be played (a move onto a cellar step).
    """
    found = _tables(board).ids.get(action)
    if found is None:
        raise ActionIdError(f"{action!r} has no action id on the {board.id} board")
    return found


def action_from_id(board: Board, id: int) -> Action:
    """The action with id ``id`` on ``board``.

    :raises ActionIdError: if ``id`` is not in ``0 … N_ACTIONS - 1`` or names a slot the
        board does not have (e.g. room slot 50 on the nine-room ``hugo`` board).
    """
    if not 0 <= id < N_ACTIONS:
        raise ActionIdError(f"action id {id!r} is out of range: expected 0 to {N_ACTIONS - 1}")
    action = _tables(board).actions[id]
    if action is None:
        raise ActionIdError(f"action id {id} ({describe_id(id)}) names no action on the {board.id} board")
    return action


def action_mask(board: Board, actions: Iterable[Action]) -> npt.NDArray[np.int8]:
    """A 0/1 vector of :data:`N_ACTIONS` entries, 1 at the id of each of ``actions``."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    ids = _tables(board).ids
    for action in actions:
        mask[ids[action]] = 1
    return mask


def legal_ids(position: Position) -> dict[int, Action]:
    """Every legal action of ``position`` by its id, in the engine's order (RULES.md)."""
    ids = _tables(position.ruleset.board).ids
    return {ids[action]: action for action in legal_actions(position)}


def describe_id(id: int) -> str:
    """The board-independent meaning of an id, e.g. ``'move slot 3 -> slot 42'``."""
    if id < PASS_ID:
        return f"roll {ROLLS[id - ROLL_ID].face}"
    if id == PASS_ID:
        return "pass"
    if id < MOVE_ID:
        return f"place G{id - PLACE_ID}"
    source, target = divmod(id - MOVE_ID, N_TARGETS)
    return f"move slot {source} -> slot {target}"


class _Tables:
    """A board's slots and both directions of its action ids, built once."""

    def __init__(self, board: Board) -> None:
        slot = [0] * board.size
        for loc in range(board.size):
            if board.is_gallery(loc):
                slot[loc] = loc
            elif board.is_room(loc):
                slot[loc] = ROOM_SLOT + loc - board.room_base
            elif board.is_step(loc):
                slot[loc] = STEP_SLOT + loc - board.step_base
            else:
                slot[loc] = START_SLOT
        self.slot = tuple(slot)
        actions: list[Action | None] = [None] * N_ACTIONS
        for i, roll in enumerate(ROLLS):
            actions[ROLL_ID + i] = roll
        actions[PASS_ID] = PASS
        for sq in range(SQUARES):
            actions[PLACE_ID + sq] = Place(board.names[sq])
        for source in range(board.size):
            if slot[source] >= N_SOURCES:
                continue
            for target in range(board.step_base):  # squares and rooms
                move = Move(board.names[source], board.names[target])
                actions[MOVE_ID + slot[source] * N_TARGETS + slot[target]] = move
        self.actions = tuple(actions)
        self.ids: dict[Action, int] = {action: i for i, action in enumerate(actions) if action is not None}


_TABLES: dict[Board, _Tables] = {}


def _tables(board: Board) -> _Tables:
    tables = _TABLES.get(board)
    if tables is None:
        tables = _TABLES[board] = _Tables(board)
    return tables


__all__ = [
    "MOVE_ID",
    "N_ACTIONS",
    "N_SLOTS",
    "N_SOURCES",
    "N_TARGETS",
    "PASS_ID",
    "PLACE_ID",
    "ROLL_ID",
    "ActionIdError",
    "action_from_id",
    "action_id",
    "action_mask",
    "describe_id",
    "legal_ids",
    "slot_locations",
    "slots",
]
