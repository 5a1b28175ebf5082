"""Simulated games with guest tracking: capture odds per starting square, wins per seat.

Every seat plays the same bot policy (:func:`ghostparty.bots.make_bot`). Game ``i`` of a
run seeded ``s`` is played by :func:`ghostparty.sim.playout.seeded_playout` on the game
seed ``game_seed(s, i)`` of the one seeding scheme (:mod:`ghostparty.sim.seeds`): the
die and every seat draw from their own random sources, seeded from ``(s, i)`` alone —
the very game a tournament of that bot in every seat plays as its game ``i``. The
tallies are integer counts, so a run gives the same numbers whether it uses one
process, many, or a Dask cluster (:mod:`ghostparty.sim.parallel`).

**Placement.** ``placement="uniform"`` (the default for the heat-map) places every guest
on a uniformly random empty square while the bot plays every move: each square gets
about the same number of samples, and the map shows how dangerous a square is to *start*
on under that policy's play. ``placement="bot"`` lets the bot place as well: the
"natural" numbers of its games, where squares it rarely chooses have few samples (the
sample count is reported per square, and the heat-map hatches thin squares). For the
random bot both are the same.

**What is measured per starting square.** A sample is one guest placed at the start of
the game (round 1) on that square. ``hugo`` is one round: the guest is followed to the
game's end. ``midnight-party`` has three rounds; ``horizon="round"`` (the default)
follows the guest to the end of round 1, the round its starting square was chosen for,
and ``horizon="game"`` follows the same guest through all three rounds (after round 1
its later squares depend on where it was put back). Guests placed again in rounds 2
and 3 are not samples of their square: their placement is conditional on having been
captured. For each square: the probability that Hugo captures the guest at least once,
the mean number of captures, the mean spooky points of those captures, and the mean of
all spooky points booked to the guest (captures, shields, and in ``midnight-party`` the
wine cellar) — see :mod:`ghostparty.analysis.tracker`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from ghostparty.analysis.tracker import GuestTracker, RoundLedger
from ghostparty.bots import Bot, bot_names, make_bot
from ghostparty.rules import RULESETS, ruleset, start_position
from ghostparty.sim.parallel import Workers, chunks, default_jobs, workers
from ghostparty.sim.playout import UniformPlacement, seeded_playout
from ghostparty.sim.seeds import game_seed
from ghostparty.sim.stats import WinTally, wilson_interval

__all__ = [
    "HORIZONS",
    "PLACEMENTS",
    "SeatStat",
    "Settings",
    "Simulation",
    "SquareStat",
    "SquareTally",
    "Tally",
    "default_jobs",
    "play_tracked_game",
    "policies",
    "simulate",
    "simulate_chunk",
    "workers",
]

#: Who places the guests: uniformly at random, or the bot policy itself.
PLACEMENTS = ("uniform", "bot")
#: How long a starting square's guest is followed in ``midnight-party``.
HORIZONS = ("round", "game")


@dataclass(frozen=True)
class Settings:
    """What to simulate. Validate with :meth:`check` before a long run."""

    rules: str = "hugo"
    players: int = 4
    bot: str = "random"
    placement: str = "uniform"
    horizon: str = "round"
    games: int = 1000
    seed: int = 0

    def check(self) -> None:
        """Raise :class:`ValueError` naming the first setting that is wrong."""
        if self.rules not in RULESETS:
            raise ValueError(f"unknown rule set {self.rules!r}: expected one of {', '.join(sorted(RULESETS))}")
        if not 2 <= self.players <= 8:
            raise ValueError(f"players must be 2 to 8, got {self.players}")
        if self.bot not in bot_names():
            raise ValueError(f"unknown bot {self.bot!r}: expected one of {', '.join(bot_names())}")
        if self.placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}, got {self.placement!r}")
        if self.horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}, got {self.horizon!r}")
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")

    def describe(self) -> str:
        """A one-line summary, e.g. ``'hugo, 4 players, random bot (uniform placement), 1,000 games'``."""
        placement = "uniform placement" if self.placement == "uniform" else "its own placement"
        return f"{self.rules}, {self.players} players, {self.bot} bot ({placement}), {self.games:,} games"


# -- one game ---------------------------------------------------------------------------------


def policies(bot: str, placement: str, players: int) -> list[Bot]:
    """A new ``bot`` per seat; with ``placement="uniform"`` each places uniformly at random
    (which the random bot does anyway, with the same draw: it is left unwrapped)."""
    if placement == "uniform" and bot != "random":
        return [UniformPlacement(make_bot(bot)) for _ in range(players)]
    return [make_bot(bot) for _ in range(players)]


def play_tracked_game(settings: Settings, game: int) -> GuestTracker:
    """Play game number ``game`` of the run from the start; the tracker has followed it all."""
    position = start_position(ruleset(settings.rules), settings.players)
    tracker = GuestTracker(position)
    seats = policies(settings.bot, settings.placement, settings.players)
    feed = tracker.feed
    for *_, happened in seeded_playout(position, seats, game_seed(settings.seed, game), events=True):
        feed(happened)  # type: ignore[arg-type]  # a list: the playout was asked for events
    return tracker


# -- tallies ----------------------------------------------------------------------------------


@dataclass
class SquareTally:
    """Per starting square, integer sums over the guests placed there."""

    squares: int
    samples: list[int] = field(default_factory=list)
    captured: list[int] = field(default_factory=list)
    captures: list[int] = field(default_factory=list)
    capture_points: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    sent: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("samples", "captured", "captures", "capture_points", "points", "sent"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.squares)

    def add(self, square: int, ledger: RoundLedger) -> None:
        """Count one guest that started on ``square`` and what it cost."""
        self.samples[square] += 1
        self.captured[square] += ledger.captures > 0
        self.captures[square] += ledger.captures
        self.capture_points[square] += ledger.capture_points
        self.points[square] += ledger.points
        self.sent[square] += ledger.sent_to_cellar

    def merge(self, other: SquareTally) -> None:
        """Add another tally of the same board to this one."""
        for name in ("samples", "captured", "captures", "capture_points", "points", "sent"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, value in enumerate(theirs):
                mine[i] += value


@dataclass
class Tally:
    """Everything a run counts; merging tallies in any order gives the same numbers."""

    squares: SquareTally
    wins: WinTally
    ends: dict[str, int] = field(default_factory=dict)

    @classmethod
    def empty(cls, settings: Settings) -> Tally:
        """A tally with nothing counted, for the settings' board and players."""
        return cls(SquareTally(ruleset(settings.rules).board.squares), WinTally(settings.players))

    def add(self, tracker: GuestTracker, horizon: str) -> None:
        """Count one finished game from its tracker."""
        for guest in tracker.all_guests():
            square = guest.start
            if square is not None:
                ledger = guest.ledger(1) if horizon == "round" else guest.total()
                self.squares.add(square, ledger)
        assert tracker.winners is not None and tracker.final_scores is not None
        self.wins.add(tracker.winners, tracker.final_scores)
        reason = tracker.end_reason or "?"
        self.ends[reason] = self.ends.get(reason, 0) + 1

    def merge(self, other: Tally) -> None:
        """Add another tally of the same settings to this one."""
        self.squares.merge(other.squares)
        self.wins.merge(other.wins)
        for reason, count in other.ends.items():
            self.ends[reason] = self.ends.get(reason, 0) + count


def simulate_chunk(settings: Settings, start: int, stop: int) -> Tally:
    """Play games number ``start`` … ``stop - 1`` of the run and count them."""
    tally = Tally.empty(settings)
    for game in range(start, stop):
        tally.add(play_tracked_game(settings, game), settings.horizon)
    return tally


# -- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SquareStat:
    """The numbers of one starting square."""

    square: int
    name: str
    #: The room whose door is this square, if any.
    door_of: str | None
    samples: int
    capture_probability: float
    ci_low: float
    ci_high: float
    mean_captures: float
    mean_capture_points: float
    mean_points: float
    #: ``midnight-party``: the probability it was on the gallery when a followed round ended.
    cellar_probability: float

    def as_dict(self) -> dict[str, Any]:
        """The numbers as a JSON-ready dict."""
        return {
            "square": self.square,
            "name": self.name,
            "door_of": self.door_of,
            "samples": self.samples,
            "capture_probability": _round(self.capture_probability),
            "ci95": [_round(self.ci_low), _round(self.ci_high)] if self.samples else None,
            "mean_captures": _round(self.mean_captures),
            "mean_capture_points": _round(self.mean_capture_points),
            "mean_points": _round(self.mean_points),
            "cellar_probability": _round(self.cellar_probability),
        }


@dataclass(frozen=True)
class SeatStat:
    """One seat's results: win rate with shared wins split, its 95 % interval, mean score."""

    seat: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float

    def as_dict(self) -> dict[str, Any]:
        """The numbers as a JSON-ready dict."""
        return {
            "seat": self.seat,
            "wins": _round(self.wins),
            "win_rate": _round(self.win_rate),
            "ci95": [_round(self.ci_low), _round(self.ci_high)],
            "mean_score": _round(self.mean_score),
        }


def _round(value: float) -> float | None:
    """Five decimals for JSON; ``None`` (JSON ``null``) for a value without samples."""
    return None if math.isnan(value) else round(value, 5)


@dataclass
class Simulation:
    """A finished run: its settings, the tally and how long it took."""

    settings: Settings
    tally: Tally
    seconds: float = 0.0
    jobs: int = 1

    def squares(self) -> list[SquareStat]:
        """The numbers of every starting square, by square number."""
        board = ruleset(self.settings.rules).board
        t = self.tally.squares
        stats = []
        for sq in range(board.squares):
            n = t.samples[sq]
            low, high = wilson_interval(t.captured[sq], n)
            room = board.room_at[sq]
            stats.append(
                SquareStat(
                    square=sq,
                    name=board.name(sq),
                    door_of=board.room(room).id if room >= 0 else None,
                    samples=n,
                    capture_probability=t.captured[sq] / n if n else math.nan,
                    ci_low=low,
                    ci_high=high,
                    mean_captures=t.captures[sq] / n if n else math.nan,
                    mean_capture_points=t.capture_points[sq] / n if n else math.nan,
                    mean_points=t.points[sq] / n if n else math.nan,
                    cellar_probability=t.sent[sq] / n if n else math.nan,
                )
            )
        return stats

    def seats(self) -> list[SeatStat]:
        """Every seat's win rate (shared wins split) with 95 % intervals, by seat."""
        w = self.tally.wins
        return [
            SeatStat(seat, w.wins(seat), w.rate(seat), *w.interval(seat), w.mean_score(seat))
            for seat in range(self.settings.players)
        ]

    def settings_dict(self) -> dict[str, Any]:
        """The settings and run facts as a JSON-ready dict."""
        s = self.settings
        return {
            "rules": s.rules,
            "players": s.players,
            "bot": s.bot,
            "placement": s.placement,
            "horizon": s.horizon if s.rules != "hugo" else "game",
            "games": s.games,
            "seed": s.seed,
            "ends": dict(sorted(self.tally.ends.items())),
        }


def simulate(
    settings: Settings,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    pool: Workers | None = None,
    *,
    dask: str | None = None,
) -> Simulation:
    """Play ``settings.games`` games and count them; ``progress(n)`` after each ``n`` games.

    The games run on ``pool`` if one is given, else over ``jobs`` local processes or on
    the Dask cluster whose scheduler is at ``dask`` (see :mod:`ghostparty.sim.parallel`).
    The numbers depend on the settings only, not on where the games ran.

    :raises ValueError: for wrong settings. :raises ParallelError: for an unreachable cluster.
    """
    settings.check()
    started = time.perf_counter()
    tally = Tally.empty(settings)
    with ExitStack() as stack:
        where = pool or stack.enter_context(workers(jobs, dask))
        pieces = chunks(settings.games, where.slots, most=200)
        tasks = [(settings, a, b) for a, b in pieces]
        for part in where.map(simulate_chunk, tasks, progress, [b - a for a, b in pieces]):
            tally.merge(part)
        slots = where.slots
    return Simulation(settings, tally, time.perf_counter() - started, slots)
