"""Tournaments: many games between bots, with win rates and confidence intervals.

A tournament plays one *lineup* — a bot name per seat — over and over. No I/O here but
the CSV writer's file: :func:`run_tournament` returns a :class:`TournamentResult`, and
the command line (``ghostparty tournament``) prints it.

Over 400 lines: an eighth is this text (seats, seeds, duplicate deals, intervals: what
the command's output and docs/analysis.md refer to); the code is one job, a lineup's games
played and summed up (the CSV is :mod:`.tournament_csv`'s, the statistics :mod:`.stats`').

**Seat rotation.** Seat order matters in this game (seat 0 places first and moves
first), so no bot may keep a seat. Game ``i`` is played with the lineup rotated by
``r = i % rotations``: seat ``s`` gets ``lineup[(s + r) % players]``. ``rotations`` is
the number of *distinct* rotations of the lineup — ``players``, or fewer when the lineup
repeats (``greedy, random, greedy, random`` has 2). The games are therefore played in
blocks of ``rotations`` games, and the number of games asked for is rounded up to a
whole number of blocks (:attr:`TournamentConfig.total_games`), so that every bot sits
in every seat equally often.

**Seeds.** Every game is a pure function of the lineup and its own seed, which is
derived from the tournament's seed and the game's index alone by the project's one
seeding scheme (:mod:`ghostparty.sim.seeds`: SHA-256 of
``"ghostparty-tournament:{seed}:{index}"``, no :func:`hash`). From the game seed, as in
``ghostparty play --seed``: the die is ``Random(game_seed)`` and the bot in seat ``s``
draws from its own ``Random(f"ghostparty-bot:{game_seed}:{s}")``, so a bot's choices
never change the dice. Each game gets new bot objects and is played by
:func:`ghostparty.sim.playout.seeded_playout`. Hence the results are the same however
the games are spread over processes (``jobs``) or a Dask cluster (``dask``,
:mod:`ghostparty.sim.parallel`), and a game of the CSV file can be watched again with
``ghostparty play --rules R --players N --seat 0=BOT … --seed GAME_SEED``.

**Duplicate deals** (``duplicate=True``, ``ghostparty tournament --duplicate``). The
luck of the die decides most games of this one, which is why a small edge takes
thousands of games to show. In duplicate mode every game of a block — the lineup's
rotations — gets the block's seed (the *deal*, ``game_seed(seed, index // rotations)``),
so each seat sees the same rolls in each rotation while the bots take turns in it: what
one bot made of a deal is set against what the others made of the same rolls, as in
duplicate bridge. The rolls fall to the same seats as long as the games run alike, and
drift apart once the bots' moves make them differ; the deals stay independent of each
other either way, which is what the interval needs.

**Wins.** A game's win is worth 1; a win shared by ``k`` tied winners counts ``1/k``
for each (so the wins of a game always sum to 1 and the fair share of a seat is
``1/players``). A bot's win rate is the mean of its per-seat-game outcomes.

**95 % confidence intervals** of a win rate are computed on those outcomes, treating
seat-games as independent: the Wilson score interval (:func:`wilson_interval`) when
every outcome is 0 or 1, else — some win was shared — the normal approximation with the
sample variance (:func:`normal_interval`). Two seats of one bot in the same game are in
fact negatively correlated (only one can win), which makes the interval slightly
conservative. With duplicate deals the games of a deal are no longer independent: the
interval is then the normal approximation over the deals' mean outcomes
(:func:`deal_interval`), for the bots and for the seats alike.

**Think time** is measured with :func:`time.perf_counter` around each ``choose`` call
(placements and moves); it is the only thing that is not reproducible.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from random import Random
from typing import Any

import ghostparty.analysis.deep  # noqa: F401  (registers the deep bot with the others)
from ghostparty.bots import make_bot
from ghostparty.rules import OVER, ROLL, Ruleset, apply, legal_actions, ruleset, sample_roll, start_position
from ghostparty.rules.rulesets import MAX_PLAYERS, MIN_PLAYERS, RULESETS
from ghostparty.sim.parallel import Workers, chunks, workers
from ghostparty.sim.playout import MAX_ACTIONS, PlayoutError, seeded_playout
from ghostparty.sim.seeds import bot_rng_seed, game_seed
from ghostparty.sim.stats import (
    DEALS,
    NORMAL,
    WILSON,
    Z95,
    BotStats,
    SeatStats,
    deal_interval,
    interval,
    normal_interval,
    summarize_bots,
    summarize_seats,
    wilson_interval,
)

__all__ = [
    "DEALS",
    "MAX_ACTIONS",
    "NORMAL",
    "WILSON",
    "Z95",
    "BotStats",
    "GameResult",
    "SeatStats",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "bot_rng_seed",
    "deal_interval",
    "game_seed",
    "interval",
    "lineup_from",
    "normal_interval",
    "play_game",
    "rotated",
    "rotation_count",
    "run_tournament",
    "summarize_bots",
    "summarize_seats",
    "warm_up",
    "wilson_interval",
]


class TournamentError(PlayoutError):
    """A game could not be played to the end: a bot failed or the game ran too long."""


# -- lineups and rotations ----------------------------------------------------------------


def lineup_from(players: int, bots: Sequence[str] = (), seats: Mapping[int, str] | None = None) -> tuple[str, ...]:
    """The lineup of ``players`` seats: ``bots`` cycled over the seats, then ``seats``
    (seat → bot) overriding single seats.

    >>> lineup_from(4, ["greedy", "random"])
    ('greedy', 'random', 'greedy', 'random')
    >>> lineup_from(3, ["random"], {0: "greedy"})
    ('greedy', 'random', 'random')

    :raises ValueError: for a seat beyond ``players`` or a seat left without a bot.
    """
    seats = dict(seats or {})
    for seat in seats:
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: there are only {players} players (seats 0 to {players - 1})")
    lineup: list[str | None] = [bots[s % len(bots)] if bots else None for s in range(players)]
    for seat, bot in seats.items():
        lineup[seat] = bot
    empty = [s for s, bot in enumerate(lineup) if bot is None]
    if empty:
        raise ValueError(f"no bot for seat(s) {', '.join(map(str, empty))}: name the bots, or a bot for every seat")
    return tuple(bot for bot in lineup if bot is not None)


def rotation_count(lineup: Sequence[str]) -> int:
    """How many distinct rotations ``lineup`` has: the smallest ``r > 0`` that maps it
    onto itself (``len(lineup)`` unless it repeats).

    >>> rotation_count(["a", "b", "c"]), rotation_count(["a", "b", "a", "b"]), rotation_count(["a"] * 5)
    (3, 2, 1)
    """
    n = len(lineup)
    return next(r for r in range(1, n + 1) if all(lineup[(s + r) % n] == lineup[s] for s in range(n)))


def rotated(lineup: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The lineup rotated by ``rotation``: seat ``s`` gets ``lineup[(s + rotation) % players]``.

    >>> rotated(["a", "b", "c"], 1)
    ('b', 'c', 'a')
    """
    n = len(lineup)
    return tuple(lineup[(s + rotation) % n] for s in range(n))


# -- one game ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One finished game.

    ``think`` (seconds in ``choose`` per seat) is left out of comparisons, as it is the
    only field that differs between runs.
    """

    index: int
    seed: int
    #: The bot name per seat, for this game (already rotated).
    lineup: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    #: Actions in the game, die rolls included.
    actions: int
    #: ``choose`` calls per seat (placements and moves).
    decisions: tuple[int, ...]
    think: tuple[float, ...] = field(compare=False)

    @property
    def players(self) -> int:
        return len(self.lineup)

    def outcome(self, seat: int) -> float:
        """The seat's share of the win: ``1/k`` if it is one of ``k`` winners, else 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


def play_game(
    rules: Ruleset | str,
    lineup: Sequence[str],
    seed: int,
    *,
    index: int = 0,
    max_actions: int = MAX_ACTIONS,
) -> GameResult:
    """Play one game between the bots named in ``lineup`` (one per seat; seat 0 starts).

    The die is ``Random(seed)``, the bot in seat ``s`` gets ``Random(bot_rng_seed(seed, s))``
    — what ``ghostparty play --seed SEED`` uses, so it plays the same game. ``index``
    is only recorded in the result.

    :raises TournamentError: if a bot fails (raises, or chooses an illegal action) or
        the game takes more than ``max_actions`` actions.
    """
    rs = ruleset(rules) if isinstance(rules, str) else rules
    players = len(lineup)
    decisions = [0] * players
    think = [0.0] * players
    position = start_position(rs, players)
    actions = 0
    try:
        steps = seeded_playout(position, [make_bot(name) for name in lineup], seed, max_actions=max_actions)
        for _, _, after, seat, rolled, seconds, _ in steps:  # unpacked: cheaper than attributes
            if not rolled:
                decisions[seat] += 1
                think[seat] += seconds
            actions += 1
            position = after
    except PlayoutError as error:
        if error.seat is None:
            raise TournamentError(
                f"game {index} (seed {seed}, lineup {', '.join(lineup)}) {error}", actions=error.actions
            ) from None
        cause = error.__cause__
        raise TournamentError(
            f"game {index} (seed {seed}): bot {lineup[error.seat]!r} in seat {error.seat} failed after "
            f"{error.actions} actions: {type(cause).__name__}: {cause}",
            seat=error.seat,
            actions=error.actions,
        ) from cause
    return GameResult(
        index=index,
        seed=seed,
        lineup=tuple(lineup),
        scores=position.scores,
        winners=position.winners,
        actions=actions,
        decisions=tuple(decisions),
        think=tuple(think),
    )


# -- the configuration -------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the rule set, the lineup (a bot name per seat, before rotation),
    how many games and the seed; with ``duplicate``, every block of rotations plays one
    deal (see the module's docs).

    :raises ValueError: for an unknown rule set or bot, a lineup of the wrong length,
        or fewer than one game.
    """

    rules: str
    lineup: tuple[str, ...]
    games: int
    seed: int = 0
    max_actions: int = MAX_ACTIONS
    duplicate: bool = False

    def __post_init__(self) -> None:
        if self.rules not in RULESETS:
            raise ValueError(f"unknown rule set {self.rules!r}: expected one of {', '.join(sorted(RULESETS))}")
        if not MIN_PLAYERS <= len(self.lineup) <= MAX_PLAYERS:
            raise ValueError(f"a lineup has {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(self.lineup)}")
        for name in self.lineup:
            make_bot(name)  # raises ValueError for an unknown bot or bad options
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")
        if self.max_actions < 1:
            raise ValueError(f"max_actions must be at least 1, got {self.max_actions}")

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def rotations(self) -> int:
        """Games per block: the distinct rotations of the lineup (see the module's docs)."""
        return rotation_count(self.lineup)

    @property
    def total_games(self) -> int:
        """``games`` rounded up to a whole number of blocks of :attr:`rotations` games."""
        return -(-self.games // self.rotations) * self.rotations

    @property
    def bots(self) -> tuple[str, ...]:
        """The distinct bots of the lineup, in the order of their first seat."""
        return tuple(dict.fromkeys(self.lineup))

    def lineup_of(self, index: int) -> tuple[str, ...]:
        """The bot per seat in game ``index``."""
        return rotated(self.lineup, index % self.rotations)

    def seed_of(self, index: int) -> int:
        """The seed of game ``index``: its own, or with ``duplicate`` its block's."""
        return game_seed(self.seed, index // self.rotations if self.duplicate else index)

    @property
    def deal_size(self) -> int | None:
        """Games per deal with ``duplicate`` (the rotations), else ``None``: every game
        is its own deal."""
        return self.rotations if self.duplicate else None

    def play(self, index: int) -> GameResult:
        """Play game ``index`` of the tournament."""
        return play_game(
            self.rules, self.lineup_of(index), self.seed_of(index), index=index, max_actions=self.max_actions
        )


# -- the result --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentResult:
    """Every game of a tournament, in index order, and the statistics over them.

    ``seconds`` and ``jobs`` are left out of comparisons: equal results mean the same
    games with the same outcomes.
    """

    config: TournamentConfig
    games: tuple[GameResult, ...]
    seconds: float = field(compare=False)
    jobs: int = field(compare=False)

    @property
    def games_per_second(self) -> float:
        return len(self.games) / self.seconds if self.seconds > 0 else math.inf

    def bot_stats(self) -> list[BotStats]:
        """Per bot, in the order of the lineup."""
        return summarize_bots(self.games, self.config.bots, self.config.deal_size)

    def seat_stats(self) -> list[SeatStats]:
        """Per seat."""
        return summarize_seats(self.games, self.config.deal_size)

    def to_dict(self) -> dict[str, Any]:
        """The configuration and the statistics as JSON-ready data (no per-game rows)."""
        config = self.config
        return {
            "rules": config.rules,
            "players": config.players,
            "lineup": list(config.lineup),
            "rotations": config.rotations,
            "games_requested": config.games,
            "games": len(self.games),
            "seed": config.seed,
            "duplicate": config.duplicate,
            "jobs": self.jobs,
            "cores": os.cpu_count(),
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "actions_per_game": sum(g.actions for g in self.games) / len(self.games) if self.games else 0.0,
            "confidence": 0.95,
            "bots": [
                {
                    "bot": s.bot,
                    "seat_games": s.seat_games,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "ci_low": s.ci_low,
                    "ci_high": s.ci_high,
                    "ci_method": s.ci_method,
                    "fair_share": s.fair_share,
                    "above_fair": s.above_fair,
                    "below_fair": s.below_fair,
                    "mean_points": s.mean_points,
                    "decisions": s.decisions,
                    "ms_per_decision": s.ms_per_decision,
                    "by_seat": [
                        {"seat": seat, "seat_games": n, "wins": w, "win_rate": w / n if n else None}
                        for seat, (n, w) in enumerate(s.by_seat)
                    ],
                }
                for s in self.bot_stats()
            ],
            "seats": [
                {
                    "seat": s.seat,
                    "colour": s.colour,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "ci_low": s.ci_low,
                    "ci_high": s.ci_high,
                    "ci_method": s.ci_method,
                    "fair_share": s.fair_share,
                    "mean_points": s.mean_points,
                }
                for s in self.seat_stats()
            ],
        }


# -- running ---------------------------------------------------------------------------------


def play_chunk(config: TournamentConfig, start: int, stop: int) -> list[GameResult]:
    """Play games ``start`` … ``stop - 1`` of the tournament (a task for :class:`Workers`)."""
    return [config.play(index) for index in range(start, stop)]


def warm_up(rules: str, players: int) -> None:
    """Play one random game without bots, so that the rules engine's lazily built
    tables exist before any bot's think time is measured (and before workers fork)."""
    rng = Random(0)
    position = start_position(ruleset(rules), players)
    while position.phase != OVER:
        actions = legal_actions(position) if position.phase != ROLL else [sample_roll(rng)]
        position = apply(position, actions[int(rng.random() * len(actions))])


def run_tournament(
    config: TournamentConfig,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    dask: str | None = None,
    pool: Workers | None = None,
) -> TournamentResult:
    """Play the tournament's :attr:`~TournamentConfig.total_games` games and return them
    in index order: in this process (``jobs=1``), on ``jobs`` local processes, on the Dask
    cluster whose scheduler is at ``dask``, or on ``pool`` (see
    :mod:`ghostparty.sim.parallel`). ``progress(n)`` is called in this process each time
    ``n`` more games have finished. The games depend on none of these.

    :raises TournamentError: if a game fails (the other games are abandoned).
    :raises ParallelError: if the Dask cluster cannot be reached.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    total = config.total_games
    warm_up(config.rules, config.players)
    started = time.perf_counter()
    with ExitStack() as stack:
        where = pool or stack.enter_context(workers(jobs, dask))
        # In this process, a game per task: the progress bar moves with every game.
        pieces = chunks(total, where.slots, most=1 if where.local else 64, per_slot=20)
        played = where.map(play_chunk, [(config, a, b) for a, b in pieces], progress, [b - a for a, b in pieces])
        done = [game for chunk in played for game in chunk]
        slots = min(where.slots, len(pieces))
    seconds = time.perf_counter() - started
    return TournamentResult(config=config, games=tuple(done), seconds=seconds, jobs=slots)
