"""Tournaments: arena and Swiss events, their entrants and their games.

Revision ID: 0014
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0011"
branch_labels = None
depends_on = None

_PLAYER = "gp_players.id"
_TOURNAMENT = "gp_tournaments.id"


def upgrade() -> None:
    op.create_table(
        "gp_tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("turn_seconds", sa.Integer, nullable=False),
        sa.Column("starts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("minutes", sa.Integer),
        sa.Column("rounds", sa.Integer),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="SET NULL")),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(200)),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("round_at", sa.DateTime(timezone=True)),
        sa.Column("recurring", sa.String(64)),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("recurring", "starts", name="uq_gp_tournaments_recurring_starts"),
    )
    op.create_index("ix_gp_tournaments_starts", "gp_tournaments", ["starts"])
    op.create_index("ix_gp_tournaments_status", "gp_tournaments", ["status"])
    op.create_table(
        "gp_tournament_entrants",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey(_TOURNAMENT, ondelete="CASCADE"), primary_key=True),
        sa.Column("entrant", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="SET NULL")),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(64)),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_tournament_entrants_player_id", "gp_tournament_entrants", ["player_id"])
    op.create_table(
        "gp_tournament_games",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey(_TOURNAMENT, ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(24), primary_key=True),
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False, unique=True
        ),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("tokens", sa.JSON, nullable=False),
        sa.Column("recorded", sa.Boolean, nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("gp_tournament_games")
    op.drop_table("gp_tournament_entrants")
    op.drop_index("ix_gp_tournaments_status", "gp_tournaments")
    op.drop_index("ix_gp_tournaments_starts", "gp_tournaments")
    op.drop_table("gp_tournaments")
