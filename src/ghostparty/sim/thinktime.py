"""Think time per bot: how long each level takes to choose a move, timed on the same positions.

The positions are the move decisions (phase ``"move"``, more than one legal move) of
seeded games between greedy bots (:func:`~ghostparty.sim.playout.seeded_playout`, game
``i`` seeded ``game_seed(seed, i)``), so every level is timed on the same, realistic
positions; placements and forced moves, which no level thinks about, are left out.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from ghostparty.bots import make_bot
from ghostparty.rules import MOVE, Position, Ruleset, legal_actions, start_position
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed

#: The bot that plays the games the positions come from.
SOURCE_BOT = "greedy"


@dataclass(frozen=True)
class ThinkTime:
    """One bot's decision times on one setting's positions, in milliseconds."""

    bot: str
    rules: str
    players: int
    times_ms: tuple[float, ...]

    @property
    def decisions(self) -> int:
        return len(self.times_ms)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def p90_ms(self) -> float:
        return _quantile(self.times_ms, 0.9)

    @property
    def max_ms(self) -> float:
        return max(self.times_ms)

    @property
    def mean_ms(self) -> float:
        return statistics.fmean(self.times_ms)

    def to_dict(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "rules": self.rules,
            "players": self.players,
            "decisions": self.decisions,
            "median_ms": round(self.median_ms, 3),
            "p90_ms": round(self.p90_ms, 3),
            "max_ms": round(self.max_ms, 3),
            "mean_ms": round(self.mean_ms, 3),
        }


def _quantile(values: tuple[float, ...], q: float) -> float:
    """The ``q`` quantile by the nearest rank (no interpolation): a time that was measured."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def decision_positions(ruleset: Ruleset, players: int, games: int, seed: int = 0) -> list[Position]:
    """Every move decision with more than one legal move in ``games`` seeded games of
    greedy bots, in the order they came up."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    bots = [make_bot(SOURCE_BOT)] * players
    found: list[Position] = []
    for game in range(games):
        for step in seeded_playout(start_position(ruleset, players), bots, game_seed(seed, game)):
            if step.position.phase == MOVE and len(legal_actions(step.position)) > 1:
                found.append(step.position)
    if not found:
        raise ValueError(f"{games} game(s) of {ruleset.id} with {players} players held no decision to time")
    return found


def think_time(
    spec: str,
    positions: list[Position],
    seed: int = 0,
    on_decision: Callable[[], None] | None = None,
) -> ThinkTime:
    """Time bot ``spec`` (as :func:`~ghostparty.bots.make_bot` reads it) choosing a move in
    each of ``positions``, one after the other on this core; ``on_decision`` is called
    after each (for a progress bar)."""
    if not positions:
        raise ValueError("no positions to time")
    bot = make_bot(spec)
    rng = Random(seed)
    times: list[float] = []
    for position in positions:
        started = time.perf_counter()
        bot.choose(position, rng)
        times.append((time.perf_counter() - started) * 1000)
        if on_decision is not None:
            on_decision()
    first = positions[0]
    return ThinkTime(spec, first.ruleset.id, first.players, tuple(times))
