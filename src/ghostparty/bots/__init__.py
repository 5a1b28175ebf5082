"""Bots: players that choose actions from a position and a seeded random source."""

from ghostparty.bots.base import Bot, bot_names, make_bot, register
from ghostparty.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register"]
