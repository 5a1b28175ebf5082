"""The odds of each legal move in a given position, from simulated continuations.

For a position (FORMAT.md ``hugo-position/1``) in phase ``"move"`` or ``"place"``, every
legal action is applied and the game is played to its end ``games`` times with every
seat playing the chosen bot policy and the real die. For the player to move, each
action gets its win probability (a shared win counts 1/k) with a 95 % interval, the
mean spooky points still to come (final score minus the score now; lower is better) and
the mean final score. In phase ``"roll"`` the same is done for each die outcome: HUGO
(one entry, Hugo's move), and each number with every move it allows.

Continuation ``j`` is seeded ``game_seed(seed, j)`` after every action (the one seeding
scheme, :mod:`ghostparty.sim.seeds`): the same random sources after every action (common
random numbers), so differences between actions are not blurred by different dice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ghostparty.analysis.simulate import PLACEMENTS, policies
from ghostparty.bots import bot_names
from ghostparty.rules import (
    DIE,
    HUGO,
    MOVE,
    OVER,
    PLACE,
    ROLL,
    Action,
    Move,
    Pass,
    Place,
    Position,
    Roll,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    position_from_dict,
    position_to_dict,
)
from ghostparty.sim.parallel import Workers, workers
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed
from ghostparty.sim.stats import WinTally


def action_label(action: Action) -> str:
    """An action as a short text, e.g. ``"G8 → R:chapel"``, ``"place G12"``, ``"pass"``."""
    if isinstance(action, Move):
        return f"{action.source} → {action.target}"
    if isinstance(action, Place):
        return f"place {action.square}"
    if isinstance(action, Pass):
        return "pass"
    if action.face == HUGO:
        return "Hugo moves"
    return f"roll {action.face} (no guest to move)"


@dataclass(frozen=True)
class MoveOdds:
    """The simulated odds of one action for the player to move."""

    #: What is applied to the position: the action, after the die outcome in phase ``"roll"``.
    actions: tuple[Action, ...]
    label: str
    games: int
    win_probability: float
    ci_low: float
    ci_high: float
    #: Mean spooky points the player still collects (final score minus score now).
    mean_points: float
    mean_final_score: float

    @property
    def action(self) -> Action:
        """The decision this entry is about (the last action applied)."""
        return self.actions[-1]

    def as_dict(self) -> dict[str, Any]:
        """The odds as a JSON-ready dict (actions in FORMAT.md's notation)."""
        return {
            "action": action_to_dict(self.action),
            "label": self.label,
            "games": self.games,
            "win_probability": round(self.win_probability, 5),
            "ci95": [round(self.ci_low, 5), round(self.ci_high, 5)],
            "mean_points": round(self.mean_points, 4),
            "mean_final_score": round(self.mean_final_score, 4),
        }


@dataclass(frozen=True)
class OutcomeOdds:
    """The actions open after one die outcome (or the position's own decision), best first."""

    #: The die outcome, or ``None`` when the position itself is a decision.
    roll: Roll | None
    probability: Fraction
    moves: tuple[MoveOdds, ...]

    @property
    def best(self) -> MoveOdds:
        """The entry with the highest win probability."""
        return self.moves[0]

    def as_dict(self) -> dict[str, Any]:
        """The outcome and its moves as a JSON-ready dict."""
        return {
            "roll": None if self.roll is None else self.roll.face,
            "probability": float(self.probability),
            "moves": [move.as_dict() for move in self.moves],
        }


@dataclass(frozen=True)
class PositionAnalysis:
    """The odds of every option in a position for the player to move (``seat``)."""

    position: Position
    seat: int
    bot: str
    placement: str
    games: int
    seed: int
    outcomes: tuple[OutcomeOdds, ...]
    seconds: float = 0.0

    @property
    def win_probability(self) -> float:
        """The player's win probability when choosing each outcome's best entry."""
        return sum(float(o.probability) * o.best.win_probability for o in self.outcomes)

    def as_dict(self) -> dict[str, Any]:
        """The analysis as a JSON-ready dict."""
        return {
            "position": position_to_dict(self.position),
            "seat": self.seat,
            "bot": self.bot,
            "placement": self.placement,
            "games_per_move": self.games,
            "seed": self.seed,
            "win_probability_best": round(self.win_probability, 5),
            "outcomes": [o.as_dict() for o in self.outcomes],
        }


def options(position: Position) -> list[tuple[Roll | None, Fraction, list[tuple[Action, ...]]]]:
    """What the player to move chooses between, per die outcome in phase ``"roll"``.

    :raises ValueError: if the game is over.
    """
    if position.phase == OVER:
        raise ValueError("the game is over: there is no move to analyse")
    if position.phase in (MOVE, PLACE):
        return [(None, Fraction(1), [(action,) for action in legal_actions(position)])]
    assert position.phase == ROLL
    found: list[tuple[Roll | None, Fraction, list[tuple[Action, ...]]]] = []
    for roll, probability in DIE:
        after = apply(position, roll)
        if roll.face != HUGO and after.phase == MOVE:
            found.append((roll, probability, [(roll, action) for action in legal_actions(after)]))
        else:  # Hugo moves, or a number that moves nobody (midnight-party, §8.3)
            found.append((roll, probability, [(roll,)]))
    return found


def continue_chunk(
    position_data: dict[str, Any],
    action_data: list[dict[str, Any]],
    bot: str,
    placement: str,
    seed: int,
    start: int,
    stop: int,
) -> WinTally:
    """Apply the actions, then play continuations ``start`` … ``stop - 1`` and count them.

    Positions and actions travel as FORMAT.md dicts, so this runs in any process.
    """
    position = position_from_dict(position_data)
    for data in action_data:
        position = apply(position, action_from_dict(data))
    seats = policies(bot, placement, position.players)
    tally = WinTally(position.players)
    for game in range(start, stop):
        final = position
        for step in seeded_playout(position, seats, game_seed(seed, game)):
            final = step.after
        tally.add(final.winners, final.scores)
    return tally


def analyze_position(
    position: Position,
    games: int = 500,
    bot: str = "random",
    placement: str = "bot",
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    pool: Workers | None = None,
    *,
    dask: str | None = None,
) -> PositionAnalysis:
    """The odds of every option of the player to move, from ``games`` continuations each.

    ``progress(n)`` is called after every ``n`` continuations. They run on ``pool`` if
    one is given, else over ``jobs`` local processes or on the Dask cluster whose
    scheduler is at ``dask`` (:mod:`ghostparty.sim.parallel`). The numbers depend on the
    arguments only, not on where the continuations ran.

    :raises ValueError: for a finished game, an unknown bot or placement, or ``games < 1``.
    """
    if games < 1:
        raise ValueError(f"games per move must be at least 1, got {games}")
    if bot not in bot_names():
        raise ValueError(f"unknown bot {bot!r}: expected one of {', '.join(bot_names())}")
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}, got {placement!r}")
    started = time.perf_counter()
    choices = options(position)
    seat = position.to_move
    data = position_to_dict(position)
    tallies: dict[tuple[int, int], WinTally] = {}
    with ExitStack() as stack:
        where = pool or stack.enter_context(workers(jobs, dask))
        size = max(1, min(250, games // (where.slots * 2)))
        pieces = [(a, min(games, a + size)) for a in range(0, games, size)]
        tasks: list[tuple[Any, ...]] = []
        keys: list[tuple[int, int]] = []
        for i, (_, _, lines) in enumerate(choices):
            for j, line in enumerate(lines):
                for a, b in pieces:
                    tasks.append((data, [action_to_dict(x) for x in line], bot, placement, seed, a, b))
                    keys.append((i, j))
        parts = where.map(continue_chunk, tasks, progress, [task[-1] - task[-2] for task in tasks])
        for key, part in zip(keys, parts, strict=True):
            tallies.setdefault(key, WinTally(position.players)).merge(part)
    score_now = position.scores[seat]
    outcomes = []
    for i, (roll, probability, lines) in enumerate(choices):
        odds = []
        for j, line in enumerate(lines):
            tally = tallies[(i, j)]
            low, high = tally.interval(seat)
            mean_score = tally.mean_score(seat)
            odds.append(
                MoveOdds(
                    actions=line,
                    label=action_label(line[-1]),
                    games=tally.games,
                    win_probability=tally.rate(seat),
                    ci_low=low,
                    ci_high=high,
                    mean_points=mean_score - score_now,
                    mean_final_score=mean_score,
                )
            )
        odds.sort(key=lambda m: (-m.win_probability, m.mean_points))
        outcomes.append(OutcomeOdds(roll, probability, tuple(odds)))
    return PositionAnalysis(position, seat, bot, placement, games, seed, tuple(outcomes), time.perf_counter() - started)
