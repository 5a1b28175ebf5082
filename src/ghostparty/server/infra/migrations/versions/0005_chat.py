"""Chat at the table: the players' and the spectators' lines, kept with the game.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gp_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400)),
        sa.Column("phrase", sa.String(32)),
        sa.Column("during_game", sa.Boolean, nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_chat_table_id", "gp_chat", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_gp_chat_table_id", "gp_chat")
    op.drop_table("gp_chat")
