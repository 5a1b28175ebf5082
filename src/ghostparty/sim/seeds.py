"""The one seeding scheme of every game played in bulk: tournaments, analyses, think time.

A run has one seed; game ``i`` of it has its own *game seed*, derived from the run's seed
and ``i`` alone (:func:`game_seed`: SHA-256, never :func:`hash`, so the same in every
process, on every machine and in every Python). From the game seed come the game's
random sources, each its own :class:`random.Random`:

* the die: ``Random(game_seed)`` (:func:`die_rng`) — what :class:`~ghostparty.rules.Game`
  rolls with ``Game(seed=game_seed)``;
* the policy in seat ``s``: ``Random(f"ghostparty-bot:{game_seed}:{s}")`` (:func:`bot_rng`)
  — what ``ghostparty play --seed`` gives its bots.

So a game depends only on (run seed, game index, who sits where): not on how many
processes or machines play the run, nor in which order, and a bot's choices (or how many
random numbers it draws) never change the dice. Any game of a run can be watched again
with ``ghostparty play --seed GAME_SEED``. The compiled simulator (:mod:`ghostparty.fast`)
follows the same rule with its own generator: a SplitMix64 stream per (run seed, game).

The hash's text says ``tournament`` because tournaments used this scheme first; keeping
it keeps every documented tournament playing the games it played.

>>> game_seed(1, 0)
115017845125509
>>> die_rng(game_seed(1, 0)).random() == Random(115017845125509).random()
True
"""

from __future__ import annotations

import hashlib
from random import Random

__all__ = ["bot_rng", "bot_rng_seed", "die_rng", "game_seed"]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: 48 bits of SHA-256 of
    ``"ghostparty-tournament:{seed}:{index}"``, the same in every process and on every platform."""
    digest = hashlib.sha256(f"ghostparty-tournament:{seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:6], "big")


def bot_rng_seed(seed: int, seat: int) -> str:
    """The seed of the random source of the policy in ``seat`` of the game seeded ``seed``."""
    return f"ghostparty-bot:{seed}:{seat}"


def die_rng(seed: int) -> Random:
    """The die's random source of the game seeded ``seed``."""
    return Random(seed)


def bot_rng(seed: int, seat: int) -> Random:
    """The random source of the policy in ``seat`` of the game seeded ``seed``."""
    return Random(bot_rng_seed(seed, seat))
