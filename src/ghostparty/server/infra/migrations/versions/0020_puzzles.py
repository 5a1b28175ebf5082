"""Puzzles: the puzzles with their ratings and themes, each account's puzzle rating, the
attempts (one per puzzle and account) and the daily puzzle.

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

_PUZZLE = "gp_puzzles.id"
_PLAYER = "gp_players.id"


def upgrade() -> None:
    op.create_table(
        "gp_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("position", sa.JSON, nullable=False),
        sa.Column("puzzle", sa.JSON, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("added", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_puzzles_rules_rating", "gp_puzzles", ["rules", "rating", "id"])
    op.create_table(
        "gp_puzzle_themes",
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey(_PUZZLE, ondelete="CASCADE"), primary_key=True),
        sa.Column("theme", sa.String(32), primary_key=True),
    )
    op.create_table(
        "gp_puzzle_players",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
    )
    op.create_table(
        "gp_puzzle_attempts",
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey(_PUZZLE, ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_puzzle_attempts_player_id", "gp_puzzle_attempts", ["player_id"])
    op.create_table(
        "gp_daily_puzzles",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey(_PUZZLE, ondelete="CASCADE"), nullable=False),
    )


def downgrade() -> None:
    for name in ("gp_daily_puzzles", "gp_puzzle_attempts", "gp_puzzle_players", "gp_puzzle_themes", "gp_puzzles"):
        op.drop_table(name)
