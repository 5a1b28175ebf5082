"""Accounts: players, sessions, ratings and results; rated tables, seats of players.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("gp_tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("gp_seats", sa.Column("player_id", sa.Integer))
    op.create_index("ix_gp_seats_player_id", "gp_seats", ["player_id"])
    op.create_table(
        "gp_players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(200)),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "gp_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_sessions_player_id", "gp_sessions", ["player_id"])
    op.create_index("ix_gp_sessions_expires", "gp_sessions", ["expires"])
    op.create_table(
        "gp_ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rules", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "gp_results",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("gp_players.id", ondelete="SET NULL")),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float),
        sa.Column("sigma_before", sa.Float),
        sa.Column("mu_after", sa.Float),
        sa.Column("sigma_after", sa.Float),
        sa.Column("ended", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_results_player_ended", "gp_results", ["player_id", "ended"])


def downgrade() -> None:
    op.drop_index("ix_gp_results_player_ended", "gp_results")
    op.drop_table("gp_results")
    op.drop_table("gp_ratings")
    op.drop_index("ix_gp_sessions_expires", "gp_sessions")
    op.drop_index("ix_gp_sessions_player_id", "gp_sessions")
    op.drop_table("gp_sessions")
    op.drop_table("gp_players")
    with op.batch_alter_table("gp_seats") as batch:
        batch.drop_index("ix_gp_seats_player_id")
        batch.drop_column("player_id")
    with op.batch_alter_table("gp_tables") as batch:
        batch.drop_column("rated")
