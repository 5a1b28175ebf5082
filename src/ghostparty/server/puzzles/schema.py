"""The puzzles' tables: the puzzles, their themes, each account's puzzle rating, the
attempts and the daily puzzle.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0020: puzzles -------------------------------------------------------------------------

_PUZZLE = "gp_puzzles.id"
_PLAYER = "gp_players.id"

#: A puzzle (``ghostparty-puzzles/1``'s item, whole in ``puzzle``; the position a player
#: is shown in ``position``), with its Glicko-2 rating and how often accounts tried and
#: solved it at their first attempt.
puzzles = SqlTable(
    "gp_puzzles",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("position", JSON, nullable=False),
    Column("puzzle", JSON, nullable=False),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("vol", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("added", DateTime(timezone=True), nullable=False),
    # The next puzzle near a rating: one range read of this index.
    Index("ix_gp_puzzles_rules_rating", "rules", "rating", "id"),
)

#: A puzzle's themes (:data:`ghostparty.analysis.themes.THEMES`), one row each.
puzzle_themes = SqlTable(
    "gp_puzzle_themes",
    metadata,
    Column("puzzle_id", String(16), ForeignKey(_PUZZLE, ondelete="CASCADE"), primary_key=True),
    Column("theme", String(32), primary_key=True),
)

#: An account's puzzle rating and record.
puzzle_players = SqlTable(
    "gp_puzzle_players",
    metadata,
    Column("player_id", Integer, ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("vol", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("streak", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
)

#: An account's first attempt at a puzzle: the one that counts (one per puzzle and account).
puzzle_attempts = SqlTable(
    "gp_puzzle_attempts",
    metadata,
    Column("puzzle_id", String(16), ForeignKey(_PUZZLE, ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True, index=True),
    Column("correct", Boolean, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

#: The daily puzzle of each UTC date (``YYYY-MM-DD``), picked once.
daily_puzzles = SqlTable(
    "gp_daily_puzzles",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("puzzle_id", String(16), ForeignKey(_PUZZLE, ondelete="CASCADE"), nullable=False),
)
