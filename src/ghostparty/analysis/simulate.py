"""Simulated games with guest tracking: capture odds per starting square, wins per seat.

Every seat plays the same bot policy (:func:`ghostparty.bots.make_bot`); the die is
:func:`ghostparty.rules.sample_roll`. Game ``i`` of a run with seed ``s`` draws its die
and its decisions from two random sources seeded from ``(s, i)`` alone, and the tallies
are integer counts, so a run gives the same numbers whether it uses one process or many.

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
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from multiprocessing.pool import Pool
from random import Random
from typing import Any, TypeVar

from ghostparty.analysis.stats import WinTally
from ghostparty.analysis.tracker import GuestTracker, RoundLedger
from ghostparty.bots import Bot, bot_names, make_bot
from ghostparty.rules import (
    OVER,
    PLACE,
    ROLL,
    RULESETS,
    Action,
    Event,
    Position,
    apply,
    legal_actions,
    ruleset,
    sample_roll,
    start_position,
)
from ghostparty.sim.stats import wilson_interval

#: Who places the guests: uniformly at random, or the bot policy itself.
PLACEMENTS = ("uniform", "bot")
#: How long a starting square's guest is followed in ``midnight-party``.
HORIZONS = ("round", "game")

R = TypeVar("R")


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


def game_rngs(seed: int, game: int) -> tuple[Random, Random]:
    """The die's and the decisions' random sources of game number ``game`` of a run.

    They depend on ``(seed, game)`` only (string seeds are hashed with SHA-512, the same
    in every process), which makes runs independent of how games are split over processes.
    """
    return Random(f"ghostparty-analysis/{seed}/{game}/die"), Random(f"ghostparty-analysis/{seed}/{game}/choices")


def choose(position: Position, bots: Sequence[Bot], placement: str, die: Random, rng: Random) -> Action:
    """The next action: the die in phase ``"roll"``, else the placement rule or the seat's bot."""
    if position.phase == ROLL:
        return sample_roll(die)
    if position.phase == PLACE and placement == "uniform":
        actions = legal_actions(position)
        return actions[int(rng.random() * len(actions))]
    return bots[position.to_move].choose(position, rng)


def play_out(
    position: Position,
    bots: Sequence[Bot],
    placement: str,
    die: Random,
    rng: Random,
    tracker: GuestTracker | None = None,
) -> Position:
    """Play ``position`` to the end; feed every action's events to ``tracker`` if given."""
    events: list[Event] = []
    while position.phase != OVER:
        action = choose(position, bots, placement, die, rng)
        if tracker is None:
            position = apply(position, action)
        else:
            events.clear()
            position = apply(position, action, events)
            tracker.feed(events)
    return position


def play_tracked_game(settings: Settings, game: int) -> GuestTracker:
    """Play game number ``game`` of the run from the start; the tracker has followed it all."""
    position = start_position(ruleset(settings.rules), settings.players)
    bots = [make_bot(settings.bot) for _ in range(settings.players)]
    die, rng = game_rngs(settings.seed, game)
    tracker = GuestTracker(position)
    play_out(position, bots, settings.placement, die, rng, tracker)
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


# -- running, in one process or many ----------------------------------------------------------


def _call(job: tuple[Callable[..., R], tuple[Any, ...]]) -> R:
    func, args = job
    return func(*args)


def _context() -> BaseContext:
    """``fork`` on Linux (fast, and workers see every registered bot), else ``spawn``."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


@contextmanager
def workers(jobs: int) -> Iterator[Pool | None]:
    """A pool of ``jobs`` worker processes for :func:`simulate` and friends (``None`` for one job).

    Enter it *before* starting threads such as a progress bar's: on Linux the workers
    are forked when the pool starts, and forking a process that runs threads is unsafe.
    Elsewhere workers are spawned, which needs the usual ``if __name__ == "__main__":``
    guard in a script, and bots must register themselves when :mod:`ghostparty.bots`
    is imported.
    """
    if jobs <= 1:
        yield None
        return
    with _context().Pool(jobs) as pool:
        yield pool


def run_jobs(func: Callable[..., R], tasks: Sequence[tuple[Any, ...]], pool: Pool | None = None) -> Iterator[R]:
    """``func(*task)`` for every task, results in task order: in ``pool`` or in this process.

    ``func`` must be a module-level function (it is sent to the workers by name).
    """
    if pool is None or len(tasks) <= 1:
        for task in tasks:
            yield func(*task)
        return
    yield from pool.imap(_call, [(func, task) for task in tasks])


def default_jobs() -> int:
    """The number of processes to use when none is given: every core."""
    return multiprocessing.cpu_count()


def chunks(total: int, jobs: int, most: int = 200) -> list[tuple[int, int]]:
    """Split ``range(total)`` into ``(start, stop)`` pieces: several per process, for progress."""
    size = max(1, min(most, total // (max(1, jobs) * 16)))
    return [(start, min(total, start + size)) for start in range(0, total, size)]


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
    pool: Pool | None = None,
) -> Simulation:
    """Play ``settings.games`` games and count them; ``progress(n)`` after each ``n`` games.

    The games run over ``jobs`` processes, in ``pool`` if one is given (see
    :func:`workers`). The numbers depend on the settings only, not on ``jobs``.
    """
    settings.check()
    started = time.perf_counter()
    tally = Tally.empty(settings)
    pieces = chunks(settings.games, jobs)
    tasks = [(settings, a, b) for a, b in pieces]
    with ExitStack() as stack:
        if pool is None and jobs > 1 and len(tasks) > 1:
            pool = stack.enter_context(workers(jobs))
        for (start, stop), part in zip(pieces, run_jobs(simulate_chunk, tasks, pool), strict=True):
            tally.merge(part)
            if progress is not None:
                progress(stop - start)
    return Simulation(settings, tally, time.perf_counter() - started, max(1, jobs))
