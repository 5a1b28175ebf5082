"""A random game played out inside the rules core: the engine benchmark's loop.

:func:`random_game` rolls the die and picks uniformly among the legal actions, with one
:class:`random.Random`, until the game is over. It is compiled with the rest of the core
(``python -m ghostparty.build_core``), so the compiled core's benchmark measures the
engine, not an interpreted loop around it; ``ghostparty.sim.bench`` runs this same
function on either core. It draws exactly what ``ghostparty.sim.playout``'s loop draws
with the random bot and the die sharing that source (a test checks it).
"""

from __future__ import annotations

from random import Random
from typing import Final

from ghostparty.rules.actions import DIE_FACES, Roll
from ghostparty.rules.movegen import legal_actions
from ghostparty.rules.position import OVER, ROLL, start_position
from ghostparty.rules.rulesets import Ruleset
from ghostparty.rules.transition import apply

#: The die's six faces (a C static once compiled, not a module global).
_FACES: Final[tuple[Roll, ...]] = DIE_FACES


def random_game(ruleset: Ruleset, players: int, rng: Random) -> int:
    """Play one game from the start, every roll and every choice drawn from ``rng``;
    return its number of actions.

    A roll is ``DIE_FACES[int(rng.random() * 6)]`` (what
    :func:`~ghostparty.rules.sample_roll` draws), a choice
    ``actions[int(rng.random() * len(actions))]`` (the random bot's).
    """
    draw = rng.random  # bound once: no method look-up per action
    position = start_position(ruleset, players)
    count = 0
    while True:
        phase = position.phase
        if phase == OVER:
            return count
        if phase == ROLL:
            position = apply(position, _FACES[int(draw() * 6)])
        else:
            actions = legal_actions(position)
            position = apply(position, actions[int(draw() * len(actions))])
        count += 1
