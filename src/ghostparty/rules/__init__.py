"""The rules core: pure, standard library only, no I/O.

Everything RULES.md specifies lives here: boards as data (:mod:`.board`), the two rule
sets (:mod:`.rulesets`), positions (:mod:`.position`), legal actions (:mod:`.movegen`),
applying them (:mod:`.transition`), the die as a chance step (:mod:`.chance`), the JSON
notation of FORMAT.md (:mod:`.notation`), the :class:`Game` facade and game records.

The hot modules may run compiled by mypyc (``python -m ghostparty.build_core``);
:func:`compiled` says whether they do (:func:`describe_core` why), ``GHOSTPARTY_PURE=1``
forces the pure ones, and
:mod:`._core` (imported first, it decides before the others load) explains the choice.
"""

# First: it picks the compiled or the pure modules before any of them is imported.
from ghostparty.rules._core import compiled, describe_core  # isort: skip

from ghostparty.rules.actions import DIE, HUGO, PASS, Action, Move, Pass, Place, Roll
from ghostparty.rules.board import HUGO_BOARD, MIDNIGHT_PARTY_BOARD, Board, Room
from ghostparty.rules.chance import chance_outcomes, sample_roll
from ghostparty.rules.errors import GhostPartyError, IllegalAction, InvalidAction, InvalidPosition, InvalidRecord
from ghostparty.rules.events import Event
from ghostparty.rules.game import Game
from ghostparty.rules.movegen import legal_actions
from ghostparty.rules.notation import action_from_dict, action_to_dict, position_from_dict, position_to_dict
from ghostparty.rules.position import MOVE, OVER, PLACE, ROLL, Phase, Position, start_position
from ghostparty.rules.record import GameRecord
from ghostparty.rules.rulesets import COLOURS, GUESTS_PER_PLAYER, HUGO_RULES, MIDNIGHT_PARTY, RULESETS, Ruleset, ruleset
from ghostparty.rules.transition import apply, is_legal

__all__ = [
    "COLOURS",
    "DIE",
    "GUESTS_PER_PLAYER",
    "HUGO",
    "HUGO_BOARD",
    "HUGO_RULES",
    "MIDNIGHT_PARTY",
    "MIDNIGHT_PARTY_BOARD",
    "MOVE",
    "OVER",
    "PASS",
    "PLACE",
    "ROLL",
    "RULESETS",
    "Action",
    "Board",
    "Event",
    "Game",
    "GameRecord",
    "GhostPartyError",
    "IllegalAction",
    "InvalidAction",
    "InvalidPosition",
    "InvalidRecord",
    "Move",
    "Pass",
    "Phase",
    "Place",
    "Position",
    "Roll",
    "Room",
    "Ruleset",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "chance_outcomes",
    "compiled",
    "describe_core",
    "is_legal",
    "legal_actions",
    "position_from_dict",
    "position_to_dict",
    "ruleset",
    "sample_roll",
    "start_position",
]
