"""Ratings: OpenSkill's Plackett–Luce model, one rating per player and rule set.

A rating is a belief about a player's skill, a normal distribution of mean ``mu`` and
spread ``sigma`` (OpenSkill's defaults: 25 and 25/3). After a rated game every seat's
rating moves by the places of the game (fewest points first, ties sharing a place),
2 to 8 seats at once: Weng and Lin's Plackett–Luce update, as the ``openskill`` package
computes it. docs/ARCHITECTURE.md argues the choice.

What players see is :func:`shown`: ``mu`` on an Elo-like scale, 1500 for a new player,
where 200 points between two players mean about what they mean in chess. A rating is
:func:`provisional` while its ``sigma`` is large.

The bot levels are players whose ratings are **anchors**: fixed numbers, measured once
by ``ghostparty ratings`` (rated games between the bots, ``bot_ratings.json``) and never
moved by games with people. A bot's strength doesn't change, so its number shouldn't
drift; and people's numbers, which move against these fixed points, keep one meaning
over the years (the scale is set so that ``greedy`` is 1500: a new player starts as
strong as the greedy bot is believed to be).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import NamedTuple

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
#: Rating points per unit of ``mu``: a difference of ``BETA`` reads as 200 points.
SCALE = 200 / BETA
#: A rating is provisional while ``sigma`` is above this (shown with a "?").
PROVISIONAL_SIGMA = 6.0
#: Ranked on the leaderboard from this many rated games on.
LEADERBOARD_GAMES = 5
#: The bot levels that are rated players, by player name.
BOT_LEVELS = ("random", "greedy", "learned", "expectimax", "mcts")


class Rating(NamedTuple):
    mu: float
    sigma: float


NEW = Rating(MU, SIGMA)


def shown(mu: float) -> int:
    """The number players see: 1500 for a new player, Elo-like steps."""
    return round(1500 + (mu - MU) * SCALE)


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def bot_player_name(level: str) -> str:
    """The player name of a bot level: ``greedy`` -> ``greedy-bot``."""
    return f"{level}-bot"


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Every seat's rating after a game in which seat ``i`` (rated ``before[i]``) took
    ``places[i]`` (1 is best; equal places are ties)."""
    if len(before) != len(places) or not 2 <= len(before) <= 8:
        raise ValueError(f"a rated game has 2 to 8 seats with a place each, not {len(before)} and {len(places)}")
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=[float(p) for p in places])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


def places(points: Sequence[int]) -> list[int]:
    """Each seat's place by its points, fewest first (RULES.md §7, §8.7: the lowest
    score wins); equal points share a place and the next counts them (1, 1, 3)."""
    return [1 + sum(other < own for other in points) for own in points]


@cache
def bot_anchors() -> dict[str, dict[str, Rating]]:
    """Per rule set, each bot level's fixed rating (``bot_ratings.json``)."""
    data = json.loads((files("ghostparty.server.common") / "bot_ratings.json").read_text(encoding="utf-8"))
    return {
        rules: {level: Rating(float(v["mu"]), float(v["sigma"])) for level, v in levels.items()}
        for rules, levels in data["ratings"].items()
    }


def bot_rating(rules: str, level: str) -> Rating:
    """A bot level's anchor in ``rules``; a new player's rating if it has none yet."""
    return bot_anchors().get(rules, {}).get(level, NEW)


def win_chance(a: Rating, b: Rating) -> float:
    """The chance that ``a`` finishes ahead of ``b`` in a game of two (the model's)."""
    c = math.sqrt(a.sigma**2 + b.sigma**2 + 2 * BETA**2)
    return 1 / (1 + math.exp((b.mu - a.mu) / c))
