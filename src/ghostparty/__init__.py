"""Ghost Party: the board game *Hugo – Das Schlossgespenst* (Midnight Party) in Python.

The JSON interface of FORMAT.md::

    from ghostparty import Game, IllegalAction, InvalidPosition

    game = Game.from_position(position_dict)
    game.position(); game.legal_actions(); game.apply({"roll": 4})

The typed rules core is :mod:`ghostparty.rules`.
"""

from ghostparty.rules import (
    HUGO,
    Action,
    Game,
    GameRecord,
    GhostPartyError,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidRecord,
    Move,
    Pass,
    Place,
    Position,
    Roll,
    ruleset,
)

__version__ = "0.1.0"

__all__ = [
    "HUGO",
    "Action",
    "Game",
    "GameRecord",
    "GhostPartyError",
    "IllegalAction",
    "InvalidAction",
    "InvalidPosition",
    "InvalidRecord",
    "Move",
    "Pass",
    "Place",
    "Position",
    "Roll",
    "__version__",
    "ruleset",
]
