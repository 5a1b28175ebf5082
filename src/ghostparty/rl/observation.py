"""The observation: a position as one fixed-shape ``float32`` vector with named fields.

The same :data:`SIZE` (610) for both rule sets and 2–8 players. Seats are *relative*
to the observer: row 0 is the observer's own seat, row 1 the next seat clockwise, and
so on; rows of seats that are not in the game stay 0. Locations are the slots of
:mod:`ghostparty.rl.actions`. Field by field (:data:`FIELDS`, in vector order):

================  ========  =====================================================
field             shape     value
================  ========  =====================================================
``guests``        (8, 60)   guests of each relative seat on each slot (0 … 6)
``to_place``      (8,)      guests of each relative seat still to be placed
``hugo``          (61,)     1 on Hugo's slot (``START`` is slot 60)
``scores``        (8,)      points: the spooky trail (``hugo``), the total of the
                            rounds scored so far (``midnight-party``)
``in_game``       (8,)      1 for each relative seat that is in the game
``to_move``       (8,)      1 on the seat to move (in ``"over"``: whose action
                            ended the game)
``first_player``  (8,)      1 on the seat that moves first in this round
``winners``       (8,)      1 on each winner (phase ``"over"`` only)
``phase``         (4,)      1 on ``place``, ``roll``, ``move`` or ``over``
``roll``          (4,)      1 on the number rolled, 1, 2, 4 or 5 (phase ``"move"``)
``clock``         (7,)      1 on the clock time, 23:45 … 5:00 (``hugo``; else 0)
``round``         (3,)      1 on the round (always round 1 in ``hugo``)
``rules``         (2,)      1 on ``hugo`` or ``midnight-party``
``hugo_speed``    (1,)      Hugo's move points for his next move (§5.1, §5.3)
================  ========  =====================================================

The position can be read back from it, except the order of the placement queue
(only each seat's count) and the per-round scores of ``midnight-party`` (only the
totals); neither changes what can happen next but the order of placements.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ghostparty.rl.actions import N_SLOTS, N_SOURCES, slots
from ghostparty.rules import GUESTS_PER_PLAYER, RULESETS, Position
from ghostparty.rules.rulesets import MAX_PLAYERS, MIN_PLAYERS

Vector = npt.NDArray[np.float32]

MAX_GUESTS = max(GUESTS_PER_PLAYER.values())
MAX_CLOCK = max(len(rules.clock_times) for rules in RULESETS.values())
MAX_ROUNDS = max(rules.rounds for rules in RULESETS.values())
RULES_IDS = tuple(RULESETS)
PHASES = ("place", "roll", "move", "over")
ROLLS = (1, 2, 4, 5)
#: Scores stay within these bounds: at most 45 + a capture of six guests at 10 points
#: in ``hugo``, three rounds of six guests at 10 (or -3) points in ``midnight-party``.
SCORE_BOUND = 200.0
MAX_SPEED = max(max(rules.clock_speeds, default=rules.speed(None, MIN_PLAYERS)) for rules in RULESETS.values())

#: ``(name, shape)`` of each field, in vector order.
FIELDS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("guests", (MAX_PLAYERS, N_SOURCES)),
    ("to_place", (MAX_PLAYERS,)),
    ("hugo", (N_SLOTS,)),
    ("scores", (MAX_PLAYERS,)),
    ("in_game", (MAX_PLAYERS,)),
    ("to_move", (MAX_PLAYERS,)),
    ("first_player", (MAX_PLAYERS,)),
    ("winners", (MAX_PLAYERS,)),
    ("phase", (len(PHASES),)),
    ("roll", (len(ROLLS),)),
    ("clock", (MAX_CLOCK,)),
    ("round", (MAX_ROUNDS,)),
    ("rules", (len(RULES_IDS),)),
    ("hugo_speed", (1,)),
)
_OFFSETS: dict[str, int] = {}
_offset = 0
for _name, _shape in FIELDS:
    _OFFSETS[_name] = _offset
    _offset += int(np.prod(_shape))
#: The length of the observation vector.
SIZE = _offset


def bounds() -> tuple[Vector, Vector]:
    """The lowest and highest value of every entry (for a gymnasium ``Box``)."""
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.ones(SIZE, dtype=np.float32)
    for name, top in (("guests", MAX_GUESTS), ("to_place", MAX_GUESTS), ("hugo_speed", MAX_SPEED)):
        view(high, name)[...] = top
    view(low, "scores")[...] = -SCORE_BOUND
    view(high, "scores")[...] = SCORE_BOUND
    return low, high


def view(vector: Vector, name: str) -> Vector:
    """The field ``name`` of an observation vector, as a view of its shape (writable)."""
    shape = dict(FIELDS)[name]
    start = _OFFSETS[name]
    return vector[start : start + int(np.prod(shape))].reshape(shape)


def fields(vector: Vector) -> dict[str, Vector]:
    """Every field of an observation vector by name (views, not copies)."""
    return {name: view(vector, name) for name, _ in FIELDS}


def encode(position: Position, observer: int) -> Vector:
    """The observation of ``position`` by the seat ``observer`` (a new array)."""
    players = position.players
    if not 0 <= observer < players:
        raise ValueError(f"observer must be a seat 0 to {players - 1}, got {observer!r}")
    slot = slots(position.ruleset.board)
    rel = [(seat - observer) % players for seat in range(players)]
    # Every entry but the scores and the speed counts something: gather their indices
    # and count them at once (item by item writes into numpy cost ten times more).
    guests = _GUESTS
    ones = [guests + rel[seat] * N_SOURCES + slot[loc] for seat, locs in enumerate(position.guests) for loc in locs]
    ones += [_TO_PLACE + rel[seat] for seat in position.place_queue]
    ones += [_WINNERS + rel[seat] for seat in position.winners]
    ones += [
        _HUGO + slot[position.hugo],
        _TO_MOVE + rel[position.to_move],
        _FIRST_PLAYER + rel[position.first_player],
        _PHASE + PHASES.index(position.phase),
        _ROUND + position.round - 1,
        _RULES + RULES_IDS.index(position.ruleset.id),
        *range(_IN_GAME, _IN_GAME + players),
    ]
    if position.roll is not None:
        ones.append(_ROLL + ROLLS.index(position.roll))
    if position.clock is not None:
        ones.append(_CLOCK + position.clock)
    vector = np.bincount(ones, minlength=SIZE).astype(np.float32)
    scores = [0] * MAX_PLAYERS
    for seat, score in enumerate(position.scores):
        scores[rel[seat]] = score
    vector[_SCORES : _SCORES + MAX_PLAYERS] = scores
    vector[_SPEED] = position.hugo_speed
    return vector


_GUESTS, _TO_PLACE, _HUGO, _SCORES, _IN_GAME, _TO_MOVE, _FIRST_PLAYER, _WINNERS = (
    _OFFSETS[name] for name in ("guests", "to_place", "hugo", "scores", "in_game", "to_move", "first_player", "winners")
)
_PHASE, _ROLL, _CLOCK, _ROUND, _RULES, _SPEED = (
    _OFFSETS[name] for name in ("phase", "roll", "clock", "round", "rules", "hugo_speed")
)
