"""The bot levels' anchored ratings, measured: rated games between the bots.

Game ``i`` seats 2 to 4 distinct levels, drawn with its seed (:func:`lineup_of`), and is
played by :func:`ghostparty.sim.tournament.play_game`; the games are then rated in index
order with the server's own update (:func:`~ghostparty.server.common.ratings.rate`), every level
starting as a new player and moving. At the end the scale is shifted so that ``greedy``
is 1500 (``mu`` 25): the anchors of ``bot_ratings.json``. The same games and numbers come
out for the same seed, however many processes play them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from ghostparty.server.common.ratings import BOT_LEVELS, MU, NEW, Rating, places, rate
from ghostparty.sim.parallel import workers
from ghostparty.sim.tournament import GameResult, game_seed, play_game

#: The level whose rating is set to a new player's (the scale's zero).
ANCHOR = "greedy"


@dataclass(frozen=True, slots=True)
class Calibration:
    rules: str
    games: int
    seed: int
    ratings: dict[str, Rating]
    #: Rated games per level.
    played: dict[str, int]


def lineup_of(seed: int, index: int, levels: Sequence[str] = BOT_LEVELS) -> tuple[str, ...]:
    """Game ``index``'s lineup: 2 to 4 distinct levels in a random seat order."""
    rng = Random(f"ghostparty-calibrate:{seed}:{index}")
    players = rng.randint(2, min(4, len(levels)))
    return tuple(rng.sample(list(levels), players))


def _play(rules: str, seed: int, index: int, levels: tuple[str, ...]) -> GameResult:
    return play_game(rules, lineup_of(seed, index, levels), game_seed(seed, index), index=index)


def calibrate(
    rules: str,
    games: int,
    seed: int = 1,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    levels: Sequence[str] = BOT_LEVELS,
) -> Calibration:
    """Play and rate ``games`` games between the bot ``levels`` (see the module), on
    ``jobs`` processes (:func:`ghostparty.sim.parallel.workers`, as tournaments and
    analyses play theirs)."""
    if ANCHOR not in levels:
        raise ValueError(f"the levels must include the anchor, {ANCHOR!r}")
    tasks = [(rules, seed, index, tuple(levels)) for index in range(games)]
    with workers(jobs) as pool:
        results = list(pool.map(_play, tasks, progress))
    results.sort(key=lambda game: game.index)
    ratings = {level: NEW for level in levels}
    played = dict.fromkeys(levels, 0)
    for game in results:
        moved = rate([ratings[level] for level in game.lineup], places(game.scores))
        for level, new in zip(game.lineup, moved, strict=True):
            ratings[level] = new
            played[level] += 1
    shift = MU - ratings[ANCHOR].mu
    anchored = {level: Rating(r.mu + shift, r.sigma) for level, r in ratings.items()}
    return Calibration(rules, games, seed, anchored, played)
