"""Bots: players that choose actions from a position and a seeded random source."""

from ghostparty.bots import _core  # noqa: F401  # isort: skip  (decides, before .leaf loads, whether it runs compiled)
from ghostparty.bots.base import Bot, bot_names, make_bot, register
from ghostparty.bots.expectimax import ExpectimaxBot
from ghostparty.bots.greedy import GreedyBot
from ghostparty.bots.learned import LearnedBot
from ghostparty.bots.mcts import MctsBot
from ghostparty.bots.random_bot import RandomBot

__all__ = [
    "Bot",
    "ExpectimaxBot",
    "GreedyBot",
    "LearnedBot",
    "MctsBot",
    "RandomBot",
    "bot_names",
    "make_bot",
    "register",
]
