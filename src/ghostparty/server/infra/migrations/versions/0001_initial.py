"""The first release's tables: tables, seats, actions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gp_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("first_player", sa.Integer),
        sa.Column("to_move", sa.Integer),
        sa.Column("winners", sa.JSON, nullable=False),
        sa.Column("turn_seconds", sa.Integer),
        sa.Column("absent_bot", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_tables_status", "gp_tables", ["status"])
    op.create_index("ix_gp_tables_updated", "gp_tables", ["updated"])
    op.create_table(
        "gp_seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(64)),
        sa.Column("name", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("away", sa.Boolean, nullable=False),
        sa.Column("back", sa.Boolean, nullable=False),
    )
    op.create_table(
        "gp_actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("gp_actions")
    op.drop_table("gp_seats")
    op.drop_index("ix_gp_tables_updated", "gp_tables")
    op.drop_index("ix_gp_tables_status", "gp_tables")
    op.drop_table("gp_tables")
