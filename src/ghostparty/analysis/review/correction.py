"""An additive correction to the learned evaluation's margins that makes the search's leaves agree with one roll more.

The learned evaluation (:mod:`ghostparty.bots.learned`) is fitted to final margins, not
to its own deeper look: at a roll its value and the mean over the faces of the value
one roll deeper differ on average, by an amount that depends on whose turn it is. The
review's search then changes its mind with nothing happening (docs/analysis.md, Drift).
The correction adds one number to each seat's predicted margin, per rule set, number of
players, phase of the leaf (``"roll"`` or ``"place"``) and the seat's place relative to
the seat to move (0 the seat to move, 1 the next, …), fitted (temporal differences) so
that on positions of bot games

* a roll's leaf agrees on average with the mean over the faces of its one-roll search;
* a placement's leaf agrees with the value of its best placement.

``python scripts/fit_leaf_correction.py`` writes ``leaf_correction.json`` beside this module;
the review's :class:`~.evaluator.Evaluator` uses it unless given another
(``Evaluator(correction=Correction())``: none; docs/analysis.md, Drift).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from operator import add

from ghostparty.rules import PLACE, ROLL, Position

#: The file of fitted corrections, in this package.
CORRECTION_FILE = "leaf_correction.json"
#: Phases whose leaves are corrected.
PHASES = (ROLL, PLACE)


@dataclass(frozen=True)
class Correction:
    """Additive margins per ``(rule set id, players, phase)``, one per seat relative to the seat to move."""

    shifts: dict[tuple[str, int, str], tuple[float, ...]] = field(default_factory=dict)
    about: dict[str, object] = field(default_factory=dict)
    #: (rule set id, players, phase, seat to move) -> the shift of each seat, or () for none.
    _by_seat: dict[tuple[str, int, str, int], tuple[float, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def apply(self, position: Position, predicted: Sequence[float]) -> tuple[float, ...]:
        """``predicted`` (each seat's margin in ``position``) with the correction added; unchanged
        where the file has none for the game and phase."""
        by_seat = self.by_seat(position)
        if not by_seat:
            return tuple(predicted)
        return tuple(map(add, predicted, by_seat))

    def by_seat(self, position: Position) -> tuple[float, ...]:
        """The number :meth:`apply` adds to each seat's margin in ``position`` (``()``: none)."""
        key = (position.ruleset.id, position.players, position.phase, position.to_move)
        by_seat = self._by_seat.get(key)
        if by_seat is None:
            shift = self.shifts.get(key[:3])
            n, mover = position.players, position.to_move
            by_seat = () if shift is None else tuple(shift[(seat - mover) % n] for seat in range(n))
            self._by_seat[key] = by_seat
        return by_seat


def parse_correction(data: object) -> Correction:
    """:class:`Correction` from the JSON document of a correction file.

    :raises ValueError: if the document is not ``{"shifts": {rules: {players: {phase: [shift per seat]}}}, …}``.
    """
    if not isinstance(data, dict) or not isinstance(data.get("shifts"), dict):
        raise ValueError("a correction file is an object with 'shifts': {rules: {players: {phase: [shift, …]}}}")
    shifts: dict[tuple[str, int, str], tuple[float, ...]] = {}
    for rules, per_players in data["shifts"].items():
        for players, per_phase in dict(per_players).items():
            for phase, values in dict(per_phase).items():
                where = f"shifts[{rules!r}][{players!r}][{phase!r}]"
                if phase not in PHASES:
                    raise ValueError(f"{where}: expected a phase in {PHASES}, got {phase!r}")
                if not isinstance(values, list) or len(values) != int(players):
                    raise ValueError(f"{where}: expected a list of {players} numbers, got {values!r:.60}")
                if any(isinstance(v, bool) or not isinstance(v, int | float) for v in values):
                    raise ValueError(f"{where}: expected numbers, got {values!r:.60}")
                shifts[rules, int(players), phase] = tuple(float(v) for v in values)
    return Correction(shifts, {key: value for key, value in data.items() if key != "shifts"})


@cache
def load_correction() -> Correction:
    """The correction shipped with the package (read once); none if the package has no file."""
    resource = files("ghostparty.analysis.review") / CORRECTION_FILE
    if not resource.is_file():
        return Correction()
    return parse_correction(json.loads(resource.read_text(encoding="utf-8")))
