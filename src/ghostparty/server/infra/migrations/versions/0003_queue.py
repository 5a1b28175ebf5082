"""The quick-match queue.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gp_queue",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("gp_players.id", ondelete="CASCADE")),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bots_after", sa.Integer),
        sa.Column("rating", sa.Integer),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(16)),
        sa.Column("seat", sa.Integer),
        sa.Column("token", sa.String(64)),
    )
    op.create_index("ix_gp_queue_player_id", "gp_queue", ["player_id"])
    op.create_index("ix_gp_queue_seen", "gp_queue", ["seen"])


def downgrade() -> None:
    op.drop_index("ix_gp_queue_seen", "gp_queue")
    op.drop_index("ix_gp_queue_player_id", "gp_queue")
    op.drop_table("gp_queue")
