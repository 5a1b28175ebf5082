"""Bot invitations: a person's invitation of a bot account to one seat of an open table,
which the bot's acceptance must match.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_PLAYER = "gp_players.id"


def upgrade() -> None:
    op.create_table(
        "gp_bot_invitations",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("bot_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("inviter_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    for column in ("bot_id", "inviter_id", "expires"):
        op.create_index(f"ix_gp_bot_invitations_{column}", "gp_bot_invitations", [column])


def downgrade() -> None:
    op.drop_table("gp_bot_invitations")
