"""Proven bounds on every seat's win chance: expectimax over every die face, cut off after H rolls.

A game of Hugo has no bound on its length (guests may circle the gallery for ever; only
a HUGO face, RULES.md §1.4, brings the end closer), so its value is a fixed point, not a
finite expectimax. What *is* finite is the game cut off after the next ``H`` rolls: each
line that ends by then has its exact outcome (a k-way tie shares the win, §7, §8.7),
each line still open counts as anywhere from a loss (0) to a win (1). The result is an
interval per seat, ``[low, high]``, that contains the true value — whatever the open
lines are worth — when every player maximises its own win chance (max-n):

* a finished position: its shares of the win, exactly;
* a chance node (phase ``"roll"``): the probability-weighted sum of the bounds of the
  die's five outcomes (:data:`~ghostparty.rules.DIE`, HUGO at 1/3), one roll used;
* a decision (phase ``"move"``): the mover gets ``[max low, max high]`` over its actions;
  every other seat gets ``[min low, max high]`` over the actions that *may* be the
  mover's best — those whose ``high`` for the mover reaches the best ``low``;
* no roll left, or a placement (§2.2, §8.6): ``[0, 1]``;
* everywhere, since the seats' shares of the win add up to 1, no seat's ``high`` exceeds
  1 minus the others' ``low``, and no ``low`` falls below 1 minus the others' ``high``.

With two players the game is zero-sum, and these bounds are exactly the values of the
plain expectimax that counts the open lines as losses (``low``) or wins (``high``);
``tests/analysis/test_review_solver.py`` checks that, and that the bounds of ``H + 1``
rolls lie inside those of ``H``. Values are kept per ``(position, rolls left)`` in a
transposition table; a node budget stops a search that grows too large.
"""

from __future__ import annotations

from dataclasses import dataclass

from ghostparty.rules import DIE, MOVE, OVER, ROLL, Position, apply, legal_actions

#: Slack for float rounding when comparing sums of probabilities.
EPSILON = 1e-12
_PROBABILITIES = tuple((roll, float(p)) for roll, p in DIE)


@dataclass(frozen=True)
class Bounds:
    """Each seat's win chance lies in ``[low[s], high[s]]``."""

    low: tuple[float, ...]
    high: tuple[float, ...]

    @property
    def width(self) -> float:
        """The widest seat's interval."""
        return max(h - l for l, h in zip(self.low, self.high, strict=True))

    def contains(self, values: tuple[float, ...] | list[float], slack: float = 1e-9) -> bool:
        """Whether every seat's value lies in its interval (up to ``slack``)."""
        return all(l - slack <= v <= h + slack for l, v, h in zip(self.low, values, self.high, strict=True))

    def clamp(self, values: tuple[float, ...] | list[float]) -> tuple[float, ...]:
        """``values`` with each seat's entry moved into its interval."""
        return tuple(min(h, max(l, v)) for l, v, h in zip(self.low, values, self.high, strict=True))

    def project(self, values: tuple[float, ...] | list[float]) -> tuple[float, ...]:
        """``values`` moved into the bounds, still adding up to 1: clamped, then the
        difference spread over the seats in proportion to the room each has left."""
        clamped = self.clamp(values)
        missing = 1.0 - sum(clamped)
        if missing > 0:
            room = [h - v for v, h in zip(clamped, self.high, strict=True)]
        else:
            room = [v - l for v, l in zip(clamped, self.low, strict=True)]
        total = sum(room)
        if total <= 0.0:
            return clamped
        share = min(1.0, abs(missing) / total)
        sign = 1.0 if missing > 0 else -1.0
        return tuple(v + sign * share * r for v, r in zip(clamped, room, strict=True))

    def as_dict(self) -> dict[str, list[float]]:
        return {"low": [round(v, 6) for v in self.low], "high": [round(v, 6) for v in self.high]}


def unknown(players: int) -> Bounds:
    """Nothing proven: ``[0, 1]`` for every seat."""
    return Bounds((0.0,) * players, (1.0,) * players)


def shares(position: Position) -> tuple[float, ...]:
    """Each seat's share of the win of a finished game (ties share it, §7, §8.7)."""
    share = 1.0 / len(position.winners)
    return tuple(share if seat in position.winners else 0.0 for seat in range(position.players))


def exact(position: Position) -> Bounds:
    """The bounds of a finished game: its shares, with no width."""
    won = shares(position)
    return Bounds(won, won)


def combine(mover: int, children: list[Bounds]) -> Bounds:
    """A decision's bounds from its actions' (see the module's text)."""
    best_low = max(child.low[mover] for child in children)
    candidates = [child for child in children if child.high[mover] >= best_low - EPSILON]
    players = len(children[0].low)
    low = [best_low if s == mover else min(c.low[s] for c in candidates) for s in range(players)]
    high = [max(c.high[s] for c in (children if s == mover else candidates)) for s in range(players)]
    return tighten(low, high)


def tighten(low: list[float], high: list[float]) -> Bounds:
    """Bounds narrowed by the shares adding up to 1 (each seat against the others' sum)."""
    sum_low, sum_high = sum(low), sum(high)
    return Bounds(
        tuple(max(l, 1.0 - (sum_high - h)) for l, h in zip(low, high, strict=True)),
        tuple(min(h, 1.0 - (sum_low - l)) for l, h in zip(low, high, strict=True)),
    )


class BudgetExceeded(Exception):
    """The search needed more nodes than its budget."""


class Solver:
    """Bounds of positions cut off after ``horizon`` rolls, sharing one transposition table."""

    def __init__(self, horizon: int = 2, budget: int = 20_000) -> None:
        if type(horizon) is not int or horizon < 0:
            raise ValueError(f"horizon must be a whole number of rolls >= 0, got {horizon!r}")
        if type(budget) is not int or budget < 1:
            raise ValueError(f"budget must be a whole number of nodes >= 1, got {budget!r}")
        self.horizon = horizon
        self.budget = budget
        self._table: dict[tuple[Position, int], Bounds] = {}
        #: Nodes expanded by the last call of :meth:`bounds`.
        self.nodes = 0

    def bounds(self, position: Position, horizon: int | None = None) -> Bounds | None:
        """``position``'s bounds after ``horizon`` rolls (default: the solver's), or
        ``None`` if proving them would expand more than the budget's nodes."""
        self.nodes = 0
        try:
            return self._bounds(position, self.horizon if horizon is None else horizon)
        except BudgetExceeded:
            return None

    def _bounds(self, position: Position, rolls: int) -> Bounds:
        if position.phase == OVER:
            return exact(position)
        if (rolls == 0 and position.phase == ROLL) or position.phase not in (ROLL, MOVE):
            return unknown(position.players)
        key = (position, rolls)
        found = self._table.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExceeded
        if position.phase == ROLL:
            low = [0.0] * position.players
            high = [0.0] * position.players
            for roll, p in _PROBABILITIES:
                child = self._bounds(apply(position, roll), rolls - 1)
                for seat in range(position.players):
                    low[seat] += p * child.low[seat]
                    high[seat] += p * child.high[seat]
            result = tighten(low, [min(1.0, h) for h in high])
        else:
            children = [self._bounds(apply(position, action), rolls) for action in legal_actions(position)]
            result = combine(position.to_move, children)
        self._table[key] = result
        return result
